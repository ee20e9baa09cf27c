// SPDX-License-Identifier: MIT
// Frames, redundancy, airtime, wall time and energy of one round on a link, and their inversion (docs/fleet.md).
#include "dpu/LinkModel.h"
#include "link/Binomial.h"
#include "link/LinkSession.h"
#include "link/SessionReception.h"
#include "link/Text.h"
#include <cmath>

namespace dpu {
namespace {

using link::number;
using link::require;

constexpr int kMaxFrameBytes = 65535;

bool finiteAtLeast(double v, double lo)
{
    return std::isfinite(v) && v >= lo;
}

double deviceProbabilityFor(const RoundTarget& target, int devices)
{
    require(target.probability > 0 && target.probability < 1, "completionProbability",
            "expected a probability in (0, 1), found " + number(target.probability));
    require(devices >= 1, "devices", "expected at least 1 device, found " + std::to_string(devices));
    return target.everyDevice ? std::pow(target.probability, 1.0 / devices) : target.probability;
}

/// Splits `fragments` into the fewest even sessions whose fragments and redundancy stay within
/// the link's per-session limit, each session completing with probability^(1/sessions).
std::vector<LinkSessionPart> planSessions(const Link& link, int64_t fragments, double probability)
{
    const int64_t limit = link.maxFragmentsPerSession;
    int64_t sessions = limit > 0 ? std::max<int64_t>(1, (fragments + limit - 1) / limit) : 1;
    for (;; ++sessions) {
        const double perSession = sessions == 1 ? probability : std::pow(probability, 1.0 / static_cast<double>(sessions));
        const int64_t base = fragments / sessions;
        const int64_t larger = fragments % sessions; // sessions of base + 1 fragments
        std::vector<LinkSessionPart> parts;
        bool fits = true;
        for (const auto& [count, size] : {std::pair{larger, base + 1}, std::pair{sessions - larger, base}}) {
            if (count == 0 || size == 0)
                continue;
            const int64_t frames = size + redundancyFrames(link, size, perSession);
            fits = fits && (limit <= 0 || frames <= limit);
            parts.push_back({count, size, frames});
        }
        if (fits)
            return parts;
        if (base <= 1)
            throw LinkError("maxFragmentsPerSession", "no session of " + std::to_string(limit)
                                                          + " fragments reaches the completion target at this loss");
    }
}

} // namespace

void validateLink(const Link& l)
{
    if (l.lora) {
        const LoRaModulation& m = l.modulation;
        require(m.spreadingFactor >= 6 && m.spreadingFactor <= 12, "spreadingFactor",
                "expected SF6..SF12, found SF" + std::to_string(m.spreadingFactor));
        require(finiteAtLeast(m.bandwidthHz, 1), "bandwidthHz", "expected a bandwidth above 0, found " + number(m.bandwidthHz));
        require(m.codingRate >= 1 && m.codingRate <= 4, "codingRate",
                "expected 1..4 (4/5..4/8), found " + std::to_string(m.codingRate));
        require(m.preambleSymbols >= 6 && m.preambleSymbols <= 65535, "preambleSymbols",
                "expected 6..65535, found " + std::to_string(m.preambleSymbols));
        require(m.spreadingFactor - 2 * (m.lowDataRateOptimize ? 1 : 0) > 0, "lowDataRateOptimize", "not at SF6");
    } else {
        require(finiteAtLeast(l.bitsPerSecond, 0) && l.bitsPerSecond > 0, "bitsPerSecond",
                "expected a rate above 0, found " + number(l.bitsPerSecond));
    }
    // A frame's parts at most 65535 B each (no link's frame comes near): the airtime formula
    // counts bits in int, which a payload of 2^31 B would overflow.
    require(l.maxPayloadBytes >= 1 && l.maxPayloadBytes <= kMaxFrameBytes, "maxPayloadBytes",
            "expected 1 .. 65535 B, found " + std::to_string(l.maxPayloadBytes));
    require(l.frameOverheadBytes >= 0 && l.frameOverheadBytes <= kMaxFrameBytes, "frameOverheadBytes",
            "expected 0 .. 65535 B, found " + std::to_string(l.frameOverheadBytes));
    require(l.fragmentHeaderBytes >= 0 && l.fragmentHeaderBytes <= kMaxFrameBytes, "fragmentHeaderBytes",
            "expected 0 .. 65535 B, found " + std::to_string(l.fragmentHeaderBytes));
    require(l.fragmentBytes >= 0 && l.fragmentBytes <= kMaxFrameBytes, "fragmentBytes",
            "expected 0 (the frame's payload) .. 65535 B, found " + std::to_string(l.fragmentBytes));
    const int data = fragmentDataBytes(l);
    require(data >= 1 && data + l.fragmentHeaderBytes <= l.maxPayloadBytes, "fragmentBytes",
            "a fragment of " + std::to_string(data) + " B and its " + std::to_string(l.fragmentHeaderBytes)
                + " B header do not fit the frame's payload of " + std::to_string(l.maxPayloadBytes) + " B");
    require(l.maxFragmentsPerSession >= 0, "maxFragmentsPerSession", "expected 0 (no limit) or more");
    require(finiteAtLeast(l.frameLatencySeconds, 0), "frameLatencySeconds", "expected 0 s or more, found " + number(l.frameLatencySeconds));
    require(l.repetitions >= 1 && l.repetitions <= 2048, "repetitions", "expected 1 .. 2048, found " + std::to_string(l.repetitions));
    require(std::isfinite(l.dutyCycle) && l.dutyCycle > 0 && l.dutyCycle <= 1, "dutyCycle",
            "expected a share of time in (0, 1], found " + number(l.dutyCycle));
    require(finiteAtLeast(l.dwellLimitSeconds, 0), "dwellLimitSeconds", "expected 0 (none) or more, found " + number(l.dwellLimitSeconds));
    require(std::isfinite(l.frameLoss) && l.frameLoss >= 0 && l.frameLoss < 1, "frameLoss",
            "expected a probability in [0, 1), found " + number(l.frameLoss));
    require(l.decodeOverheadFragments >= 0 && l.decodeOverheadFragments <= kMaxFrameBytes, "decodeOverheadFragments",
            "expected 0 .. 65535, found " + std::to_string(l.decodeOverheadFragments));
    require(finiteAtLeast(l.sessionSeconds, 0), "sessionSeconds", "expected 0 s or more, found " + number(l.sessionSeconds));
    require(finiteAtLeast(l.sessionJoules, 0), "sessionJoules", "expected 0 J or more, found " + number(l.sessionJoules));
    require(finiteAtLeast(l.rxWatts, 0), "rxWatts", "expected 0 W or more, found " + number(l.rxWatts));
    require(finiteAtLeast(l.txWatts, 0), "txWatts", "expected 0 W or more, found " + number(l.txWatts));
    require(std::isfinite(l.frameLossSpread) && l.frameLossSpread >= 0 && l.frameLossSpread <= l.frameLoss
                && l.frameLoss + l.frameLossSpread < 1,
            "frameLossSpread",
            "expected 0 .. the loss (" + number(l.frameLoss) + ") with the loss + spread below 1, found " + number(l.frameLossSpread));
    // Class B's ping slots lie between beacons: 1 .. 128 slots in each 122.88 s window.
    require(finiteAtLeast(l.pingSlotPeriodSeconds, 0) && l.pingSlotPeriodSeconds > 0 && l.pingSlotPeriodSeconds <= 122.88,
            "pingSlotPeriodSeconds", "expected above 0 s and at most 122.88 s, found " + number(l.pingSlotPeriodSeconds));
    require(finiteAtLeast(l.pingSlotWindowSeconds, 0), "pingSlotWindowSeconds", "expected 0 s or more");
    require(finiteAtLeast(l.beaconSeconds, 0), "beaconSeconds", "expected 0 s or more, found " + number(l.beaconSeconds));
    require(finiteAtLeast(l.batteryMilliampHours, 0) && l.batteryMilliampHours > 0, "batteryMilliampHours",
            "expected above 0, found " + number(l.batteryMilliampHours));
    require(finiteAtLeast(l.batteryVolts, 0) && l.batteryVolts > 0, "batteryVolts", "expected above 0, found " + number(l.batteryVolts));
    if (l.delivery == LinkDelivery::Multicast) {
        require(l.multicastCapable, "delivery", l.name + " has no multicast");
        require(l.recovery == LinkRecovery::ErasureCode, "delivery",
                "a multicast needs an erasure-coded link: no device can ask for a lost frame again");
    }
    if (l.dwellLimitSeconds > 0) {
        const double full = frameAirtime(l, l.fragmentHeaderBytes + data);
        require(full <= l.dwellLimitSeconds, "maxPayloadBytes",
                "a full frame is on air " + number(full * 1e3) + " ms, over the dwell limit of " + number(l.dwellLimitSeconds * 1e3) + " ms");
    }
}

int fragmentDataBytes(const Link& link)
{
    return link.fragmentBytes > 0 ? link.fragmentBytes : link.maxPayloadBytes - link.fragmentHeaderBytes;
}

int frameBytes(const Link& link)
{
    return link.fragmentHeaderBytes + fragmentDataBytes(link) + link.frameOverheadBytes;
}

double frameAirtime(const Link& link, int payloadBytes)
{
    const int onAir = payloadBytes + link.frameOverheadBytes;
    const double once = link.lora ? loraTimeOnAir(link.modulation, onAir) : onAir * 8.0 / link.bitsPerSecond;
    return once * link.repetitions;
}

double applicationBitsPerSecond(const Link& link)
{
    const int data = fragmentDataBytes(link);
    return data * 8.0 / (frameAirtime(link, link.fragmentHeaderBytes + data) + link.frameLatencySeconds);
}

int64_t fragmentsFor(const Link& link, int64_t bytes)
{
    if (bytes <= 0)
        return 0;
    const int64_t data = fragmentDataBytes(link);
    return (bytes + data - 1) / data;
}

double completionProbability(const Link& link, int64_t fragments, int64_t framesSent)
{
    if (fragments <= 0)
        return 1.0;
    return link::binomialAtLeast(framesSent, 1.0 - link.frameLoss, link::framesToDecode(link, fragments));
}

int64_t redundancyFrames(const Link& link, int64_t fragments, double probability)
{
    if (fragments <= 0)
        return 0;
    require(probability > 0 && probability < 1, "completionProbability",
            "expected a probability in (0, 1), found " + number(probability));
    return link::fewestTrials(link::framesToDecode(link, fragments), 1.0 - link.frameLoss, probability) - fragments;
}

double batteryJoules(const Link& link)
{
    return link.batteryMilliampHours * 3.6 * link.batteryVolts;
}

LinkRound linkRound(const Link& link, int64_t bytes, int devices, const RoundTarget& target)
{
    validateLink(link);
    const double deviceProbability = deviceProbabilityFor(target, devices);
    LinkRound r;
    r.bytes = bytes;
    r.frameSeconds = frameAirtime(link, link.fragmentHeaderBytes + fragmentDataBytes(link));
    if (bytes <= 0)
        return r;
    r.fragments = fragmentsFor(link, bytes);
    r.parts = planSessions(link, r.fragments, deviceProbability);
    r.deviceProbability = 1;
    for (const LinkSessionPart& p : r.parts) {
        r.sessions += p.count;
        r.frames += p.count * p.frames;
        r.deviceProbability *= std::pow(completionProbability(link, p.fragments, p.frames), static_cast<double>(p.count));
    }
    r.redundancy = r.frames - r.fragments;
    const double airtime = link::sessionAirtime(link, bytes, r.fragments, r.frames);
    const double channel = link::channelSeconds(link, airtime, r.frames);
    r.deviceSeconds = link.sessionSeconds + channel;
    if (link.recovery == LinkRecovery::ErasureCode) {
        // Expected over the devices' losses: each listens until it decodes (or to the end).
        const link::ExpectedReception e = link::expectedReception(link, r.parts);
        r.completionShare = e.completion;
        r.listenSeconds = e.seconds;
        r.energyPerDevice = e.joules + link.sessionJoules;
    } else {
        r.completionShare = r.deviceProbability;
        r.listenSeconds = channel;
        r.energyPerDevice = link::sessionEnergy(link, airtime, channel, r.frames);
    }
    r.batteryShare = r.energyPerDevice / batteryJoules(link);
    const bool multicast = link.delivery == LinkDelivery::Multicast;
    r.airtime = multicast ? airtime : airtime * devices;
    // Checked: frames x frame bytes x devices of a huge bundle on a lossy link could pass 2^63.
    if (__builtin_mul_overflow(r.frames, static_cast<int64_t>(frameBytes(link)) * (multicast ? 1 : devices), &r.bytesOnAir))
        throw LinkError("bytes", std::to_string(bytes) + " B to " + std::to_string(devices) + " devices: the bytes on air pass 2^63");
    r.wallTime = multicast || !link.sharedTransmitter ? r.deviceSeconds : r.deviceSeconds * devices;
    return r;
}

namespace {

template <class Metric>
int64_t largestBytes(const Link& link, double limit, int devices, const RoundTarget& target, Metric metric)
{
    constexpr int64_t kCap = int64_t{1} << 40;
    const auto fits = [&](int64_t b) { return metric(linkRound(link, b, devices, target)) <= limit; };
    if (!(limit >= 0) || !fits(1))
        return 0;
    int64_t lo = 1, hi = 2;
    while (fits(hi)) {
        lo = hi;
        if (hi >= kCap)
            return kCap;
        hi *= 2;
    }
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

} // namespace

int64_t largestBytesForWallTime(const Link& link, double seconds, int devices, const RoundTarget& target)
{
    return largestBytes(link, seconds, devices, target, [](const LinkRound& r) { return r.wallTime; });
}

int64_t largestBytesForEnergy(const Link& link, double joules, int devices, const RoundTarget& target)
{
    return largestBytes(link, joules, devices, target, [](const LinkRound& r) { return r.energyPerDevice; });
}

namespace link {

double sessionAirtime(const Link& link, int64_t bytes, int64_t fragments, int64_t frames)
{
    const int data = fragmentDataBytes(link);
    const double full = frameAirtime(link, link.fragmentHeaderBytes + data);
    if (link.recovery == LinkRecovery::ErasureCode || fragments <= 0)
        return full * static_cast<double>(frames);
    const auto last = static_cast<int>(bytes - (fragments - 1) * data);
    return full * static_cast<double>(frames - 1) + frameAirtime(link, link.fragmentHeaderBytes + last);
}

} // namespace link
} // namespace dpu
