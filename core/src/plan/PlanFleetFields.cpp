// SPDX-License-Identifier: MIT
// The plan's fleet.* fields: the one description of a deployment (dpu/Deployment.h), each with its dpu-cli option and rules.
#include "dpu/DeploymentLink.h"
#include "dpu/Fleet.h" // the fleet's limits, constants only
#include "dpu/LinkModel.h"
#include "plan/PlanFieldBuilders.h"
#include "plan/PlanFieldParts.h"
#include <map>

namespace dpu::plan {
namespace {

/// The plan path of a LinkError's field (linkOf() and validateLink() name the link's members).
std::string pathOfLinkField(const std::string& field)
{
    static const std::map<std::string, std::string> paths{
        {"link", "fleet.link"},           {"spreadingFactor", "fleet.sf"}, {"sfMix", "fleet.sf_mix"},
        {"dutyCycle", "fleet.duty_cycle"}, {"frameLoss", "fleet.loss"}, {"frameLossSpread", "fleet.loss_spread"},
        {"deviceClass", "fleet.device_class"}, {"pingPeriodicity", "fleet.ping_periodicity"}};
    const auto it = paths.find(field);
    return it != paths.end() ? it->second : "fleet.link";
}

/// `b` with the dpu-cli option that sets it.
FieldBinding option(FieldBinding b, const std::string& name, double scale = 1)
{
    b.info.option = name;
    b.info.optionScale = scale;
    return b;
}

/// A Boolean `b` set by the flag `name` to `value`.
FieldBinding flagOption(FieldBinding b, const std::string& name, bool value)
{
    b.info.option = name;
    b.info.optionFlagValue = value;
    return b;
}

/// The check of the whole link (the key, the SF or mix the region has, the sub-band, the loss, the
/// device class), as `dpu-cli fleet` builds the link: run by the last link field, after each
/// link field's own rule, so that a rule's sentence is what a field set where it does not apply
/// gets. Errors name the field the link model names.
void checkWholeLink(const Plan& p)
{
    require(!p.fleet.link.link.empty(), "fleet.link", "expected lorawan-eu868, lorawan-us915 or a link preset's key, found \"\"");
    try {
        validateLink(linkOf(p.fleet.link));
    } catch (const LinkError& e) {
        // An SF the region lacks that came from the mix is the mix's.
        const bool fromMix = e.field() == "spreadingFactor" && p.fleet.link.spreadingFactor == 0 && !p.fleet.link.sfMix.empty();
        throw PlanError(fromMix ? "fleet.sf_mix" : pathOfLinkField(e.field()),
                        e.field().empty() ? e.what() : std::string(e.what()).substr(e.field().size() + 2));
    }
}

/// Whether the plan's link is LoRa (a LoRaWAN region or a LoRaWAN preset): what has a spreading
/// factor and a device class. A key the link model lacks counts as LoRa here: the link's own
/// check names the key.
bool loraLink(const Plan& p)
{
    DeploymentLink key;
    key.link = p.fleet.link.link;
    try {
        return linkOf(key).lora;
    } catch (const LinkError&) {
        return true;
    }
}

std::string foundLink(const Plan& p)
{
    return "fleet.link \"" + p.fleet.link.link + "\"";
}

/// `b`, applying to a LoRa link only (refused elsewhere: the link model has no SF or class there).
FieldBinding ofLoRa(FieldBinding b, const std::string& what)
{
    return appliesWhen(std::move(b), {loraLink, "only a LoRa link has " + what, "a LoRaWAN fleet.link", foundLink});
}

/// fleet.link: the link the rounds travel on (checked whole by checkWholeLink()).
FieldBinding linkField()
{
    FieldBinding b = text("fleet.link", [](Plan& p) -> std::string& { return p.fleet.link.link; }, Write::Set,
                          "lorawan-eu868, lorawan-us915 or a link preset's key",
                          "the link the plan's rounds travel on (docs/fleet.md); `dpu-cli fleet` and the Fleet tab start "
                          "from the plan's `fleet` keys");
    return option(std::move(b), "--link");
}

/// fleet.duty_cycle: unset (or 0 in a file, as plans before the typed deployment wrote it) is
/// the preset's; a plan file writes it only when set.
FieldBinding dutyCycleField()
{
    const std::string path = "fleet.duty_cycle";
    FieldBinding b = describedField(path, FieldType::Number, {}, "a share in (0, 1]; 0: the preset's", "none",
                                    "the share of time the gateway may transmit; EU868: its sub-bands' 0.001, 0.01, 0.1; "
                                    "none or 0: the preset's");
    b.read = [path](const json& v, Plan& p) {
        require(v.is_number(), path, std::string("expected a number, found ") + v.type_name());
        const double d = v.get<double>();
        p.fleet.link.dutyCycle = d == 0 ? std::nullopt : std::optional<double>(d);
    };
    b.write = [](const Plan& p, json& parent, const std::string& key) {
        if (p.fleet.link.dutyCycle)
            parent[key] = *p.fleet.link.dutyCycle;
    };
    b.check = [path](const Plan& p) {
        if (const std::optional<double> d = p.fleet.link.dutyCycle)
            require(*d > 0 && *d <= 1, path, "expected a share in (0, 1], found " + showNumber(*d));
    };
    b.isDefault = [](const Plan& p) { return !p.fleet.link.dutyCycle; };
    b.reset = [](Plan& p) { p.fleet.link.dutyCycle.reset(); };
    return option(std::move(b), "--duty-cycle");
}

/// "the processor" rule of the processor's figures: they describe the one chosen.
FieldBinding ofProcessor(FieldBinding b)
{
    return appliesWhen(std::move(b), {[](const Plan& p) { return p.fleet.cpu.cpu != CpuChoice::None; },
                                      "the processor's figures describe the processor chosen", "fleet.cpu set",
                                      [](const Plan&) { return std::string("fleet.cpu \"none\""); }});
}

std::vector<FieldBinding> linkFields()
{
    std::vector<FieldBinding> t;
    t.push_back(linkField());
    t.push_back(option(ofLoRa(integer<int>("fleet.sf", [](Plan& p) -> int& { return p.fleet.link.spreadingFactor; }, 0, 12,
                                           "0 .. 12", Write::Set, "LoRaWAN spreading factor 7..12; 0: SF7, or the mix's first"),
                              "a spreading factor"),
                       "--sf"));
    t.push_back(option(ofLoRa(text("fleet.sf_mix", [](Plan& p) -> std::string& { return p.fleet.link.sfMix; }, Write::Set,
                                   "`fuotasim` or `SF:weight,...`",
                                   "LoRaWAN: the devices' spreading factors, e.g. `7:45,8:22,12:6` (a multicast runs at the "
                                   "slowest); `fuotasim`: FUOTASim's mix"),
                              "spreading factors"),
                       "--sf-mix"));
    t.push_back(dutyCycleField());
    t.push_back(option(number("fleet.loss", [](Plan& p) -> double& { return p.fleet.link.frameLoss; }, {0, 1, true, false},
                              "a probability in [0, 1)", Write::Set, "probability that a frame is lost"),
                       "--loss"));
    t.push_back(option(number("fleet.loss_spread", [](Plan& p) -> double& { return p.fleet.link.frameLossSpread; },
                              {0, 1, true, false}, "a probability in [0, 1), at most fleet.loss", Write::Set,
                              "devices differ: each device's own loss lies evenly in loss +- this; sessions are planned "
                              "for the mean, so the lossier devices are left behind"),
                       "--loss-spread"));
    t.push_back(option(choice<DeliveryChoice>("fleet.delivery", [](Plan& p) -> DeliveryChoice& { return p.fleet.link.delivery; },
                                              Write::Set, "`preset` (as the link does), `multicast`, `unicast`"),
                       "--delivery"));
    t.push_back(option(ofLoRa(choice<DeviceClassChoice>("fleet.device_class",
                                                 [](Plan& p) -> DeviceClassChoice& { return p.fleet.link.deviceClass; }, Write::Set,
                                                 "LoRaWAN: `preset` (Class C), `c` (listens all through a session), `b` (ping "
                                                 "slots and beacons)"), "a LoRaWAN device class"),
                       "--class"));
    t.push_back(option(appliesWhen(integer<int>("fleet.ping_periodicity", [](Plan& p) -> int& { return p.fleet.link.pingPeriodicity; },
                                                0, 7, "0 .. 7", Write::Set, "Class B: a ping slot every 0.96 x 2^p s"),
                                   {[](const Plan& p) { return p.fleet.link.deviceClass == DeviceClassChoice::B; },
                                    "only Class B has ping slots", "fleet.device_class \"b\"",
                                    [](const Plan& p) { return "fleet.device_class \"" + nameOf(p.fleet.link.deviceClass) + "\""; }},
                                   WhenOff::Ignored),
                       "--ping-periodicity"));
    FieldBinding leave = flagOption(flag("fleet.leave_when_decoded", [](Plan& p) -> bool& { return p.fleet.link.leaveWhenDecoded; },
                                         Write::Set,
                                         "a device stops listening once it has decoded the bundle; false: it listens to the "
                                         "session's end"),
                                    "--listen-to-end", false);
    leave.check = checkWholeLink; // the last link field: after every link field's own rule
    t.push_back(std::move(leave));
    return t;
}

std::vector<FieldBinding> devicesFields()
{
    std::vector<FieldBinding> t;
    // The fleet simulation follows every device: its limit (dpu/Fleet.h) is the plan's.
    t.push_back(option(integer<int>("fleet.devices", [](Plan& p) -> int& { return p.fleet.devices; }, 1, kMaxFleetDevices,
                                    "1 .. 1000000", Write::Set, "devices the rounds go to"),
                       "--devices"));
    t.push_back(option(appliesWhen(number("fleet.availability", [](Plan& p) -> double& { return p.fleet.availability; },
                                          {0, 1, false, true}, "a probability in (0, 1]", Write::Set,
                                          "probability that a device is on in a round"),
                                   {[](const Plan& p) { return p.fleet.availabilityTrace.empty(); },
                                    "an availability trace replaces the share available per round", "no fleet.availability_trace",
                                    [](const Plan& p) { return "fleet.availability_trace \"" + p.fleet.availabilityTrace + "\""; }},
                                   WhenOff::Ignored),
                       "--availability"));
    t.push_back(option(text("fleet.availability_trace", [](Plan& p) -> std::string& { return p.fleet.availabilityTrace; },
                            Write::Set, "a file's path",
                            "which device is on in which round: CSV lines `device,round` or FedScale's trace as JSON; "
                            "it replaces fleet.availability"),
                       "--trace"));
    t.push_back(option(number("fleet.round_period_h", [](Plan& p) -> double& { return p.fleet.roundPeriodHours; },
                              {kMinRoundPeriodSeconds / 3600, kMaxRoundPeriodSeconds / 3600, true, true},
                              "hours in [1/3600, 1000000] (a second to a million hours)", Write::Set,
                              "hours between rounds on the fleet"),
                       "--period", 3600));
    t.push_back(option(choice<CpuChoice>("fleet.cpu", [](Plan& p) -> CpuChoice& { return p.fleet.cpu.cpu; }, Write::Set,
                                         "the processor that applies bundles: its QEMU-measured instructions per apply"),
                       "--cpu"));
    t.push_back(option(ofProcessor(number("fleet.clock_mhz", [](Plan& p) -> double& { return p.fleet.cpu.clockMhz; },
                                          {0.001, 10000, true, true}, "MHz in [0.001, 10000]", Write::Set,
                                          "the processor's clock")),
                       "--clock-mhz"));
    t.push_back(advanced(option(ofProcessor(number("fleet.cpi", [](Plan& p) -> double& { return p.fleet.cpu.cyclesPerInstruction; },
                                          {0, 100, false, true}, "in (0, 100]", Write::Set,
                                          "cycles per instruction (1: the lower bound)")),
                       "--cpi")));
    t.push_back(advanced(option(ofProcessor(number("fleet.run_ma", [](Plan& p) -> double& { return p.fleet.cpu.runMilliamps; },
                                          {0, 10000, true, true}, "mA in [0, 10000]", Write::Set,
                                          "its run current from flash")),
                       "--run-ma")));
    t.push_back(advanced(option(ofProcessor(number("fleet.volts", [](Plan& p) -> double& { return p.fleet.cpu.volts; },
                                          {0, 100, false, true}, "volts in (0, 100]", Write::Set,
                                          "the supply the current is drawn at")),
                       "--volts")));
    return t;
}

std::vector<FieldBinding> serverFields()
{
    std::vector<FieldBinding> t;
    t.push_back(option(choice<CatchUpDelivery>("fleet.catch_up", [](Plan& p) -> CatchUpDelivery& { return p.fleet.policy.catchUp; },
                                               Write::Set,
                                               "devices behind by more than one version: one bundle each, or one multicast per "
                                               "version they run"),
                       "--catch-up"));
    t.push_back(option(choice<CatchUpOrder>("fleet.order", [](Plan& p) -> CatchUpOrder& { return p.fleet.policy.order; },
                                            Write::Set, "which stale devices a busy transmitter serves first"),
                       "--order"));
    t.push_back(option(integer<int>("fleet.max_staleness", [](Plan& p) -> int& { return p.fleet.policy.maxStaleness; }, 0,
                                    kMaxStaleness, "0 .. 10000", Write::Set,
                                    "versions behind after which a device gets the full model; 0: never"),
                       "--max-staleness"));
    t.push_back(advanced(option(integer<int>("fleet.repairs", [](Plan& p) -> int& { return p.fleet.policy.repairSessions; }, 0,
                                    kMaxRepairSessions, "0 .. 100", Write::Set,
                                    "repair sessions after a session for the devices that did not complete"),
                       "--repairs")));
    t.push_back(advanced(option(number("fleet.target", [](Plan& p) -> double& { return p.fleet.policy.target.probability; },
                              {0, 1, false, false}, "a probability in (0, 1)", Write::Set,
                              "the probability that a device completes a session, which sizes its redundancy"),
                       "--target")));
    t.push_back(advanced(flagOption(flag("fleet.multicast_per_sf", [](Plan& p) -> bool& { return p.fleet.policy.multicastPerSpreadingFactor; },
                                Write::Set, "a multicast runs once per spreading factor among its devices, not once at the slowest"),
                           "--multicast-per-sf", true)));
    t.push_back(option(choice<CatchUpSizing>("fleet.catch_up_bytes", [](Plan& p) -> CatchUpSizing& { return p.fleet.catchUpSizes; },
                                             Write::Set,
                                             "catch-up bundles estimated (the cheaper of the missed chain and the full model) "
                                             "or built from the runs' files"),
                       "--catch-up-bytes"));
    t.push_back(advanced(option(integer<int64_t>("fleet.sample_bytes", [](Plan& p) -> int64_t& { return p.fleet.sampleBytes; }, 0,
                                        kMaxSampleBytes, "0 .. 1000000000", Write::Set,
                                        "the paper's appendix: bytes of one sample each node uploads; 0: none"),
                       "--sample-bytes")));
    t.push_back(option(integer<int>("fleet.drain_rounds", [](Plan& p) -> int& { return p.fleet.drainRounds; }, 0, kMaxDrainRounds,
                                    "0 .. 1000", Write::Set,
                                    "simulated rounds after the run's last that only catch devices up"),
                       "--drain"));
    t.push_back(advanced(option(integer<uint64_t>("fleet.seed", [](Plan& p) -> uint64_t& { return p.fleet.seed; }, 0, kMaxExactSeed,
                                         "0 .. 2^53", Write::Set, "the simulation's draws: which devices are on, which frames are lost"),
                       "--fleet-seed")));
    return t;
}

} // namespace

std::vector<FieldBinding> fleetFields()
{
    std::vector<FieldBinding> t = linkFields();
    for (const std::vector<FieldBinding>& part : {devicesFields(), serverFields()})
        t.insert(t.end(), part.begin(), part.end());
    return t;
}

} // namespace dpu::plan
