// SPDX-License-Identifier: MIT
// A session's clock and a device's radio time: frame spacing under the duty cycle or on Class B's ping slots, when a device decodes, what listening costs.
#include "link/ClassBTiming.h"
#include "link/LinkSession.h"
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

namespace dpu::link {
namespace {

double fullFrameSeconds(const Link& link)
{
    return frameAirtime(link, link.fragmentHeaderBytes + fragmentDataBytes(link));
}

/// The duty cycle's spacing: a frame, then its off-time, then the turnaround.
double dutyCycleSpacing(const Link& link)
{
    return fullFrameSeconds(link) / link.dutyCycle + link.frameLatencySeconds;
}

/// classBTiming() for the link, remembered per (ping period, spacing): the fleet simulation asks
/// for it at every session, and the expectation sums a few thousand slot positions. One cache
/// under a lock rather than one per thread: a thread_local in this position-independent library
/// would make every program need the dynamic loader's TLS entry point (a package dependency on
/// ld-linux that test_debian_package refuses).
ClassBTiming timingOf(const Link& link)
{
    static std::mutex lock;
    static std::map<std::pair<double, double>, ClassBTiming> cache;
    const std::pair<double, double> key{link.pingSlotPeriodSeconds, dutyCycleSpacing(link)};
    const std::lock_guard<std::mutex> hold(lock);
    auto it = cache.find(key);
    if (it == cache.end()) {
        if (cache.size() >= 256) // links of many sweeps: keep the memory bounded
            cache.clear();
        it = cache.emplace(key, classBTiming(key.first, key.second)).first;
    }
    return it->second;
}

bool classB(const Link& link)
{
    return link.listening == LinkListening::PingSlots;
}

/// Class B radio seconds: `frameSeconds` of frames, a window at each ping slot in `seconds` that
/// no frame covered (a frame longer than the ping period covers the slots it spans), and the beacons.
double classBRadioSeconds(const Link& link, double seconds, double frames, double frameSeconds)
{
    const ClassBTiming t = timingOf(link);
    const double perFrame = 1 + std::floor(fullFrameSeconds(link) / link.pingSlotPeriodSeconds - 1e-9);
    const double empty = std::max(0.0, seconds * t.slotsPerSecond - frames * perFrame);
    return frameSeconds + empty * link.pingSlotWindowSeconds + seconds / kBeaconPeriodSeconds * link.beaconSeconds;
}

} // namespace

double frameSpacing(const Link& link)
{
    return classB(link) ? timingOf(link).frameSpacing : dutyCycleSpacing(link);
}

double firstFrameDelay(const Link& link)
{
    return classB(link) ? timingOf(link).firstFrameDelay : 0.0;
}

double decodedAfter(const Link& link, int64_t frame)
{
    return firstFrameDelay(link) + static_cast<double>(frame - 1) * frameSpacing(link) + fullFrameSeconds(link);
}

double channelSeconds(const Link& link, double airtime, int64_t frames)
{
    if (classB(link))
        return firstFrameDelay(link) + static_cast<double>(frames) * frameSpacing(link);
    return airtime / link.dutyCycle + link.frameLatencySeconds * static_cast<double>(frames);
}

double listeningEnergy(const Link& link, double seconds, double frames)
{
    const double frameSeconds = frames * fullFrameSeconds(link);
    switch (link.listening) {
    case LinkListening::Frames: return frameSeconds * (link.direction == LinkDirection::Uplink ? link.txWatts : link.rxWatts);
    case LinkListening::WholeSession: return seconds * link.rxWatts;
    case LinkListening::PingSlots: return classBRadioSeconds(link, seconds, frames, frameSeconds) * link.rxWatts;
    }
    return 0;
}

double sessionEnergy(const Link& link, double airtime, double listenSeconds, int64_t frames)
{
    double radio = 0;
    switch (link.listening) {
    case LinkListening::Frames:
        radio = airtime * (link.direction == LinkDirection::Uplink ? link.txWatts : link.rxWatts);
        break;
    case LinkListening::WholeSession: radio = listenSeconds * link.rxWatts; break;
    case LinkListening::PingSlots:
        radio = classBRadioSeconds(link, listenSeconds, static_cast<double>(frames), airtime) * link.rxWatts;
        break;
    }
    return radio + link.sessionJoules;
}

int64_t framesToDecode(const Link& link, int64_t fragments)
{
    return fragments + (link.recovery == LinkRecovery::ErasureCode ? link.decodeOverheadFragments : 0);
}

} // namespace dpu::link
