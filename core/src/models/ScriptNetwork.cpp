// SPDX-License-Identifier: MIT
// Loads and runs a TorchScript module; LibTorch errors become dpu::Error naming the file.
#include "models/ScriptNetwork.h"
#include "dpu/Error.h"
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <filesystem>

namespace dpu {

namespace {

/// First non-empty line of a LibTorch message: the rest is a C++ backtrace that helps nobody.
std::string firstLine(const std::string& text)
{
    const auto start = text.find_first_not_of("\n \t");
    if (start == std::string::npos)
        return "LibTorch gave no reason: the file is damaged or not a TorchScript module";
    const auto end = text.find('\n', start);
    return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// LibTorch 1.13's TorchScript importer crashes (SIGSEGV in ScriptTypeParser) on some damaged
/// files instead of throwing: found by fuzz_torchscript, tests/data/torchscript/damaged_crash.pt.
/// A crash must not take the window or a run with it, so the file is first loaded in a forked
/// child. Throws Error naming the file when the child died by a signal; returns when it loaded,
/// threw (the load below then throws the same error by name) or could not be checked (fork
/// failed, or the child hung: a lock another thread held at the fork; then the load below runs
/// as before).
void loadsWithoutCrashing(const std::string& path)
{
    const pid_t child = fork();
    if (child < 0)
        return;
    if (child == 0) {
        // Die by the signal itself, even under a sanitizer's handler, so that the parent sees it.
        for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
            std::signal(sig, SIG_DFL);
        try {
            torch::jit::load(path, torch::kCPU);
        } catch (...) {
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    for (int waited = 0; waited < 60000; waited += 10) { // loading takes milliseconds
        const pid_t got = waitpid(child, &status, WNOHANG);
        if (got == child) {
            if (WIFSIGNALED(status))
                throw Error("TorchScript file " + path + ": cannot load: LibTorch crashed reading it (signal " +
                            std::to_string(WTERMSIG(status)) + "): the file is damaged or not a TorchScript module");
            return;
        }
        if (got < 0 && errno != EINTR)
            return;
        usleep(10 * 1000);
    }
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
}

} // namespace

ScriptNetwork::ScriptNetwork(const std::string& path) : path_(path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error("TorchScript file " + path + ": no such file");
    loadsWithoutCrashing(path);
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
