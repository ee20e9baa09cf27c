// SPDX-License-Identifier: MIT
// Pruning (Renda et al.): train from the random model, keep the k*I largest magnitudes, rewind the rate.
#pragma once
#include "strategies/Strategy.h"

namespace dpu {

class Pruning : public Strategy {
public:
    std::string name() const override { return "pruning"; }
    StrategyPolicy policy() const override { return {StartFrom::Seeded, false, false, false}; }
    RoundOutput runRound(const RoundInput& in) override;
};

} // namespace dpu
