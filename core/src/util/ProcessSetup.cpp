// SPDX-License-Identifier: MIT
// Process setup: OMP_WAIT_POLICY=passive (re-executing, as the OpenMP runtime reads it at load time), SIGXFSZ ignored, no LibTorch backtraces.
#include "dpu/Process.h"
#include <c10/util/Logging.h>
#include <csignal>
#include <cstdlib>
#include <unistd.h>

namespace dpu {

void ensurePassiveOpenMP(int argc, char** argv)
{
    (void)argc;
    if (std::getenv("OMP_WAIT_POLICY") != nullptr)
        return;
    if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return;
    ::execv("/proc/self/exe", argv);
    // execv only returns on failure: carry on with the runtime's default policy.
}

void reportWriteLimitsAsErrors()
{
    std::signal(SIGXFSZ, SIG_IGN); // write() then fails with EFBIG, which the writers name
}

void omitLibTorchBacktraces()
{
    c10::SetStackTraceFetcher([] { return std::string(); });
}

} // namespace dpu
