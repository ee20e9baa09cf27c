// SPDX-License-Identifier: MIT
// Portable seeded initialiser: every model's random weights come from core/patch's dpu_init.
#include "models/PortableInit.h"
#include "dpu/Error.h"
#include "dpu_init.h"
#include <unordered_map>

namespace dpu {

namespace {

/// The last dotted component: "features.1.weight" -> "weight".
std::string leafName(const std::string& name)
{
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

/// "features.1.bias" -> "features.1." (empty for a top-level name).
std::string prefixOf(const std::string& name)
{
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? std::string() : name.substr(0, dot + 1);
}

InitRule uniformRule(uint32_t index, const NamedTensor& weight)
{
    InitRule rule;
    rule.kind = InitRule::Kind::Uniform;
    rule.index = index;
    rule.fanIn = uint64_t(weight.tensor.numel() / weight.tensor.size(0));
    rule.bound = dpu_init_bound(rule.fanIn);
    if (rule.bound == 0.f)
        throw Error("initialiser: parameter " + weight.name + " has fan-in " + std::to_string(rule.fanIn) +
                    ", expected 1 to 2^24");
    return rule;
}

/// Generates the values on the CPU (straight into the tensor when it is a contiguous CPU
/// tensor) so that they never depend on a device's arithmetic, then copies them over.
template <typename Fill>
void writeFloats(torch::Tensor& dst, Fill fill)
{
    const auto n = static_cast<size_t>(dst.numel());
    if (n == 0)
        return;
    if (dst.device().is_cpu() && dst.is_contiguous()) {
        fill(dst.data_ptr<float>(), n);
        return;
    }
    auto host = torch::empty(dst.sizes(), torch::TensorOptions().dtype(torch::kFloat32));
    fill(host.data_ptr<float>(), n);
    dst.copy_(host);
}

} // namespace

std::vector<InitRule> initRules(const std::vector<NamedTensor>& parameters)
{
    if (parameters.size() > UINT32_MAX)
        throw Error("initialiser: more than 2^32 parameter tensors");
    std::unordered_map<std::string, size_t> byName;
    for (size_t i = 0; i < parameters.size(); ++i) {
        const auto& p = parameters[i];
        if (p.tensor.scalar_type() != torch::kFloat32)
            throw Error("initialiser: parameter " + p.name + " is " +
                        std::string(c10::toString(p.tensor.scalar_type())) + ", expected float32");
        byName.emplace(p.name, i);
    }
    std::vector<InitRule> rules;
    rules.reserve(parameters.size());
    for (size_t i = 0; i < parameters.size(); ++i) {
        const auto& p = parameters[i];
        const auto index = static_cast<uint32_t>(i);
        const std::string leaf = leafName(p.name);
        InitRule rule;
        rule.index = index;
        if (p.tensor.dim() > 1) {
            rule = uniformRule(index, p);
        } else if (leaf == "bias") {
            // A layer's bias shares its weight's bound (PyTorch's default for Linear/Conv)
            // but draws from its own key; a normalisation layer's shift starts at 0.
            const auto sibling = byName.find(prefixOf(p.name) + "weight");
            if (sibling != byName.end() && parameters[sibling->second].tensor.dim() > 1) {
                rule = uniformRule(index, parameters[sibling->second]);
                rule.index = index;
            }
        } else if (leaf == "weight") {
            rule.value = 1.f; // BatchNorm/LayerNorm scale
        }
        rules.push_back(rule);
    }
    return rules;
}

bool initialBufferValue(const std::string& name, double& value)
{
    const std::string leaf = leafName(name);
    if (leaf == "running_var") {
        value = 1.0;
        return true;
    }
    if (leaf == "running_mean" || leaf == "num_batches_tracked") {
        value = 0.0;
        return true;
    }
    return false;
}

void initialiseNetwork(Network& network, uint64_t seed)
{
    torch::NoGradGuard noGrad;
    auto parameters = network.parameters();
    const auto rules = initRules(parameters); // validates everything before writing anything
    for (size_t i = 0; i < parameters.size(); ++i) {
        const InitRule& rule = rules[i];
        if (rule.kind == InitRule::Kind::Uniform) {
            const uint64_t key = dpu_init_key(seed, rule.index);
            writeFloats(parameters[i].tensor, [&](float* out, size_t n) {
                dpu_init_uniform(out, n, key, 0, rule.bound);
            });
        } else {
            writeFloats(parameters[i].tensor, [&](float* out, size_t n) {
                dpu_init_constant(out, n, rule.value);
            });
        }
    }
    for (auto& buffer : network.buffers()) {
        double value = 0.0;
        if (initialBufferValue(buffer.name, value))
            buffer.tensor.fill_(value); // exact for 0 and 1 in every dtype
    }
}

} // namespace dpu
