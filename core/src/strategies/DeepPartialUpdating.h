// SPDX-License-Identifier: MIT
// DPU: combined global and local contributions (lambda = 0.5 by default), re-initialisation on;
// "dpu-memory" adds the server-side memory (error feedback).
#pragma once
#include "strategies/ContributionUpdating.h"

namespace dpu {

class DeepPartialUpdating : public ContributionUpdating {
public:
    DeepPartialUpdating(double lambda, bool reinit, bool iterative, bool memory = false)
        : ContributionUpdating(lambda, reinit, iterative, memory), reinit_(reinit), memory_(memory) {}
    std::string name() const override { return memory_ ? "dpu-memory" : reinit_ ? "dpu" : "dpu-noreinit"; }

private:
    bool reinit_;
    bool memory_;
};

} // namespace dpu
