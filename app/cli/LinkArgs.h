// SPDX-License-Identifier: MIT
// The link and processor options dpu-cli fleet and budget share (--link, --sf, --sf-mix, --duty-cycle, --loss, --multicast, --cpu ...).
#pragma once
#include "ArgList.h"
#include "dpu/FleetSettings.h"
#include <string>

namespace dpu::cli {

/// A number as "%g" writes it, for messages: 0.01, 1e+06.
std::string num(double v);

/// The link options as given: which of them appeared, so a command can refuse those that do
/// not apply (budget with a bare-rate --link).
struct LinkArgs {
    LinkSettings settings;
    /// --sf, --sf-mix, --duty-cycle, --loss, --loss-spread, --multicast, --unicast, --class,
    /// --ping-periodicity or --listen-to-end
    bool anyModelOption = false;
    std::string firstModelOption; ///< the first of those given, for messages
    /// Which options were given: a plan's fleet keys fill in the others (withPlanFleet).
    bool linkGiven = false, sfGiven = false, mixGiven = false, dutyGiven = false, lossGiven = false, deliveryGiven = false;
    bool spreadGiven = false, classGiven = false, periodicityGiven = false, listenGiven = false;
};

/// Reads --link KEY, --sf N, --sf-mix SF:W,...|fuotasim, --duty-cycle D, --loss P,
/// --loss-spread W, --multicast/--unicast, --class b|c, --ping-periodicity P and --listen-to-end.
/// Throws UsageError naming the option for a number outside its range (CommandNumbers.cpp), both
/// deliveries, or a class other than b or c; what depends on the link (an SF or a duty cycle its
/// region lacks, a spread above the loss, a class on a link without one) is checked by the link
/// model (LinkError).
LinkArgs readLinkArgs(ArgList& args);

/// Reads --cpu cortex-m4|cortex-m0 with --clock-mhz F and --run-ma I (both needed), --cpi C
/// (default 1) and --volts V (default 3). Throws UsageError naming the option and what it found
/// (an unknown processor, a value out of range, a processor option without --cpu).
CpuSettings readCpuArgs(ArgList& args);

/// The help lines of readLinkArgs()'s options beyond the link, SF, duty cycle and loss: the loss
/// spread, the device class and ping periodicity, listening to the end (fleet and budget --help).
std::string deviceLinkArgsUsage();

/// The help lines of readCpuArgs()'s options (shared by fleet --help and the docs).
std::string cpuArgsUsage();

} // namespace dpu::cli
