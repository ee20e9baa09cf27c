// SPDX-License-Identifier: MIT
// libFuzzer target: the TorchScript import ("torchscript:PATH") on any bytes: a module, or an Error naming the file; never a crash.
#include "dpu/Error.h"
#include "dpu/Process.h"
#include "models/ScriptNetwork.h"
#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

/// LibTorch reads a module from a path: the input goes to a file in memory (one per process).
const std::string& inputPath()
{
    static const std::string path = "/dev/shm/dpu-fuzz-torchscript-" + std::to_string(getpid()) + ".pt";
    return path;
}

void removeInput()
{
    std::remove(inputPath().c_str());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    dpu::omitLibTorchBacktraces(); // as the programs do: a backtrace per refusal cost 3/4 of the time
    std::atexit(removeInput);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string& path = inputPath();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        if (!out)
            std::abort(); // the harness's own failure, not a finding
    }
    try {
        dpu::ScriptNetwork net(path);
        net.setTraining(false);
        for (const auto& p : net.parameters())
            (void)p.tensor.numel();
        // What the form's model check does: one forward pass on two samples (a module that
        // loads may still fail here, and must fail by name too).
        net.forward(torch::zeros({2, 1, 28, 28}));
    } catch (const dpu::Error& e) {
        if (std::string(e.what()).find(path) == std::string::npos)
            std::abort(); // an error that does not say which file
    }
    // Anything else escaping (a LibTorch exception, c10::Error) terminates: libFuzzer reports it.
    return 0;
}
