// SPDX-License-Identifier: MIT
// Loads and runs a TorchScript module; LibTorch errors become dpu::Error naming the file.
#include "models/ScriptNetwork.h"
#include "dpu/Error.h"
#include <filesystem>

namespace dpu {

namespace {

/// First line of a LibTorch message: the rest is a C++ backtrace that helps nobody.
std::string firstLine(const std::string& text)
{
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

} // namespace

ScriptNetwork::ScriptNetwork(const std::string& path) : path_(path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error("TorchScript file " + path + ": no such file");
    try {
        // Load on the CPU whatever device the module was saved from; the runner moves it.
        module_ = torch::jit::load(path, torch::kCPU);
    } catch (const std::exception& e) {
        throw Error("TorchScript file " + path + ": cannot load: " + firstLine(e.what()));
    }
    bool floating = false;
    for (const auto& p : module_.named_parameters(/*recurse=*/true))
        floating = floating || p.value.is_floating_point();
    if (!floating)
        throw Error("TorchScript file " + path + ": has no floating-point parameters to train");
}

torch::Tensor ScriptNetwork::forward(const torch::Tensor& images)
{
    c10::IValue out;
    try {
        out = module_.forward({images});
    } catch (const std::exception& e) {
        throw Error("TorchScript file " + path_ + ": forward failed: " + firstLine(e.what()));
    }
    // Accept a (logits, ...) tuple as some exported classifiers return auxiliary outputs.
    if (out.isTuple() && !out.toTupleRef().elements().empty())
        out = out.toTupleRef().elements()[0];
    if (!out.isTensor())
        throw Error("TorchScript file " + path_ + ": forward must return a tensor of logits, got " +
                    out.tagKind());
    return out.toTensor();
}

void ScriptNetwork::setTraining(bool training)
{
    module_.train(training);
}

std::vector<NamedTensor> ScriptNetwork::parameters()
{
    std::vector<NamedTensor> out;
    for (const auto& p : module_.named_parameters(/*recurse=*/true))
        out.push_back({p.name, p.value});
    return out;
}

std::vector<NamedTensor> ScriptNetwork::buffers()
{
    std::vector<NamedTensor> out;
    for (const auto& b : module_.named_buffers(/*recurse=*/true))
        out.push_back({b.name, b.value});
    return out;
}

void ScriptNetwork::to(const torch::Device& device)
{
    module_.to(device);
}

} // namespace dpu
