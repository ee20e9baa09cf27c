// SPDX-License-Identifier: MIT
// Per-device reception of erasure-coded sessions: the frame a device decodes with, its listening and energy; loss classes over the devices' spread.
#include "link/SessionReception.h"
#include "link/LinkSession.h"
#include "util/Rng.h"
#include <algorithm>

namespace dpu::link {
namespace {

/// A part's local clock: the device listens from the part's start; the part lasts its first
/// frame's delay plus `frames` spacings.
double partSeconds(const Link& link, int64_t frames)
{
    return firstFrameDelay(link) + static_cast<double>(frames) * frameSpacing(link);
}

struct PartExpectation {
    double decoded = 0;
    double seconds = 0;
    double frames = 0;
};

/// One part for a device at `loss`: P(decoded), and the expected seconds and frames it listens.
PartExpectation expectPart(const Link& link, int64_t frames, int64_t need, double loss)
{
    PartExpectation e;
    const double whole = partSeconds(link, frames);
    if (!link.leaveWhenDecoded || need > frames) {
        e.decoded = binomialAtLeast(frames, 1.0 - loss, need);
        e.seconds = whole;
        e.frames = static_cast<double>(frames);
        return e;
    }
    // The frame K = need + F it decodes with, F failures before the need-th success.
    const Distribution failures = negativeBinomialFailures(need, 1.0 - loss);
    double sumK = 0, previous = 0;
    for (size_t i = 0; i < failures.cdf.size(); ++i) {
        const int64_t f = failures.lo + static_cast<int64_t>(i);
        if (need + f > frames)
            break;
        sumK += static_cast<double>(need + f) * (failures.cdf[i] - previous);
        previous = failures.cdf[i];
    }
    e.decoded = previous;
    const double spacing = frameSpacing(link);
    // decodedAfter(K) = delay + (K - 1) spacing + T, linear in K.
    e.seconds = e.decoded * (decodedAfter(link, 1) - spacing) + spacing * sumK + (1.0 - e.decoded) * whole;
    e.frames = sumK + (1.0 - e.decoded) * static_cast<double>(frames);
    return e;
}

} // namespace

std::vector<double> deviceLosses(const Link& link)
{
    if (!(link.frameLossSpread > 0))
        return {link.frameLoss};
    std::vector<double> losses;
    for (int c = 0; c < kLossClasses; ++c)
        losses.push_back(link.frameLoss + link.frameLossSpread * ((2.0 * c + 1.0) / kLossClasses - 1.0));
    return losses;
}

int lossClassOf(uint64_t seed, int device, int classes)
{
    if (classes <= 1)
        return 0;
    const uint64_t x = mix64(seed ^ 0x6C6F73735F636C61ULL) + static_cast<uint64_t>(device + 1) * 0x9E3779B97F4A7C15ULL;
    return static_cast<int>(((x >> 32) * static_cast<uint64_t>(classes)) >> 32);
}

ExpectedReception expectedReception(const Link& link, const std::vector<LinkSessionPart>& parts)
{
    ExpectedReception out;
    const std::vector<double> losses = deviceLosses(link);
    for (double loss : losses) {
        double completion = 1, seconds = 0, joules = 0;
        for (const LinkSessionPart& p : parts) {
            const PartExpectation e = expectPart(link, p.frames, framesToDecode(link, p.fragments), loss);
            for (int64_t c = 0; c < p.count; ++c)
                completion *= e.decoded;
            seconds += static_cast<double>(p.count) * e.seconds;
            joules += static_cast<double>(p.count) * listeningEnergy(link, e.seconds, e.frames);
        }
        const auto n = static_cast<double>(losses.size());
        out.completion += completion / n;
        out.seconds += seconds / n;
        out.joules += joules / n;
    }
    return out;
}

SessionReception::SessionReception(const Link& link) : link_(link), losses_(deviceLosses(link)) {}

const Distribution& SessionReception::table(bool needed, int64_t n, int lossClass)
{
    auto [it, added] = tables_.try_emplace({needed, n, lossClass});
    if (added) {
        const double success = 1.0 - losses_[static_cast<size_t>(lossClass)];
        it->second = needed ? negativeBinomialFailures(n, success) : binomial(n, success);
    }
    return it->second;
}

Reception SessionReception::part(int64_t frames, int64_t need, int lossClass, double u)
{
    Reception r;
    r.seconds = partSeconds(link_, frames);
    r.frames = static_cast<double>(frames);
    // The fragments received, by inverse transform: a draw below P(fewer than need) falls short.
    // The same draw decides whether a device decodes with or without leaveWhenDecoded.
    const Distribution& received = table(false, frames, lossClass);
    const double short_ = received.below(need);
    if (u < short_ || need > frames) {
        r.missing = need - std::min(received.sample(u), need - 1);
    } else if (link_.leaveWhenDecoded) {
        // Decoded: which frame completed it, from the rest of the draw, rescaled onto the
        // negative binomial's part within the session.
        const Distribution& failures = table(true, need, lossClass);
        const double within = failures.below(frames - need + 1);
        const double v = short_ < 1 ? (u - short_) / (1 - short_) * within : 0;
        const int64_t k = need + std::min(failures.sample(v), frames - need);
        r.seconds = decodedAfter(link_, k);
        r.frames = static_cast<double>(k);
    }
    r.joules = listeningEnergy(link_, r.seconds, r.frames);
    return r;
}

Reception SessionReception::session(const std::vector<LinkSessionPart>& parts, int lossClass, const std::function<double()>& draw)
{
    Reception total;
    double offset = 0; // the parts run one after another; the device decodes the bundle with its last part
    for (const LinkSessionPart& p : parts)
        for (int64_t c = 0; c < p.count; ++c) {
            const Reception r = part(p.frames, framesToDecode(link_, p.fragments), lossClass, draw());
            total.missing += r.missing;
            total.frames += r.frames;
            total.joules += r.joules;
            total.seconds = offset + r.seconds;
            offset += partSeconds(link_, p.frames);
        }
    return total;
}

Reception SessionReception::repair(int64_t frames, int64_t missing, int lossClass, double u)
{
    return part(frames, missing, lossClass, u);
}

int64_t SessionReception::retransmissions(int64_t fragments, int lossClass, double u)
{
    return table(true, fragments, lossClass).sample(u);
}

} // namespace dpu::link
