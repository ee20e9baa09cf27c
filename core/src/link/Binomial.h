// SPDX-License-Identifier: MIT
// Binomial and negative binomial distributions from +, -, *, / only (the same bits on every IEEE-754 machine).
#pragma once
#include <cstdint>
#include <vector>

namespace dpu::link {

/// A discrete distribution over [lo, lo + cdf.size()), built outward from its mode by the ratio
/// of neighbouring probabilities and cut where a probability falls below 1e-25 of the mode's
/// (far beyond any completion target a plan can name). No lgamma, exp or pow: the table is the
/// same on every standard library, which keeps the fleet simulation's draws portable.
struct Distribution {
    int64_t lo = 0;
    std::vector<double> cdf; ///< cdf[i] = P(X <= lo + i); the last is 1

    /// P(X < k).
    double below(int64_t k) const;
    /// The smallest x with P(X <= x) > u, for u in [0, 1): inverse-transform sampling.
    int64_t sample(double u) const;
};

/// Successes in `trials` independent trials of probability `success` (0 <= success <= 1).
Distribution binomial(int64_t trials, double success);

/// Failures before the `successes`-th success (success in (0, 1]).
Distribution negativeBinomialFailures(int64_t successes, double success);

/// P(Binomial(trials, success) >= k).
double binomialAtLeast(int64_t trials, double success, int64_t k);

/// The fewest trials M >= needed with P(Binomial(M, success) >= needed) >= probability
/// (success in (0, 1], probability in (0, 1)).
int64_t fewestTrials(int64_t needed, double success, double probability);

} // namespace dpu::link
