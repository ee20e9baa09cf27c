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

/// libFuzzer's allocation limit from its flags: -malloc_limit_mb, which defaults to -rss_limit_mb
/// (2048 by default); 0 when there is none.
long long mallocLimitMb(int argc, char** argv)
{
    long long mallocMb = 0, rss = 2048;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("-malloc_limit_mb=", 0) == 0)
            mallocMb = std::atoll(arg.c_str() + 17);
        else if (arg.rfind("-rss_limit_mb=", 0) == 0)
            rss = std::atoll(arg.c_str() + 14);
    }
    return mallocMb > 0 ? mallocMb : rss;
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    dpu::omitLibTorchBacktraces(); // as the programs do: a backtrace per refusal cost 3/4 of the time
    std::atexit(removeInput);
    // The check process (this program started again) runs without libFuzzer: it applies the
    // limit itself (ScriptCheck.cpp), so that a damaged size ends it as it ends this process.
    if (const long long mb = mallocLimitMb(*argc, *argv); mb > 0)
        setenv("DPU_FUZZ_MALLOC_LIMIT_MB", std::to_string(mb).c_str(), 1);
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
