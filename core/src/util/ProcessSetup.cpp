// SPDX-License-Identifier: MIT
// Sets OMP_WAIT_POLICY=passive and re-executes, because the OpenMP runtime reads it at load time.
#include "dpu/Process.h"
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

} // namespace dpu
