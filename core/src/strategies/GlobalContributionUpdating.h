// SPDX-License-Identifier: MIT
// GCPU: the mask from the global contribution (w_f - w)^2 alone (Alg. 2), re-initialisation off.
#pragma once
#include "strategies/ContributionUpdating.h"

namespace dpu {

class GlobalContributionUpdating : public ContributionUpdating {
public:
    GlobalContributionUpdating(bool reinit, bool iterative)
        : ContributionUpdating(1.0, reinit, iterative), reinit_(reinit) {}
    std::string name() const override { return reinit_ ? "gcpu-reinit" : "gcpu"; }

private:
    bool reinit_;
};

} // namespace dpu
