// SPDX-License-Identifier: MIT
// FU: every round trains all weights from the same seeded random model and ships them all.
#pragma once
#include "strategies/Strategy.h"

namespace dpu {

class FullUpdating : public Strategy {
public:
    std::string name() const override { return "fu"; }
    StrategyPolicy policy() const override { return {StartFrom::Seeded, true, false, false}; }
    RoundOutput runRound(const RoundInput& in) override;
};

} // namespace dpu
