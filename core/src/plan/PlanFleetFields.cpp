// SPDX-License-Identifier: MIT
// The plan's fleet.* fields: the link and fleet a plan is for, checked as the fleet simulation builds its link.
#include "dpu/Fleet.h"
#include "dpu/FleetSettings.h"
#include "dpu/LinkModel.h"
#include "plan/PlanFieldBuilders.h"
#include "plan/PlanFieldParts.h"
#include <map>

namespace dpu::plan {
namespace {

/// The plan path of a LinkError's field (linkOf() and validateLink() name the settings' members).
std::string pathOfLinkField(const std::string& field)
{
    static const std::map<std::string, std::string> paths{
        {"link", "fleet.link"},           {"spreadingFactor", "fleet.sf"}, {"sfMix", "fleet.sf_mix"},
        {"dutyCycle", "fleet.duty_cycle"}, {"frameLoss", "fleet.loss"}, {"frameLossSpread", "fleet.loss_spread"},
        {"deviceClass", "fleet.device_class"}, {"pingPeriodicity", "fleet.ping_periodicity"}};
    const auto it = paths.find(field);
    return it != paths.end() ? it->second : "fleet.link";
}

/// fleet.link, with the check of the whole link: the key, the SF or mix the region has, the
/// sub-band, the loss, as `dpu-cli fleet` builds the link from them.
FieldBinding linkField()
{
    FieldBinding b = (text("fleet.link", [](Plan& p) -> std::string& { return p.fleet.link; }, Write::Set,
                                   "lorawan-eu868, lorawan-us915 or a link preset's key",
                                   "the link the plan's rounds travel on (docs/fleet.md); `dpu-cli fleet` and the "
                                   "Fleet tab start from the plan's `fleet` keys"));
    b.check = [](const Plan& p) {
        require(!p.fleet.link.empty(), "fleet.link", "expected lorawan-eu868, lorawan-us915 or a link preset's key, found \"\"");
        try {
            validateLink(linkOf(fleetSettingsOf(p.fleet).link));
        } catch (const LinkError& e) {
            throw PlanError(pathOfLinkField(e.field()), e.field().empty() ? e.what() : std::string(e.what()).substr(e.field().size() + 2));
        }
    };
    return b;
}

} // namespace

std::vector<FieldBinding> fleetFields()
{
    std::vector<FieldBinding> t;
    t.push_back(linkField());
    t.push_back((integer<int>("fleet.sf", [](Plan& p) -> int& { return p.fleet.spreadingFactor; }, 0, 12,
                                      "0 .. 12", Write::Set, "LoRaWAN spreading factor 7..12; 0: SF7, or the mix's first")));
    t.push_back((text("fleet.sf_mix", [](Plan& p) -> std::string& { return p.fleet.sfMix; }, Write::Set,
                              "`fuotasim` or `SF:weight,...`",
                              "LoRaWAN: the devices' spreading factors, e.g. `7:45,8:22,12:6` (a multicast runs at the "
                              "slowest); `fuotasim`: FUOTASim's mix")));
    t.push_back((number("fleet.duty_cycle", [](Plan& p) -> double& { return p.fleet.dutyCycle; }, {0, 1, true, true},
                                "a share in [0, 1]", Write::Set,
                                "the share of time the gateway may transmit; EU868: its sub-bands' 0.001, 0.01, 0.1; 0: "
                                "the preset's")));
    t.push_back((number("fleet.loss", [](Plan& p) -> double& { return p.fleet.frameLoss; }, {0, 1, true, false},
                                "a probability in [0, 1)", Write::Set, "probability that a frame is lost")));
    t.push_back((number("fleet.loss_spread", [](Plan& p) -> double& { return p.fleet.frameLossSpread; }, {0, 1, true, false},
                                "a probability in [0, 1), at most fleet.loss", Write::Set,
                                "devices differ: each device's own loss lies evenly in loss +- this; sessions are planned "
                                "for the mean, so the lossier devices are left behind")));
    t.push_back((choice<DeliveryChoice>("fleet.delivery", [](Plan& p) -> DeliveryChoice& { return p.fleet.delivery; },
                                                Write::Set, "`preset` (as the link does), `multicast`, `unicast`")));
    t.push_back((choice<DeviceClassChoice>("fleet.device_class", [](Plan& p) -> DeviceClassChoice& { return p.fleet.deviceClass; },
                                                   Write::Set,
                                                   "LoRaWAN: `preset` (Class C), `c` (listens all through a session), `b` (ping "
                                                   "slots and beacons)")));
    t.push_back((integer<int>("fleet.ping_periodicity", [](Plan& p) -> int& { return p.fleet.pingPeriodicity; }, 0, 7,
                                      "0 .. 7", Write::Set, "Class B: a ping slot every 0.96 x 2^p s")));
    t.push_back((flag("fleet.leave_when_decoded", [](Plan& p) -> bool& { return p.fleet.leaveWhenDecoded; }, Write::Set,
                              "a device stops listening once it has decoded the bundle; false: it listens to the "
                              "session's end")));
    // The fleet simulation follows every device: its limit (dpu/Fleet.h) is the plan's.
    t.push_back((integer<int>("fleet.devices", [](Plan& p) -> int& { return p.fleet.devices; }, 1, kMaxFleetDevices,
                                      "1 .. 1000000", Write::Set, "devices the rounds go to")));
    t.push_back((number("fleet.availability", [](Plan& p) -> double& { return p.fleet.availability; },
                                {0, 1, false, true}, "a probability in (0, 1]", Write::Set,
                                "probability that a device is on in a round")));
    t.push_back((number("fleet.round_period_h", [](Plan& p) -> double& { return p.fleet.roundPeriodHours; },
                                {kMinRoundPeriodSeconds / 3600, kMaxRoundPeriodSeconds / 3600, true, true},
                                "hours in [1/3600, 1000000] (a second to a million hours)", Write::Set,
                                "hours between rounds on the fleet")));
    return t;
}

} // namespace dpu::plan
