// SPDX-License-Identifier: MIT
// FleetSettings: the link, SF mix, processor and fleet a user states, turned into the simulation's Link, DeviceCpu and FleetConfig.
#include "dpu/FleetSettings.h"
#include "fleet/Text.h"
#include <algorithm>
#include <cmath>
#include <memory>

namespace dpu {

std::vector<SpreadingFactorShare> sfMixOf(const LinkSettings& s)
{
    if (s.sfMix.empty())
        return {};
    std::vector<SpreadingFactorShare> mix = s.sfMix == "fuotasim" ? fuotaSimSpreadingFactorMix() : parseSpreadingFactorMix(s.sfMix);
    std::sort(mix.begin(), mix.end(), [](const auto& a, const auto& b) { return a.spreadingFactor < b.spreadingFactor; });
    return mix;
}

Link linkOf(const LinkSettings& s)
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
    if (!std::isnan(s.dutyCycle)) {
        if (link.region == LinkRegion::Eu868) // one of the region's sub-bands, checked by the preset
            link = lorawanEu868(link.modulation.spreadingFactor, s.dutyCycle);
        else
            link.dutyCycle = s.dutyCycle;
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

Link slowestLinkOf(const LinkSettings& s)
{
    return atSlowestSpreadingFactor(linkOf(s), sfMixOf(s));
}

FleetSettings fleetSettingsOf(const PlanFleet& f)
{
    FleetSettings s;
    s.link.link = f.link;
    s.link.spreadingFactor = f.spreadingFactor;
    s.link.sfMix = f.sfMix;
    s.link.dutyCycle = f.dutyCycle > 0 ? f.dutyCycle : NAN; // 0 in a plan file: the preset's
    s.link.frameLoss = f.frameLoss;
    s.link.frameLossSpread = f.frameLossSpread;
    s.link.delivery = f.delivery;
    s.link.deviceClass = f.deviceClass;
    s.link.pingPeriodicity = f.pingPeriodicity;
    s.link.leaveWhenDecoded = f.leaveWhenDecoded;
    s.devices = f.devices;
    s.availability = f.availability;
    s.roundPeriodSeconds = f.roundPeriodHours * 3600.0;
    return s;
}

PlanFleet planFleetOf(const FleetSettings& s)
{
    PlanFleet f;
    f.link = s.link.link;
    f.spreadingFactor = s.link.spreadingFactor;
    f.sfMix = s.link.sfMix;
    f.dutyCycle = std::isnan(s.link.dutyCycle) ? 0 : s.link.dutyCycle;
    f.frameLoss = s.link.frameLoss;
    f.frameLossSpread = s.link.frameLossSpread;
    f.delivery = s.link.delivery;
    f.deviceClass = s.link.deviceClass;
    f.pingPeriodicity = s.link.pingPeriodicity;
    f.leaveWhenDecoded = s.link.leaveWhenDecoded;
    f.devices = s.devices;
    f.availability = s.availability;
    f.roundPeriodHours = s.roundPeriodSeconds / 3600.0;
    return f;
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

std::string cpuChoiceKey(CpuChoice cpu)
{
    switch (cpu) {
    case CpuChoice::CortexM4:
        return "cortex-m4";
    case CpuChoice::CortexM0:
        return "cortex-m0";
    case CpuChoice::None:
        break;
    }
    return {};
}

FleetConfig fleetConfigOf(const FleetSettings& s, int lastRound, int64_t newSamplesPerRound)
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
    FleetConfig config;
    config.groups.push_back(group);
    config.policy = s.policy;
    config.roundPeriodSeconds = s.roundPeriodSeconds;
    config.drainRounds = s.drainRounds;
    config.seed = s.seed;
    config.lastRound = lastRound;
    config.newSamplesPerRound = newSamplesPerRound;
    return config;
}

} // namespace dpu
