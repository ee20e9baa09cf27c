// SPDX-License-Identifier: MIT
// Binomial and negative binomial tables built from the mode outward (see Binomial.h).
#include "link/Binomial.h"
#include "link/Text.h"
#include <algorithm>
#include <string>

namespace dpu::link {
namespace {

constexpr double kCut = 1e-25; // relative to the mode's probability
/// The most values a table holds (128 MiB of doubles). Its width grows as the distribution's
/// spread: sqrt(n) for the frames a device receives, but sqrt(n (1 - s)) / s for the
/// transmissions a retransmitting link needs, 2 x 10^9 values for 10^4 fragments at a loss of
/// 0.999999. Beyond the bound the table is refused, not built.
constexpr size_t kMaxEntries = size_t{1} << 24;
/// The most frames a session may need: counts stay far from int64's end and exact in a double.
constexpr double kMaxTrials = 0x1p50;

std::string lossText(double success)
{
    return exactNumber(1.0 - success);
}

[[noreturn]] void tooWide(const std::string& what, double success)
{
    throw LinkError("frameLoss", what + " at a loss of " + lossText(success) + " spread over more than " + std::to_string(kMaxEntries)
                                     + " likely values: a session too long for this loss");
}

Distribution pointMass(int64_t x)
{
    return Distribution{x, {1.0}};
}

/// Builds the table from the mode's weight 1 and the ratios p(x+1)/p(x) (up) and p(x-1)/p(x)
/// (down), stopping at the cut or at the support's ends.
template <class Up, class Down, class Fail>
Distribution fromMode(int64_t mode, int64_t minX, int64_t maxX, Up up, Down down, Fail fail)
{
    std::vector<double> below; // weights at mode-1, mode-2, ...
    double w = 1.0;
    for (int64_t x = mode; x > minX;) {
        w = down(x, w);
        if (w < kCut)
            break;
        if (below.size() >= kMaxEntries)
            fail();
        below.push_back(w);
        --x;
    }
    std::vector<double> above; // weights at mode+1, mode+2, ...
    w = 1.0;
    for (int64_t x = mode; x < maxX;) {
        w = up(x, w);
        if (w < kCut)
            break;
        if (below.size() + above.size() >= kMaxEntries)
            fail();
        above.push_back(w);
        ++x;
    }
    Distribution d;
    d.lo = mode - static_cast<int64_t>(below.size());
    d.cdf.reserve(below.size() + 1 + above.size());
    double sum = 0;
    for (auto it = below.rbegin(); it != below.rend(); ++it)
        d.cdf.push_back(sum += *it);
    d.cdf.push_back(sum += 1.0);
    for (double a : above)
        d.cdf.push_back(sum += a);
    for (double& c : d.cdf)
        c /= sum;
    return d;
}

} // namespace

double Distribution::below(int64_t k) const
{
    if (k <= lo)
        return 0.0;
    const int64_t i = k - 1 - lo;
    if (i >= static_cast<int64_t>(cdf.size()))
        return 1.0;
    return cdf[static_cast<size_t>(i)];
}

int64_t Distribution::sample(double u) const
{
    const auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
    const auto i = std::min<std::ptrdiff_t>(it - cdf.begin(), static_cast<std::ptrdiff_t>(cdf.size()) - 1);
    return lo + i;
}

Distribution binomial(int64_t trials, double success)
{
    if (trials <= 0 || success <= 0.0)
        return pointMass(0);
    if (success >= 1.0)
        return pointMass(trials);
    const double r = success / (1.0 - success);
    const auto n = static_cast<double>(trials);
    const int64_t mode = std::min<int64_t>(trials, static_cast<int64_t>((n + 1.0) * success));
    return fromMode(
        mode, 0, trials,
        [&](int64_t x, double w) { return w * (n - static_cast<double>(x)) / static_cast<double>(x + 1) * r; },
        [&](int64_t x, double w) { return w * static_cast<double>(x) / (n - static_cast<double>(x) + 1.0) / r; },
        [&] { tooWide("the frames a device receives of " + std::to_string(trials) + " sent", success); });
}

Distribution negativeBinomialFailures(int64_t successes, double success)
{
    if (successes <= 0 || success >= 1.0)
        return pointMass(0);
    const double q = 1.0 - success;
    const auto n = static_cast<double>(successes);
    if (!(n / success <= kMaxTrials))
        tooWide("the transmissions of " + std::to_string(successes) + " fragments", success);
    const int64_t mode = successes > 1 ? static_cast<int64_t>((n - 1.0) * q / success) : 0;
    return fromMode(
        mode, 0, INT64_MAX,
        [&](int64_t f, double w) { return w * (n + static_cast<double>(f)) / static_cast<double>(f + 1) * q; },
        [&](int64_t f, double w) { return w * static_cast<double>(f) / (n + static_cast<double>(f) - 1.0) / q; },
        [&] { tooWide("the transmissions of " + std::to_string(successes) + " fragments", success); });
}

double binomialAtLeast(int64_t trials, double success, int64_t k)
{
    if (k <= 0)
        return 1.0;
    if (k > trials)
        return 0.0;
    return 1.0 - binomial(trials, success).below(k);
}

int64_t fewestTrials(int64_t needed, double success, double probability)
{
    if (needed <= 0)
        return 0;
    if (success >= 1.0)
        return needed;
    // About needed / success frames: refused before a step or a count could leave int64.
    if (!(static_cast<double>(needed) / success <= kMaxTrials))
        throw LinkError("frameLoss", std::to_string(needed) + " fragments at a loss of " + lossText(success) + " need about "
                                         + number(static_cast<double>(needed) / success) + " frames, more than 2^50");
    const auto ok = [&](int64_t m) { return binomialAtLeast(m, success, needed) >= probability; };
    int64_t lo = needed; // the largest M known not to suffice (or needed itself)
    if (ok(lo))
        return lo;
    int64_t step = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(needed) * (1.0 - success) / success));
    int64_t hi = needed + step;
    while (!ok(hi)) {
        lo = hi;
        if (static_cast<double>(step) > kMaxTrials)
            throw LinkError("frameLoss", std::to_string(needed) + " fragments at a loss of " + lossText(success)
                                             + " do not reach the completion target within 2^50 frames");
        step *= 2;
        hi = needed + step;
    }
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (ok(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace dpu::link
