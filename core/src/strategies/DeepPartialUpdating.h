// SPDX-License-Identifier: MIT
// DPU: combined global and local contributions (lambda = 0.5 by default), re-initialisation on.
#pragma once
#include "strategies/ContributionUpdating.h"

namespace dpu {

class DeepPartialUpdating : public ContributionUpdating {
public:
    DeepPartialUpdating(double lambda, bool reinit, bool iterative)
        : ContributionUpdating(lambda, reinit, iterative), reinit_(reinit) {}
    std::string name() const override { return reinit_ ? "dpu" : "dpu-noreinit"; }

private:
    bool reinit_;
};

} // namespace dpu
