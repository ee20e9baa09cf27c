// SPDX-License-Identifier: MIT
// LinkArgs: the link and processor options of dpu-cli fleet and budget, read into core's typed settings.
#include "LinkArgs.h"
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace dpu::cli {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

LinkArgs readLinkArgs(ArgList& args)
{
    LinkArgs out;
    LinkSettings& s = out.settings;
    s.link = args.value("--link");
    // 0 is "the link's own" SF, as not giving --sf (CommandNumbers.cpp: 7..12 or 0).
    const int64_t sf = args.integer("--sf", 0);
    s.sfMix = args.value("--sf-mix");
    const std::optional<double> duty = args.real("--duty-cycle");
    const std::optional<double> loss = args.real("--loss");
    const bool multicast = args.flag("--multicast");
    const bool unicast = args.flag("--unicast");
    if (multicast && unicast)
        throw UsageError("--multicast and --unicast exclude each other");
    const std::optional<double> spread = args.real("--loss-spread");
    const std::string deviceClass = args.value("--class");
    const std::optional<int64_t> periodicity = args.integer("--ping-periodicity");
    const bool listenToEnd = args.flag("--listen-to-end");
    if (!deviceClass.empty() && deviceClass != "b" && deviceClass != "c" && deviceClass != "B" && deviceClass != "C")
        throw UsageError("--class: expected b (LoRaWAN Class B: ping slots and beacons) or c (Class C), found '" + deviceClass + "'");
    s.frameLossSpread = spread.value_or(0);
    s.deviceClass = deviceClass.empty() ? DeviceClassChoice::Preset
                    : (deviceClass == "b" || deviceClass == "B") ? DeviceClassChoice::B
                                                                 : DeviceClassChoice::C;
    s.pingPeriodicity = static_cast<int>(periodicity.value_or(0));
    s.leaveWhenDecoded = !listenToEnd;
    s.spreadingFactor = static_cast<int>(sf);
    s.dutyCycle = duty.value_or(NAN); // NaN: the preset's (LinkSettings)
    s.frameLoss = loss.value_or(0);
    s.delivery = multicast ? DeliveryChoice::Multicast : unicast ? DeliveryChoice::Unicast : DeliveryChoice::Preset;
    const std::pair<bool, const char*> given[] = {{sf != 0, "--sf"}, {!s.sfMix.empty(), "--sf-mix"},
                                                  {duty.has_value(), "--duty-cycle"}, {loss.has_value(), "--loss"},
                                                  {multicast, "--multicast"}, {unicast, "--unicast"},
                                                  {spread.has_value(), "--loss-spread"}, {!deviceClass.empty(), "--class"},
                                                  {periodicity.has_value(), "--ping-periodicity"}, {listenToEnd, "--listen-to-end"}};
    for (const auto& [on, name] : given)
        if (on && !out.anyModelOption) {
            out.anyModelOption = true;
            out.firstModelOption = name;
        }
    out.linkGiven = !s.link.empty();
    out.sfGiven = sf != 0;
    out.mixGiven = !s.sfMix.empty();
    out.dutyGiven = duty.has_value();
    out.lossGiven = loss.has_value();
    out.deliveryGiven = multicast || unicast;
    out.spreadGiven = spread.has_value();
    out.classGiven = !deviceClass.empty();
    out.periodicityGiven = periodicity.has_value();
    out.listenGiven = listenToEnd;
    return out;
}

CpuSettings readCpuArgs(ArgList& args)
{
    CpuSettings s;
    const std::string cpu = args.value("--cpu");
    // Each in its range when given (CommandNumbers.cpp); what is left is which go together.
    const std::optional<double> clock = args.real("--clock-mhz");
    const std::optional<double> cpi = args.real("--cpi");
    const std::optional<double> runMa = args.real("--run-ma");
    const std::optional<double> volts = args.real("--volts");
    if (cpu.empty()) {
        for (const auto& [v, name] : {std::pair{clock, "--clock-mhz"}, {cpi, "--cpi"}, {runMa, "--run-ma"}, {volts, "--volts"}})
            if (v)
                throw UsageError(std::string(name) + " needs --cpu cortex-m4|cortex-m0 (the processor it describes)");
        return s;
    }
    if (cpu == "cortex-m4" || cpu == "cortex-m4f")
        s.cpu = CpuChoice::CortexM4;
    else if (cpu == "cortex-m0" || cpu == "cortex-m0+")
        s.cpu = CpuChoice::CortexM0;
    else
        throw UsageError("--cpu: expected cortex-m4 or cortex-m0, found '" + cpu + "'");
    if (!clock || !runMa)
        throw UsageError("--cpu needs --clock-mhz F (the part's clock) and --run-ma I (its run current from flash, mA)");
    s.clockMhz = *clock;
    s.runMilliamps = *runMa;
    s.cyclesPerInstruction = cpi.value_or(1);
    s.volts = volts.value_or(3);
    return s;
}

std::string deviceLinkArgsUsage()
{
    return "  --loss-spread W       devices differ: each device's own loss lies evenly in loss +- W (sessions\n"
           "                        are planned for the mean loss; the lossier devices are left behind)\n"
           "  --class b|c           LoRaWAN device class of the multicast: c listens all through a session\n"
           "                        (the preset's), b at its ping slots and beacons (frames wait for a slot)\n"
           "  --ping-periodicity P  Class B: a ping slot every 0.96 x 2^P s, P = 0..7 (default 0)\n"
           "  --listen-to-end       devices listen to a session's end instead of leaving once decoded\n";
}

std::string cpuArgsUsage()
{
    return "Device processor (applying a bundle keeps a node awake; docs/fleet.md \"The device side\"):\n"
           "  --cpu cortex-m4|cortex-m0  the QEMU-measured instructions per apply of that core\n"
           "  --clock-mhz F         its clock (required with --cpu)\n"
           "  --run-ma I            its run current from flash in mA (required with --cpu)\n"
           "  --cpi C               cycles per instruction (default 1: the lower bound)\n"
           "  --volts V             the supply the current is drawn at (default 3)\n";
}

} // namespace dpu::cli
