// SPDX-License-Identifier: MIT
// A deployment turned into the simulation's DeviceCpu and FleetConfig (dpu/DeploymentModel.h); its Link is linkOf()'s (core/src/link).
#include "dpu/DeploymentModel.h"
#include <memory>

namespace dpu {

DeviceCpu deviceCpuOf(const CpuSettings& s)
{
    if (s.cpu == CpuChoice::None)
        return {};
    DeviceCpu cpu = measuredCortexM(s.cpu == CpuChoice::CortexM0);
    cpu.clockHz = s.clockMhz * 1e6;
    cpu.cyclesPerInstruction = s.cyclesPerInstruction;
    cpu.activeAmps = s.runMilliamps / 1e3;
    cpu.volts = s.volts;
    return cpu;
}

namespace {

/// The uplink of the appendix's sample upload: the region's uplink at the group's SF for LoRa,
/// the downlink turned around otherwise.
std::shared_ptr<const Link> uplinkOf(const Link& down)
{
    if (down.lora && down.region == LinkRegion::Eu868)
        return std::make_shared<Link>(lorawanEu868Uplink(down.modulation.spreadingFactor));
    if (down.lora)
        return std::make_shared<Link>(lorawanUs915Uplink(3));
    Link up = down;
    up.direction = LinkDirection::Uplink;
    up.delivery = LinkDelivery::Unicast;
    up.listening = LinkListening::Frames;
    return std::make_shared<Link>(up);
}

} // namespace

FleetConfig fleetConfigOf(const Deployment& s, int lastRound, int64_t newSamplesPerRound)
{
    FleetGroup group;
    group.name = "devices";
    group.devices = s.devices;
    group.sfMix = sfMixOf(s.link);
    group.link = linkOf(s.link);
    group.availability = s.availability;
    if (!s.availabilityTrace.empty())
        group.trace = std::make_shared<AvailabilityTrace>(AvailabilityTrace::read(s.availabilityTrace));
    group.cpu = deviceCpuOf(s.cpu);
    if (s.sampleBytes > 0)
        group.uplink = uplinkOf(group.link);
    FleetConfig config;
    config.groups.push_back(group);
    config.policy = s.policy;
    config.roundPeriodSeconds = s.roundPeriodHours * 3600.0;
    config.drainRounds = s.drainRounds;
    config.seed = s.seed;
    config.sampleBytes = s.sampleBytes;
    config.lastRound = lastRound;
    config.newSamplesPerRound = newSamplesPerRound;
    return config;
}

} // namespace dpu
