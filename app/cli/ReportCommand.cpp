// SPDX-License-Identifier: MIT
// dpu-cli report: the desktop application's PDF report, made headless on Qt's offscreen platform; --fleet adds the fleet page.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include <cstdio>
#include <cstdlib>

#ifdef DPU_CLI_HAS_REPORT
#include "DeploymentOptions.h"
#include "RunsOnFleet.h"
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "dpu/PlanFields.h"
#include "models/RunBook.h"
#include "report/ReportWriter.h"
#include <QApplication>
#include <algorithm>
#include <optional>
#endif

namespace dpu::cli {

#ifdef DPU_CLI_HAS_REPORT
namespace {

/// The fleet's options belong to --fleet: without it they are refused by name, not as unknown.
void refuseFleetOptionsWithoutFleet(const std::vector<std::string>& argv)
{
    std::vector<std::string> options{"--multicast", "--unicast"};
    for (const PlanField& f : planFields()) // --link alone names the per-round times' link
        if (f.path.rfind("fleet.", 0) == 0 && !f.option.empty() && f.option != "--link")
            options.push_back(f.option);
    for (const std::string& name : options)
        if (std::find(argv.begin(), argv.end(), name) != argv.end())
            throw UsageError(name + " needs --fleet (the fleet page takes dpu-cli fleet's options)");
}

/// The runs simulated on the fleet (core's simulateFleet, through the options dpu-cli fleet
/// reads) as the report's fleet page takes them; series named as the charts' and the Fleet
/// tab's ("dpu", or "dpu · k=0.05" beside other runs: the book's seriesKey).
dpu::ui::ReportFleet reportFleetOf(const dpu::ui::RunBook& book, const std::vector<RunFolder>& runs, FleetConfig config,
                                   std::optional<int64_t> seed, bool realCatchUps)
{
    FleetOfRuns fleet = simulateRunsOnFleet(runs, std::move(config), seed, false, realCatchUps);
    dpu::ui::ReportFleet out;
    for (size_t i = 0; i < fleet.strategies.size(); ++i) {
        const dpu::ui::BookRun& run = book.runs()[static_cast<int>(fleet.runOf[i])];
        const QString key = book.seriesKey(run.id, fleet.strategies[i].name, run.plan.seeds.front(), false);
        out.series.push_back({key, fleet.strategies[i].versions, std::move(fleet.results[i]), fleet.metrics[i]});
    }
    for (const std::string& note : fleet.notes)
        out.notes << QString::fromStdString(note);
    out.config = std::move(fleet.config);
    return out;
}

} // namespace
#endif

int reportCommand(const std::vector<std::string>& argv)
{
#ifndef DPU_CLI_HAS_REPORT
    (void)argv;
    std::fprintf(stderr, "dpu-cli report: this dpu-cli was built without the desktop application (DPU_BUILD_GUI=OFF), "
                         "which draws the report; rebuild with -DDPU_BUILD_GUI=ON\n");
    return 1;
#else
    ArgList args(argv, numberOptionsOf("report"));
    const std::string out = args.value("--out");
    const double budget = args.real("--budget", 0);
    const bool withFleet = args.flag("--fleet");
    if (!withFleet)
        refuseFleetOptionsWithoutFleet(argv);
    // With --fleet, --link is the fleet's link model (dpu-cli fleet's options, all of them).
    std::optional<FleetConfig> fleetConfig;
    std::optional<int64_t> fleetRunSeed; // nullopt: each run's first
    std::optional<Link> reportLink; // the per-round times' link
    int reportDevices = 1;
    DeploymentOptions fleetGiven;
    bool realCatchUps = false;
    if (withFleet) {
        fleetGiven = readDeploymentOptions(args, OptionScope::Deployment);
        fleetRunSeed = args.integer("--seed");
    } else if (const std::string link = args.value("--link", ""); !link.empty()) {
        const std::vector<std::string> keys = linkPresetKeysList();
        if (std::find(keys.begin(), keys.end(), resolveLinkKey(link)) == keys.end()) {
            std::string known;
            for (const std::string& key : keys)
                known += (known.empty() ? "" : ", ") + key;
            throw UsageError("--link: expected one of " + known + " (or " + linkKeyAliasesText() + "), found '" + link + "'");
        }
        reportLink = linkPreset(link); // a preset or an alias of one (resolveLinkKey()), as the fleet has it
    }
    const auto folders = args.positional();
    if (out.empty())
        throw UsageError("report needs --out FILE.pdf");
    if (folders.empty())
        throw UsageError("report needs at least one run folder");
    // Read every folder first: a bad one is reported before anything starts. The book names the
    // runs and their series as the window's does (a sweep's cells by their axes).
    dpu::ui::RunBook book;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f)) {
            QString why;
            if (book.openFolder(QString::fromStdString(dir), &why) == 0)
                throw Error(why.toStdString());
        }
    const std::vector<RunFolder> runs = book.reportRuns();
    if (!withFleet && !runs.empty()) { // the first run's plan's link and devices, as the window's form shows them
        reportDevices = std::max(1, runs.front().plan.fleet.devices);
        try {
            if (!reportLink)
                reportLink = slowestLinkOf(runs.front().plan.fleet.link);
        } catch (const LinkError&) { // read back from a checked plan: cannot happen; no times then
        }
    }
    if (withFleet) { // what the options leave out, the first run's plan says (its `fleet` keys)
        const Deployment deployment = deploymentOf(fleetGiven, runs.front().plan.fleet);
        fleetConfig = fleetConfigOf(deployment, 0, 0);
        realCatchUps = deployment.catchUpSizes == CatchUpSizing::Real;
        const FleetGroup& group = fleetConfig->groups.front();
        reportLink = atSlowestSpreadingFactor(group.link, group.sfMix); // as the window's form has it
        reportDevices = group.devices;
    }
    dpu::ui::ReportOptions options;
    options.link = reportLink;
    options.devices = reportDevices;
    options.budgetBytes = budget;
    if (fleetConfig) // simulated here, in core: the report writer only draws it
        options.fleet = reportFleetOf(book, runs, *fleetConfig, fleetRunSeed, realCatchUps);
    // The charts are Qt widgets: an application on the offscreen platform, for this command only.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char name[] = "dpu-cli";
    char* qtArgv[] = {name, nullptr};
    QApplication app(qtArgc, qtArgv);
    QString error;
    if (!dpu::ui::ReportWriter::write(book, options, QString::fromStdString(out), &error))
        throw Error(error.toStdString());
    std::printf("%s: report of %zu run(s)%s\n", out.c_str(), runs.size(),
                fleetConfig ? (" with a fleet page of " + std::to_string(options.fleet.series.size()) + " series").c_str() : "");
    return 0;
#endif
}

} // namespace dpu::cli
