// SPDX-License-Identifier: MIT
// Alg. 1 of the paper, parameterised by lambda: full step, contributions, top-k mask, rewind, sparse fine-tune.
#pragma once
#include "strategies/Strategy.h"

namespace dpu {

/// Shared by DPU (lambda in (0, 1)), GCPU (lambda = 1) and LCPU (lambda = 0). With
/// `iterative` (single-round mode) it rewinds 20 % of the remaining trainable weights and
/// fine-tunes, repeatedly, until round(k * I) remain.
class ContributionUpdating : public Strategy {
public:
    ContributionUpdating(double lambda, bool reinit, bool iterative)
        : lambda_(lambda), reinit_(reinit), iterative_(iterative) {}
    bool followsReinitRule() const override { return reinit_; }
    RoundOutput runRound(const RoundInput& in) override;

private:
    double lambda_;
    bool reinit_;
    bool iterative_;
};

} // namespace dpu
