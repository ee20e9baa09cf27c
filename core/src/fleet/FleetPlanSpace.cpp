// SPDX-License-Identifier: MIT
// The fleet planner's space: what a deployment may vary (period, delivery, sub-band, catch-ups, repairs), its settings and their words.
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "fleet/FleetPlanParts.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dpu {
namespace {

/// `values` sorted ascending without repeats.
template <typename T> std::vector<T> sortedUnique(std::vector<T> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

/// The deployment's link as its preset delivers it (delivery and sub-band as the preset says).
Link presetLinkOf(const Deployment& d)
{
    DeploymentLink link = d.link;
    link.delivery = DeliveryChoice::Preset;
    return linkOf(link);
}

/// How many spreading factors of the link's mix have a share.
int spreadingFactorsIn(const DeploymentLink& link)
{
    int n = 0;
    for (const SpreadingFactorShare& s : sfMixOf(link))
        n += s.share > 0;
    return n;
}

std::string format(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

void require(bool ok, const std::string& field, const std::string& expected, double found)
{
    if (!ok)
        throw LinkError("space." + field, "expected " + expected + ", found " + format("%g", found));
}

} // namespace

std::string fleetDeliveryText(FleetDelivery delivery)
{
    switch (delivery) {
    case FleetDelivery::MulticastAtSlowest: return "one multicast at the slowest SF";
    case FleetDelivery::MulticastPerSf: return "one multicast per SF";
    case FleetDelivery::Unicast: return "unicast";
    }
    return "unicast";
}

std::string fleetSettingText(const FleetPlanSetting& s)
{
    std::string text = "a round every " + format("%g h", s.roundPeriodHours) + ", " + fleetDeliveryText(s.delivery);
    text += s.dutyCycle ? ", the " + format("%g %%", *s.dutyCycle * 100) + " sub-band" : ", the preset's duty cycle";
    text += s.catchUp == CatchUpDelivery::MulticastPerVersion ? ", catch-ups by one multicast per version" : ", catch-ups by unicast";
    text += s.order == CatchUpOrder::MostStaleFirst ? " (most stale first)" : " (smallest first)";
    if (s.maxStaleness > 0)
        text += ", the full model past " + std::to_string(s.maxStaleness) + " versions behind";
    text += ", " + std::to_string(s.repairSessions) + (s.repairSessions == 1 ? " repair session" : " repair sessions");
    return text;
}

FleetPlanSpace defaultFleetPlanSpace(const Deployment& d)
{
    const Link link = presetLinkOf(d);
    FleetPlanSpace space;
    space.roundPeriodHours = sortedUnique<double>({d.roundPeriodHours, 24, 48, 72, 168});
    if (link.multicastCapable) {
        space.deliveries.push_back(FleetDelivery::MulticastAtSlowest);
        if (spreadingFactorsIn(d.link) > 1)
            space.deliveries.push_back(FleetDelivery::MulticastPerSf);
        space.catchUps = {CatchUpDelivery::Unicast, CatchUpDelivery::MulticastPerVersion};
    }
    space.deliveries.push_back(FleetDelivery::Unicast);
    if (link.region == LinkRegion::Eu868) {
        std::vector<double> bands{0.01, 0.1};
        if (d.link.dutyCycle)
            bands.push_back(*d.link.dutyCycle);
        space.dutyCycles = sortedUnique(bands);
    }
    space.orders = {CatchUpOrder::MostStaleFirst, CatchUpOrder::SmallestFirst};
    if (link.recovery == LinkRecovery::ErasureCode) // repairs resend coded fragments
        space.repairSessions = sortedUnique<int>({0, 1, 2, d.policy.repairSessions});
    return space;
}

namespace fleetplan {

void validateSpace(const FleetPlanSpace& space)
{
    for (double h : space.roundPeriodHours)
        require(std::isfinite(h) && h * 3600 >= kMinRoundPeriodSeconds && h * 3600 <= kMaxRoundPeriodSeconds, "roundPeriodHours",
                "hours in [1/3600, 1000000]", h);
    for (double d : space.dutyCycles)
        require(std::isfinite(d) && d > 0 && d <= 1, "dutyCycles", "a share in (0, 1]", d);
    for (int s : space.maxStaleness)
        require(s >= 0 && s <= kMaxStaleness, "maxStaleness", "0 .. 10000 versions", s);
    for (int r : space.repairSessions)
        require(r >= 0 && r <= kMaxRepairSessions, "repairSessions", "0 .. 100", r);
}

std::vector<FleetPlanSetting> settingsOf(const FleetPlanSpace& space, const Deployment& d)
{
    const Link preset = presetLinkOf(d);
    const bool multicastBase = linkOf(d.link).delivery == LinkDelivery::Multicast;
    const FleetDelivery baseDelivery = !multicastBase ? FleetDelivery::Unicast
                                       : d.policy.multicastPerSpreadingFactor ? FleetDelivery::MulticastPerSf
                                                                              : FleetDelivery::MulticastAtSlowest;
    auto orOwn = [](auto list, auto own) { return list.empty() ? decltype(list){own} : sortedUnique(list); };
    const auto periods = orOwn(space.roundPeriodHours, d.roundPeriodHours);
    const auto deliveries = orOwn(space.deliveries, baseDelivery);
    const auto catchUps = orOwn(space.catchUps, d.policy.catchUp);
    const auto orders = orOwn(space.orders, d.policy.order);
    const auto staleness = orOwn(space.maxStaleness, d.policy.maxStaleness);
    const auto repairs = orOwn(space.repairSessions, d.policy.repairSessions);
    // Sub-bands: the preset's own stays "as the preset" (unset) when the deployment leaves it so.
    std::vector<std::optional<double>> bands;
    for (double b : space.dutyCycles)
        bands.push_back(!d.link.dutyCycle && b == preset.dutyCycle ? std::nullopt : std::optional<double>(b));
    if (bands.empty())
        bands.push_back(d.link.dutyCycle);
    bands.erase(std::unique(bands.begin(), bands.end()), bands.end());
    const bool perSfDiffers = spreadingFactorsIn(d.link) > 1;

    std::vector<FleetPlanSetting> out;
    for (double period : periods)
        for (FleetDelivery delivery : deliveries) {
            if (delivery == FleetDelivery::MulticastPerSf && !perSfDiffers && deliveries.size() > 1)
                continue; // the same as one multicast at the slowest
            for (const std::optional<double>& band : bands)
                for (CatchUpDelivery catchUp : catchUps)
                    for (CatchUpOrder order : orders)
                        for (int stale : staleness)
                            for (int repair : repairs)
                                out.push_back({period, delivery, band, catchUp, order, stale, repair});
        }
    return out;
}

Deployment withSetting(const Deployment& base, const FleetPlanSetting& s)
{
    Deployment d = base;
    d.roundPeriodHours = s.roundPeriodHours;
    const bool multicast = s.delivery != FleetDelivery::Unicast;
    const bool presetMulticast = presetLinkOf(base).delivery == LinkDelivery::Multicast;
    if (base.link.delivery != DeliveryChoice::Preset || presetMulticast != multicast)
        d.link.delivery = multicast ? DeliveryChoice::Multicast : DeliveryChoice::Unicast;
    d.link.dutyCycle = s.dutyCycle;
    d.policy.multicastPerSpreadingFactor = s.delivery == FleetDelivery::MulticastPerSf;
    d.policy.catchUp = s.catchUp;
    d.policy.order = s.order;
    d.policy.maxStaleness = s.maxStaleness;
    d.policy.repairSessions = s.repairSessions;
    return d;
}

} // namespace fleetplan
} // namespace dpu
