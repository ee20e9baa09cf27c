// SPDX-License-Identifier: MIT
// RPU: fix a random (1 - k) share of every layer and sparsely fine-tune the rest from w.
#pragma once
#include "strategies/Strategy.h"

namespace dpu {

class RandomPartialUpdating : public Strategy {
public:
    std::string name() const override { return "rpu"; }
    /// Under a budget the ratio is the largest whose bundle fits, sized with random changes.
    StrategyPolicy policy() const override { return {StartFrom::Deployed, false, true, false}; }
    RoundOutput runRound(const RoundInput& in) override;
};

} // namespace dpu
