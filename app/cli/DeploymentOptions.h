// SPDX-License-Identifier: MIT
// The deployment's dpu-cli options (fleet, report --fleet, budget): read through the plan field table's fleet.* entries, each of which names its option.
#pragma once
#include "ArgList.h"
#include "dpu/Deployment.h"
#include <string>
#include <vector>

namespace dpu::cli {

/// A number as "%g" writes it, for messages: 0.01, 1e+06.
std::string num(double v);

/// One deployment field a command line set: its plan path, its option, the value as JSON text.
struct GivenField {
    std::string path;   ///< "fleet.loss"
    std::string option; ///< "--loss"
    std::string json;   ///< "0.1"
};

/// The deployment options given, in the field table's order.
struct DeploymentOptions {
    std::vector<GivenField> fields;
    /// Whether the field at `path` was given.
    bool has(const std::string& path) const;
};

/// Which of the table's options a command reads: the link's (fleet.link .. fleet.leave_when_decoded:
/// budget), or every deployment field (fleet, report --fleet).
enum class OptionScope { Link, Deployment };

/// Reads every option of the plan field table's fleet.* entries within `scope`, each by its
/// type (numbers through the command's NumberOption: CommandNumbers.cpp), and the older
/// spellings: --multicast/--unicast (fleet.delivery), --availability FILE (a trace), --class B|C,
/// --cpu cortex-m4f|cortex-m0+. Throws UsageError naming the option for a value outside its
/// range or choices, both deliveries, or a processor figure without --cpu (and --cpu without
/// --clock-mhz and --run-ma).
DeploymentOptions readDeploymentOptions(ArgList& args, OptionScope scope);

/// `base` (a plan's deployment) with the given fields set: a given --link starts its link from the
/// defaults (the plan's SF, sub-band, loss ... belong to the plan's link). Each field's range and
/// the rules across them are checked as a plan file's are (validateDeployment(), the link as a
/// whole included). Throws UsageError naming the option, or the plan key (fleet.devices: ...)
/// when the plan's own value is what fails.
Deployment deploymentOf(const DeploymentOptions& given, const Deployment& base);

/// The link options as given (budget): the link they state, over a link without a key when
/// --link is missing; whether any option beyond --link was given, and the first of them.
struct LinkArgs {
    DeploymentLink settings;
    bool anyModelOption = false;
    std::string firstModelOption; ///< for messages
};

/// readDeploymentOptions(args, OptionScope::Link) applied to a link whose key is "" unless
/// --link is given. Each field's own range is checked; the link as a whole by linkOf() and
/// validateLink() (LinkError). Throws UsageError naming the option.
LinkArgs readLinkArgs(ArgList& args);

/// The help lines of the link options beyond the link, SF, duty cycle and loss: the loss
/// spread, the device class and ping periodicity, listening to the end (fleet and budget --help).
std::string deviceLinkArgsUsage();

/// The help lines of the processor's options (shared by fleet --help and the docs).
std::string cpuArgsUsage();

/// The help lines of the fleet's targets (fleet.targets.*: fleet --help, fleet plan --help).
std::string targetArgsUsage();

} // namespace dpu::cli
