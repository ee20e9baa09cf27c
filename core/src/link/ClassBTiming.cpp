// SPDX-License-Identifier: MIT
// Class B's expected first-frame delay and frame spacing from the beacon period, the guard and the group's ping slots (docs/fleet.md "Class B").
#include "link/ClassBTiming.h"
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace dpu::link {
namespace {

constexpr int kOffsetSamples = 16;   // ping offsets averaged over (of the period's 32 .. 4096)
constexpr int kFineOffsetSamples = 64; // where a period has few slots, and its offset decides more
constexpr int kPositionSamples = 64; // session starts averaged over

/// The offset of sample i of `samples`: whole slots of 30 ms in [0, period).
double offsetSample(int i, double period, int samples = kOffsetSamples)
{
    const double offsets = std::max(1.0, std::floor(period / kPingSlotSeconds + 1e-9));
    return std::floor((i + 0.5) * offsets / samples) * kPingSlotSeconds;
}

/// Where the first frame at or after `t` (seconds from the start of beacon period 0) falls: the
/// beacon period and the slot index in it, every period's ping offset being `offset`.
struct SlotAt {
    int64_t beacon = 0;
    int slot = 0;
};
SlotAt firstSlotAt(double t, double period, int slots, double offset)
{
    for (auto beacon = std::max<int64_t>(0, static_cast<int64_t>(std::floor(t / kBeaconPeriodSeconds)));; ++beacon) {
        const double first = static_cast<double>(beacon) * kBeaconPeriodSeconds + kBeaconReservedSeconds + offset;
        const double k = t <= first ? 0 : std::ceil((t - first) / period - 1e-9);
        if (k < slots)
            return {beacon, static_cast<int>(k)};
    }
}

/// The stationary distribution of a Markov chain given as sparse rows, by a lazy power
/// iteration (half stays, half moves: it converges for a periodic chain too).
std::vector<double> stationary(const std::vector<std::vector<std::pair<size_t, double>>>& next)
{
    const size_t n = next.size();
    std::vector<double> share(n, 1.0 / static_cast<double>(n)), moved(n);
    for (int iteration = 0; iteration < 20000; ++iteration) {
        std::fill(moved.begin(), moved.end(), 0.0);
        for (size_t a = 0; a < n; ++a)
            for (const auto& [b, w] : next[a])
                moved[b] += share[a] * w;
        double change = 0;
        for (size_t a = 0; a < n; ++a) {
            const double updated = 0.5 * share[a] + 0.5 * moved[a];
            change += std::fabs(updated - share[a]);
            share[a] = updated;
        }
        if (change < 1e-13)
            break;
    }
    return share;
}

/// The spacing as a renewal over beacon periods. A period whose first frame falls at slot a
/// holds frames at a, a + m, a + 2m, ... (m ping periods: the first multiple at or after the
/// duty-cycle spacing); the last one's successor falls into a later period, at the slot that
/// period's offset gives, or, when that offset puts every slot before it, at the first slot of
/// the period after, whose offset is a fresh draw. A Markov chain on (a, offset bin): the offset
/// stays in the state where it spans much of the period (long ping periods), because where a
/// frame landed depends on it: a late offset catches a successor an early one missed, and then
/// frees the transmitter later. At most 128 states (slots x bins). Then
/// spacing = E[periods from one first frame to the next] x 128 s / E[frames per period].
double renewalSpacing(double period, int slots, double spacing)
{
    const int m = static_cast<int>(std::min<double>(slots, std::ceil(spacing / period - 1e-9)));
    const int samples = slots <= 8 ? kFineOffsetSamples : kOffsetSamples;
    const int bins = std::max(1, std::min(samples, 128 / slots));
    const int perBin = samples / bins;
    const auto n = static_cast<size_t>(slots * bins);
    const auto stateOf = [&](int slot, int sample) { return static_cast<size_t>(slot * bins + sample / perBin); };
    std::vector<std::vector<std::pair<size_t, double>>> next(n); // per state: (state, probability)
    std::vector<double> periods(n, 0.0), frames(n, 0.0), row(n);
    const double w = 1.0 / (perBin * samples);
    for (int a = 0; a < slots; ++a)
        for (int bin = 0; bin < bins; ++bin) {
            const size_t state = static_cast<size_t>(a * bins + bin);
            const int last = a + (slots - 1 - a) / m * m;
            frames[state] = (slots - 1 - a) / m + 1;
            std::fill(row.begin(), row.end(), 0.0);
            for (int i = bin * perBin; i < (bin + 1) * perBin; ++i) {
                // The successor's earliest time, from the start of the next beacon period.
                const double free = std::max(0.0, kBeaconReservedSeconds + offsetSample(i, period, samples) + last * period + spacing
                                                      - kBeaconPeriodSeconds);
                const auto candidate = static_cast<int64_t>(std::floor(free / kBeaconPeriodSeconds));
                for (int j = 0; j < samples; ++j) {
                    const SlotAt at = firstSlotAt(free, period, slots, offsetSample(j, period, samples));
                    periods[state] += w * static_cast<double>(at.beacon + 1);
                    if (at.beacon == candidate) {
                        row[stateOf(at.slot, j)] += w;
                        continue;
                    }
                    for (int b = 0; b < bins; ++b) // the period after: its first slot, a fresh offset
                        row[static_cast<size_t>(b)] += w / bins;
                }
            }
            for (size_t b = 0; b < n; ++b)
                if (row[b] > 0)
                    next[state].emplace_back(b, row[b]);
        }
    const std::vector<double> share = stationary(next);
    double meanPeriods = 0, meanFrames = 0;
    for (size_t a = 0; a < n; ++a) {
        meanPeriods += share[a] * periods[a];
        meanFrames += share[a] * frames[a];
    }
    return meanPeriods * kBeaconPeriodSeconds / meanFrames;
}

} // namespace

ClassBTiming classBTiming(double pingPeriodSeconds, double minimumSpacing)
{
    ClassBTiming t;
    const int slots = std::max(1, static_cast<int>(std::floor(kBeaconWindowSeconds / pingPeriodSeconds + 1e-9)));
    t.slotsPerBeacon = slots;
    t.slotsPerSecond = slots / kBeaconPeriodSeconds;
    t.frameSpacing = renewalSpacing(pingPeriodSeconds, slots, minimumSpacing);
    // A session starts at a random phase of the beacon period: the wait for the group's first slot.
    double wait = 0;
    for (int s = 0; s < kPositionSamples; ++s)
        for (int b = 0; b < kOffsetSamples; ++b) {
            const double offset = offsetSample(b, pingPeriodSeconds);
            const double at = (s + 0.5) * kBeaconPeriodSeconds / kPositionSamples;
            const SlotAt slot = firstSlotAt(at, pingPeriodSeconds, slots, offset);
            wait += static_cast<double>(slot.beacon) * kBeaconPeriodSeconds + kBeaconReservedSeconds + offset
                    + slot.slot * pingPeriodSeconds - at;
        }
    t.firstFrameDelay = wait / (kPositionSamples * kOffsetSamples);
    return t;
}

} // namespace dpu::link
