// SPDX-License-Identifier: MIT
// A deployment's link (dpu/Deployment.h) as the link model's Link and SF mix (dpu/DeploymentLink.h).
#include "dpu/DeploymentLink.h"
#include "link/Text.h"
#include <algorithm>

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
    const std::string key = link::lower(s.link); // as linkPreset() takes its keys
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

} // namespace dpu
