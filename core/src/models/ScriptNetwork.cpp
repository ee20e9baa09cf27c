// SPDX-License-Identifier: MIT
// Loads and runs a TorchScript module; LibTorch errors become dpu::Error naming the file.
#include "models/ScriptNetwork.h"
#include "models/ScriptCheck.h"
#include "models/ScriptLoad.h"
#include "models/ScriptTensors.h"
#include "dpu/Error.h"
#include <filesystem>
#include <optional>

namespace dpu {

namespace {

/// The reason of an error from forward(): the interpreter's own errors open with a fixed line and
/// a traceback of the module's code, and end with the error itself.
std::string forwardReasonOf(const std::exception& e)
{
    const std::string text = e.what();
    if (text.rfind("The following operation failed in the TorchScript interpreter", 0) != 0)
        return scriptReasonOf(e);
    const auto end = text.find_last_not_of("\n \t");
    const auto start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

} // namespace

ScriptNetwork::ScriptNetwork(const std::string& path) : path_(path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error("TorchScript file " + path + ": no such file");
    // Only the fuzz build fuzz_torchscript_inprocess loads without the check: under ASan the
    // check costs many times the load, and libFuzzer's -fork mode isolates that build instead;
    // bench/fuzz.sh replays each input that ended one of its workers through the guarded build,
    // which must refuse it by name.
#ifndef DPU_FUZZ_UNGUARDED_LOAD
    if (const auto refused = refusedByCheckProcess(path))
        throw Error("TorchScript file " + path + ": cannot load: " + *refused);
#endif
    std::string damaged;
    try {
        module_ = loadWithoutDebugRecords(path); // as the check process did
        // One that loads may still hold a tensor without data.
        damaged = damagedTensorOf(module_);
    } catch (const torch::jit::ErrorReport&) {
        throw Error("TorchScript file " + path + ": cannot load: its code does not compile in this LibTorch");
    } catch (const std::exception& e) {
        throw Error("TorchScript file " + path + ": cannot load: " + scriptReasonOf(e));
    } catch (...) {
        throw Error("TorchScript file " + path + ": cannot load: " + kNoScriptReason);
    }
    if (!damaged.empty())
        throw Error("TorchScript file " + path + ": cannot load: " + damaged);
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
    } catch (const torch::jit::ErrorReport&) { // see scriptReasonOf
        throw Error("TorchScript file " + path_ + ": forward failed: its code does not compile in this LibTorch");
    } catch (const std::exception& e) {
        throw Error("TorchScript file " + path_ + ": forward failed: " + forwardReasonOf(e));
    } catch (...) {
        throw Error("TorchScript file " + path_ + ": forward failed: " + kNoScriptReason);
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
