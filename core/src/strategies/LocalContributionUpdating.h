// SPDX-License-Identifier: MIT
// LCPU: the mask from the local contribution c_local alone (paper Appendix F ablation).
#pragma once
#include "strategies/ContributionUpdating.h"

namespace dpu {

class LocalContributionUpdating : public ContributionUpdating {
public:
    LocalContributionUpdating(bool reinit, bool iterative) : ContributionUpdating(0.0, reinit, iterative) {}
    std::string name() const override { return "lcpu"; }
};

} // namespace dpu
