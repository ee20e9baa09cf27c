// SPDX-License-Identifier: MIT
// A round's bundle, written but not deployed: its size and the device's decoded weights.
#include "experiment/RoundPreview.h"

namespace dpu {

int64_t RoundPreview::bytes(const Weights& candidate) const
{
    return static_cast<int64_t>(update_.write(kind_, previous_, candidate, seed_, version_).bytes.size());
}

Weights RoundPreview::decoded(const Weights& candidate) const
{
    const torch::Device device = candidate.params.empty() ? torch::Device(torch::kCPU) : candidate.params[0].device();
    return update_.decoded(update_.write(kind_, previous_, candidate, seed_, version_), candidate, device);
}

} // namespace dpu
