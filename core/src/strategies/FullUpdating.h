// SPDX-License-Identifier: MIT
// FU: every round trains all weights (by default from the same seeded random model) and ships them all.
#pragma once
#include "strategies/Strategy.h"

namespace dpu {

/// Where its rounds start is the plan's `fu_start` (the paper's appendix compares the three):
/// the seeded random model (the paper's baseline), a new random model, or the deployed weights.
class FullUpdating : public Strategy {
public:
    explicit FullUpdating(FuStart start = FuStart::Seeded) : start_(start) {}
    std::string name() const override { return "fu"; }
    StrategyPolicy policy() const override
    {
        const StartFrom from = start_ == FuStart::Fresh  ? StartFrom::Fresh
                               : start_ == FuStart::Last ? StartFrom::Deployed
                                                         : StartFrom::Seeded;
        return {from, true, false, false};
    }
    RoundOutput runRound(const RoundInput& in) override;

private:
    FuStart start_;
};

} // namespace dpu
