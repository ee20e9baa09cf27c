// SPDX-License-Identifier: MIT
// Alg. 1 of the paper, parameterised by lambda: full step, contributions, top-k mask, rewind, sparse fine-tune.
#pragma once
#include "strategies/Strategy.h"

namespace dpu {

/// Shared by DPU (lambda in (0, 1)), GCPU (lambda = 1) and LCPU (lambda = 0). With
/// `iterative` (single-round mode) it rewinds 20 % of the remaining trainable weights and
/// fine-tunes, repeatedly, until round(k * I) remain.
///
/// With `memory` (error feedback, as Sparsified SGD with Memory and STC keep it on the server):
/// the full step continues the server's own model of the previous round instead of starting
/// from the deployed weights, so c_global = (w_server - w_deployed)^2 covers everything the
/// devices still lack, this round's training and what earlier rounds did not send (including
/// the error of lossy codings, since the deployed weights are what the devices decoded). The
/// memory is not a separate tensor: it is w_server - w_deployed, so whatever a round ships
/// leaves it, and nothing is sent twice.
///
/// Under a byte budget the count replaces round(k I): the largest n whose candidate (the full
/// step's weights at the top-n contributions, the start elsewhere) has a bundle within the
/// budget; after the fine-tune the lowest-ranked weights are dropped again should the trained
/// values have grown the bundle past it.
class ContributionUpdating : public Strategy {
public:
    ContributionUpdating(double lambda, bool reinit, bool iterative, bool memory = false)
        : lambda_(lambda), reinit_(reinit), iterative_(iterative), memory_(memory) {}
    StrategyPolicy policy() const override
    {
        return {reinit_ ? StartFrom::DeployedOrSeeded : StartFrom::Deployed, false, true, memory_};
    }
    RoundOutput runRound(const RoundInput& in) override;

private:
    double lambda_;
    bool reinit_;
    bool iterative_;
    bool memory_;
};

} // namespace dpu
