// SPDX-License-Identifier: MIT
// A deployment turned into the simulation's Link, SF mix, DeviceCpu and FleetConfig (dpu/DeploymentModel.h).
#include "dpu/DeploymentModel.h"
#include "fleet/Text.h"
#include <algorithm>
#include <cmath>
#include <memory>

namespace dpu {

std::vector<SpreadingFactorShare> sfMixOf(const DeploymentLink& s)
{
    if (s.sfMix.empty())
        return {};
    std::vector<SpreadingFactorShare> mix = s.sfMix == "fuotasim" ? fuotaSimSpreadingFactorMix() : parseSpreadingFactorMix(s.sfMix);
    std::sort(mix.begin(), mix.end(), [](const auto& a, const auto& b) { return a.spreadingFactor < b.spreadingFactor; });
    return mix;
}

Link linkOf(const DeploymentLink& s)
{
    const std::vector<SpreadingFactorShare> mix = sfMixOf(s);
    // A region key starts at the SF asked for, or the mix's fastest (SF7 without either); a
    // preset key is moved to the SF only when one is asked for.
    const int sf = s.spreadingFactor;
    const int first = sf > 0 ? sf : mix.empty() ? 7 : mix.front().spreadingFactor;
    const std::string key = fleet::lower(s.link); // as linkPreset() takes its keys
    Link link = key == "lorawan-eu868"   ? lorawanEu868(first)
                : key == "lorawan-us915" ? withSpreadingFactor(lorawanUs915Downlink(8), first)
                                         : linkPreset(key);
    if (sf > 0)
        link = withSpreadingFactor(link, sf);
    if (s.dutyCycle) {
        if (link.region == LinkRegion::Eu868) // one of the region's sub-bands, checked by the preset
            link = lorawanEu868(link.modulation.spreadingFactor, *s.dutyCycle);
        else
            link.dutyCycle = *s.dutyCycle;
    }
    link.frameLoss = s.frameLoss;
    link.frameLossSpread = s.frameLossSpread;
    link.leaveWhenDecoded = s.leaveWhenDecoded;
    if (s.delivery == DeliveryChoice::Multicast)
        link.delivery = LinkDelivery::Multicast;
    else if (s.delivery == DeliveryChoice::Unicast)
        link.delivery = LinkDelivery::Unicast;
    if (s.deviceClass != DeviceClassChoice::Preset)
        link = withLoRaDeviceClass(link, s.deviceClass == DeviceClassChoice::B ? LoRaDeviceClass::B : LoRaDeviceClass::C, s.pingPeriodicity);
    return link;
}

Link atSlowestSpreadingFactor(const Link& link, const std::vector<SpreadingFactorShare>& mix)
{
    int slowest = 0;
    for (const SpreadingFactorShare& m : mix)
        if (m.share > 0)
            slowest = std::max(slowest, m.spreadingFactor);
    if (slowest == 0 || !link.lora || slowest == link.modulation.spreadingFactor)
        return link;
    return withSpreadingFactor(link, slowest);
}

Link slowestLinkOf(const DeploymentLink& s)
{
    return atSlowestSpreadingFactor(linkOf(s), sfMixOf(s));
}

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
