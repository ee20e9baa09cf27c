// SPDX-License-Identifier: MIT
// The per-round rules: when to re-initialise (Sec. 4.2), when a round deploys (Sec. 5), the round's share of k.
#pragma once
#include "dpu/PlanEnums.h"
#include <cstdint>

namespace dpu {

/// Re-initialise when |D^r| > 2 |D| at the last deployed (re-)initialisation. The counter
/// starts at 0, so the first round always starts from the seeded random model; it advances
/// only when such a round deploys, so until then every round retries from the random model.
inline bool shouldReinitialise(int64_t samples, int64_t lastReinitSamples)
{
    return samples > 2 * lastReinitSamples;
}

/// Re-initialise every `every` rounds (plan reinit_every): rounds 1, 1 + every, 1 + 2 every, ...
/// A fixed count, as the paper's appendix compares it, whether or not those rounds deploy.
inline bool reinitialisesEvery(int round, int every)
{
    return every > 0 && (round - 1) % every == 0;
}

/// A round deploys only if its validation accuracy beats the deployed model's; otherwise the
/// devices keep their model and the round costs nothing.
inline bool passesDeployGate(double candidateValAccuracy, double deployedValAccuracy)
{
    return candidateValAccuracy > deployedValAccuracy;
}

/// The round's share of k (plan k_share): `mixed` is the global top-k in a round that starts
/// from a random model (round 1, a re-initialisation: every weight is new and its contributions
/// alone rank it) and `mass` in the others; the other shares are the same every round.
inline KShare shareOf(KShare planned, bool fromRandom)
{
    if (planned != KShare::Mixed)
        return planned;
    return fromRandom ? KShare::Global : KShare::Mass;
}

} // namespace dpu
