// SPDX-License-Identifier: MIT
// LinkArgs: the link and processor options of dpu-cli fleet and budget, read into core's typed settings.
#include "LinkArgs.h"
#include <cmath>
#include <cstdio>
#include <utility>

namespace dpu::cli {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

namespace {

} // namespace

LinkArgs readLinkArgs(ArgList& args)
{
    LinkArgs out;
    LinkSettings& s = out.settings;
    s.link = args.value("--link");
    const double sf = args.number("--sf", 0);
    s.sfMix = args.value("--sf-mix");
    s.dutyCycle = args.number("--duty-cycle", NAN);
    const double loss = args.number("--loss", NAN);
    const bool multicast = args.flag("--multicast");
    const bool unicast = args.flag("--unicast");
    if (multicast && unicast)
        throw UsageError("--multicast and --unicast exclude each other");
    if (!(sf >= 0) || sf != std::floor(sf))
        throw UsageError("--sf: expected a whole number, 0 or more");
    s.spreadingFactor = static_cast<int>(sf);
    s.frameLoss = std::isnan(loss) ? 0 : loss;
    s.delivery = multicast ? DeliveryChoice::Multicast : unicast ? DeliveryChoice::Unicast : DeliveryChoice::Preset;
    const std::pair<bool, const char*> given[] = {{sf != 0, "--sf"}, {!s.sfMix.empty(), "--sf-mix"},
                                                  {!std::isnan(s.dutyCycle), "--duty-cycle"}, {!std::isnan(loss), "--loss"},
                                                  {multicast, "--multicast"}, {unicast, "--unicast"}};
    for (const auto& [on, name] : given)
        if (on && !out.anyModelOption) {
            out.anyModelOption = true;
            out.firstModelOption = name;
        }
    out.linkGiven = !s.link.empty();
    out.sfGiven = sf != 0;
    out.mixGiven = !s.sfMix.empty();
    out.dutyGiven = !std::isnan(s.dutyCycle);
    out.lossGiven = !std::isnan(loss);
    out.deliveryGiven = multicast || unicast;
    return out;
}

CpuSettings readCpuArgs(ArgList& args)
{
    CpuSettings s;
    const std::string cpu = args.value("--cpu");
    const double clock = args.number("--clock-mhz", NAN);
    const double cpi = args.number("--cpi", NAN);
    const double runMa = args.number("--run-ma", NAN);
    const double volts = args.number("--volts", NAN);
    if (cpu.empty()) {
        for (const auto& [v, name] : {std::pair{clock, "--clock-mhz"}, {cpi, "--cpi"}, {runMa, "--run-ma"}, {volts, "--volts"}})
            if (!std::isnan(v))
                throw UsageError(std::string(name) + " needs --cpu cortex-m4|cortex-m0 (the processor it describes)");
        return s;
    }
    if (cpu == "cortex-m4" || cpu == "cortex-m4f")
        s.cpu = CpuChoice::CortexM4;
    else if (cpu == "cortex-m0" || cpu == "cortex-m0+")
        s.cpu = CpuChoice::CortexM0;
    else
        throw UsageError("--cpu: expected cortex-m4 or cortex-m0, found '" + cpu + "'");
    if (std::isnan(clock) || std::isnan(runMa))
        throw UsageError("--cpu needs --clock-mhz F (the part's clock) and --run-ma I (its run current from flash, mA)");
    if (!(clock > 0 && std::isfinite(clock)))
        throw UsageError("--clock-mhz: expected a clock above 0 MHz, found " + num(clock));
    if (!(runMa >= 0 && std::isfinite(runMa)))
        throw UsageError("--run-ma: expected a current of 0 mA or more, found " + num(runMa));
    if (!std::isnan(cpi) && !(cpi > 0 && std::isfinite(cpi)))
        throw UsageError("--cpi: expected cycles per instruction above 0, found " + num(cpi));
    if (!std::isnan(volts) && !(volts > 0 && std::isfinite(volts)))
        throw UsageError("--volts: expected a supply above 0 V, found " + num(volts));
    s.clockMhz = clock;
    s.runMilliamps = runMa;
    s.cyclesPerInstruction = std::isnan(cpi) ? 1 : cpi;
    s.volts = std::isnan(volts) ? 3 : volts;
    return s;
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
