// SPDX-License-Identifier: MIT
// Helpers shared by the model tests: building networks, naming tensors, the C reference values.
#pragma once
#include "TestSupport.h"
#include "dpu_init.h"
#include "models/Network.h"
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dpu::modeltest {

inline std::unique_ptr<Network> make(const std::string& name, InputShape shape = {}, int classes = 10,
                                     double width = 1.0)
{
    ModelConfig config;
    config.name = name;
    config.input = shape;
    config.classes = classes;
    config.widthMultiplier = width;
    return createNetwork(config);
}

/// The committed TorchScript fixture (tests/data/torchscript/make_tiny_mlp.py).
inline std::string fixture()
{
    return "torchscript:" + test::dataDir() + "/torchscript/tiny_mlp.pt";
}

inline std::map<std::string, torch::Tensor> byName(const std::vector<NamedTensor>& list)
{
    std::map<std::string, torch::Tensor> out;
    for (const auto& t : list)
        out[t.name] = t.tensor;
    return out;
}

inline std::vector<std::string> names(const std::vector<NamedTensor>& list)
{
    std::vector<std::string> out;
    for (const auto& t : list)
        out.push_back(t.name);
    return out;
}

inline bool sameBytes(const torch::Tensor& a, const torch::Tensor& b)
{
    const auto ca = a.contiguous(), cb = b.contiguous();
    return ca.sizes() == cb.sizes() && ca.scalar_type() == cb.scalar_type() &&
           std::memcmp(ca.data_ptr(), cb.data_ptr(), size_t(ca.nbytes())) == 0;
}

inline bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// The initialiser's expected values for parameter t, computed straight from the C functions and
/// the rules of docs/initializer.md (not through initRules, so the two implementations check
/// each other).
inline torch::Tensor expectedFromC(const std::vector<NamedTensor>& params, size_t t, uint64_t seed)
{
    const auto& p = params[t].tensor;
    const std::string& name = params[t].name;
    auto out = torch::empty(p.sizes(), torch::kFloat32);
    const torch::Tensor* weight = p.dim() > 1 ? &p : nullptr;
    if (p.dim() == 1 && endsWith(name, "bias"))
        for (const auto& q : params)
            if (q.name == name.substr(0, name.size() - 4) + "weight" && q.tensor.dim() > 1)
                weight = &q.tensor;
    if (weight) {
        const auto fanIn = uint64_t(weight->numel() / weight->size(0));
        dpu_init_uniform(out.data_ptr<float>(), size_t(out.numel()), dpu_init_key(seed, uint32_t(t)), 0,
                         dpu_init_bound(fanIn));
    } else {
        dpu_init_constant(out.data_ptr<float>(), size_t(out.numel()), endsWith(name, "weight") ? 1.f : 0.f);
    }
    return out;
}

} // namespace dpu::modeltest
