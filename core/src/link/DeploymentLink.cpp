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

namespace {

/// A LoRaWAN region a deployment names by its own key, at any SF: the one place its keys live.
struct RegionKey {
    const char* key;
    const char* name; ///< the region's, without an SF
    Link (*at)(int spreadingFactor);
};

const RegionKey kRegions[] = {
    {"lorawan-eu868", "LoRaWAN EU868", [](int sf) { return lorawanEu868(sf); }},
    {"lorawan-us915", "LoRaWAN US915", [](int sf) { return withSpreadingFactor(lorawanUs915Downlink(8), sf); }},
};

const RegionKey* regionNamed(const std::string& lowerKey)
{
    for (const RegionKey& r : kRegions)
        if (lowerKey == r.key)
            return &r;
    return nullptr;
}

DeploymentLinkChoice presetChoice(const std::string& key, const Link& link)
{
    return {key, link.name, false, link.region == LinkRegion::Eu868};
}

DeploymentLinkChoice regionChoice(const RegionKey& r)
{
    return {r.key, r.name, true, r.at(7).region == LinkRegion::Eu868};
}

} // namespace

std::vector<DeploymentLinkChoice> deploymentLinkChoices()
{
    std::vector<DeploymentLinkChoice> out;
    for (const RegionKey& r : kRegions)
        out.push_back(regionChoice(r));
    for (const std::string& key : linkPresetKeysList()) {
        const Link link = linkPreset(key);
        if (!link.lora) // the regions above stand for the LoRa presets, at any SF
            out.push_back(presetChoice(key, link));
    }
    return out;
}

std::optional<DeploymentLinkChoice> deploymentLinkChoice(const std::string& key)
{
    const std::string lower = link::lower(key);
    if (const RegionKey* r = regionNamed(lower))
        return regionChoice(*r);
    try {
        const std::string resolved = resolveLinkKey(lower);
        return presetChoice(resolved, linkPreset(resolved));
    } catch (const LinkError&) {
        return std::nullopt;
    }
}

Link linkOf(const DeploymentLink& s)
{
    const std::vector<SpreadingFactorShare> mix = sfMixOf(s);
    // A region key starts at the SF asked for, or the mix's fastest (SF7 without either); a
    // preset key is moved to the SF only when one is asked for.
    const int sf = s.spreadingFactor;
    const int first = sf > 0 ? sf : mix.empty() ? 7 : mix.front().spreadingFactor;
    const std::string key = link::lower(s.link); // as linkPreset() takes its keys
    const RegionKey* region = regionNamed(key);
    Link link = region ? region->at(first) : linkPreset(key);
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
