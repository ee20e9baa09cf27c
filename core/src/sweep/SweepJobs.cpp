// SPDX-License-Identifier: MIT
// How many cells a local sweep runs at once when the user names no number: by where the cells train.
#include "dpu/LocalSweep.h"
#include "util/TorchCompat.h"
#include <unistd.h>
#include <algorithm>

namespace dpu {

int defaultLocalSweepJobs(const Sweep& sweep, int cores, bool gpu)
{
    const bool onGpu = std::any_of(sweep.cells.begin(), sweep.cells.end(), [gpu](const SweepCell& c) {
        return c.plan.device == ComputeDevice::Cuda || (c.plan.device == ComputeDevice::Auto && gpu);
    });
    if (!onGpu)
        return 1;
    const int cells = static_cast<int>(std::min<size_t>(sweep.cells.size(), 256));
    return std::max(1, std::min(std::max(1, cores), cells));
}

int defaultLocalSweepJobs(const Sweep& sweep)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return defaultLocalSweepJobs(sweep, static_cast<int>(std::max(1L, online)), compat::cudaAvailable());
}

} // namespace dpu
