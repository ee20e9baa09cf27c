// SPDX-License-Identifier: MIT
// The flagship multicast of issue 41 item 5 (200 devices, EU868, FUOTASim's mix, 10 % loss) as the product runs it and as the frame-level reference does, for bench_multicast and test_link_reference.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/LinkModel.h"
#include "multicast/ReferenceRuns.h"
#include <cstdint>
#include <vector>

namespace mcref::flagship {

struct Case {
    double dutyCycle = 0.01;
    dpu::LoRaDeviceClass deviceClass = dpu::LoRaDeviceClass::C;
    int pingPeriodicity = 0;
    bool perSf = false;
    double spread = 0;
    bool productStays = false; ///< the product's devices listen to the session's end (the old model)
};

constexpr int kDevices = 200;
constexpr double kLoss = 0.1;

inline dpu::Link linkFor(const Case& c)
{
    dpu::Link link = dpu::lorawanEu868(7, c.dutyCycle);
    link.frameLoss = kLoss;
    link.frameLossSpread = c.spread;
    link.leaveWhenDecoded = !c.productStays;
    return dpu::withLoRaDeviceClass(link, c.deviceClass, c.pingPeriodicity);
}

/// The product's frames per session at SF7 .. SF12: what the fleet simulation plans (99 % per device).
inline std::vector<int> plannedFrames(const Case& c, int64_t bytes)
{
    std::vector<int> frames;
    for (int sf = 7; sf <= 12; ++sf)
        frames.push_back(static_cast<int>(dpu::linkRound(dpu::withSpreadingFactor(linkFor(c), sf), bytes, 1).frames));
    return frames;
}

/// One release to 200 devices (FUOTASim's mix, all on, no repair session): the round's energy
/// per device, the time until 50 / 90 % run it, the share that does, over `reps` seeds.
inline mcref::Repeated product(const Case& c, int64_t bytes, int reps)
{
    dpu::FleetConfig config;
    dpu::FleetGroup group;
    group.devices = kDevices;
    group.link = linkFor(c);
    group.sfMix = dpu::fuotaSimSpreadingFactorMix();
    config.groups.push_back(group);
    config.policy.repairSessions = 0;
    config.policy.multicastPerSpreadingFactor = c.perSf;
    config.roundPeriodSeconds = 30 * 86400.0;
    dpu::FleetStrategy strategy;
    strategy.name = "one release";
    strategy.versions = {{0, 0.5, 0}, {1, 0.6, bytes}};
    std::vector<double> energy, t50, t90, share;
    for (int seed = 1; seed <= reps; ++seed) {
        config.seed = static_cast<uint64_t>(seed);
        const dpu::FleetResult r = dpu::simulateFleet(config, strategy);
        energy.push_back(r.rounds.front().energyMean);
        t50.push_back(r.timeToShare[1][0]);
        t90.push_back(r.timeToShare[1][1]);
        share.push_back(r.rounds.front().completed / static_cast<double>(kDevices));
    }
    return {mcref::summarise(energy), mcref::summarise(t50), mcref::summarise(t90), mcref::summarise(share), {}};
}

/// linkRound()'s expected energy per device over the fleet: every device at the slowest SF, or
/// each at its own.
inline double analyticEnergy(const Case& c, int64_t bytes)
{
    const auto counts = dpu::spreadingFactorCounts(kDevices, dpu::fuotaSimSpreadingFactorMix());
    double joules = 0;
    for (const auto& [sf, n] : counts)
        joules += n * dpu::linkRound(dpu::withSpreadingFactor(linkFor(c), c.perSf ? sf : 12), bytes, 1).energyPerDevice;
    return joules / kDevices;
}

inline mcref::Scenario referenceFor(const Case& c, int64_t bytes, mcref::Decoding decoding)
{
    const dpu::Link link = linkFor(c);
    mcref::Scenario s;
    s.groups = mcref::fuotaSimGroups(kDevices, plannedFrames(c, bytes));
    s.sessionPerSf = c.perSf;
    s.bytes = bytes;
    s.dutyCycle = c.dutyCycle;
    s.loss = kLoss;
    s.lossSpread = c.spread;
    s.deviceClass = c.deviceClass == dpu::LoRaDeviceClass::B ? mcref::DeviceClass::B : mcref::DeviceClass::C;
    s.pingPeriodicity = c.pingPeriodicity;
    s.pingWindowSeconds = link.pingSlotWindowSeconds;
    s.rxWatts = link.rxWatts;
    s.decoding = decoding;
    return s;
}

} // namespace mcref::flagship
