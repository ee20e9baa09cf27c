// SPDX-License-Identifier: MIT
// dpu-cli report: the desktop application's PDF report, made headless on Qt's offscreen platform; --fleet and --fleet-plan add their pages.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include <cstdio>
#include <cstdlib>

#ifdef DPU_CLI_HAS_REPORT
#include "DeploymentOptions.h"
#include "FleetPlanArgs.h"
#include "ReportFleetPlanOf.h"
#include "RunsOnFleet.h"
#include "dpu/DeploymentModel.h"
#include "dpu/Sweep.h" // kCellStoppedExit: a stopped search exits as a stopped run
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

/// The fleet's options belong to --fleet or --fleet-plan, the search's to --fleet-plan: without
/// them they are refused by name, not as unknown.
void refuseFleetOptionsWithoutFleet(const std::vector<std::string>& argv, bool withFleet, bool withFleetPlan)
{
    std::vector<std::string> options{"--multicast", "--unicast"};
    for (const PlanField& f : planFields()) // --link alone names the per-round times' link
        if (f.path.rfind("fleet.", 0) == 0 && !f.option.empty() && f.option != "--link")
            options.push_back(f.option);
    for (const std::string& name : options)
        if (!withFleet && !withFleetPlan && std::find(argv.begin(), argv.end(), name) != argv.end())
            throw UsageError(name + " needs --fleet or --fleet-plan (their pages take dpu-cli fleet's options)");
    for (const char* name : {"--periods", "--keep", "--no-estimates", "--exhaustive"})
        if (!withFleetPlan && std::find(argv.begin(), argv.end(), name) != argv.end())
            throw UsageError(std::string(name) + " needs --fleet-plan (the fleet plan page takes dpu-cli fleet plan's options)");
}

/// What the fleet pages ask, read once: with --fleet and --fleet-plan both, dpu-cli fleet's
/// options (and --link with them, the fleet's link model) are one set for both pages.
struct FleetPages {
    bool fleet = false;      ///< --fleet: the fleet page
    bool plan = false;       ///< --fleet-plan: the fleet plan page
    FleetPlanArgs given;     ///< the options; `given.given` is the deployment's (also --fleet's)
    std::optional<int64_t> seed; ///< --seed; nullopt: each run's first
    bool any() const { return fleet || plan; }
};

FleetPages readFleetPages(ArgList& args, const std::vector<std::string>& argv)
{
    FleetPages p;
    p.fleet = args.flag("--fleet");
    p.plan = args.flag("--fleet-plan");
    refuseFleetOptionsWithoutFleet(argv, p.fleet, p.plan);
    if (p.plan) {
        p.given = readFleetPlanArgs(args);
        if (p.given.input.seed)
            p.seed = static_cast<int64_t>(*p.given.input.seed);
    } else if (p.fleet) {
        p.given.given = readDeploymentOptions(args, OptionScope::Deployment);
        p.seed = args.integer("--seed");
    }
    return p;
}

/// Without the fleet pages, --link names the preset the per-round times are given on.
std::optional<Link> readTimesLink(ArgList& args)
{
    const std::string link = args.value("--link", "");
    if (link.empty())
        return std::nullopt;
    const std::vector<std::string> keys = linkPresetKeysList();
    if (std::find(keys.begin(), keys.end(), resolveLinkKey(link)) == keys.end()) {
        std::string known;
        for (const std::string& key : keys)
            known += (known.empty() ? "" : ", ") + key;
        throw UsageError("--link: expected one of " + known + " (or " + linkKeyAliasesText() + "), found '" + link + "'");
    }
    return linkPreset(link); // a preset or an alias of one (resolveLinkKey()), as the fleet has it
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

/// The report's per-round times' link and devices, and with --fleet the fleet page's
/// simulation, from the fleet options over the first run's plan's `fleet` keys, or without
/// them from the first run's plan (as the window's form shows them) or `timesLink`.
void fillLinkAndFleet(const FleetPages& pages, const dpu::ui::RunBook& book, const std::vector<RunFolder>& runs,
                      std::optional<Link> timesLink, dpu::ui::ReportOptions& options)
{
    options.link = timesLink;
    if (!pages.any()) {
        if (runs.empty())
            return;
        options.devices = std::max(1, runs.front().plan.fleet.devices);
        try {
            if (!options.link)
                options.link = slowestLinkOf(runs.front().plan.fleet.link);
        } catch (const LinkError&) { // read back from a checked plan: cannot happen; no times then
        }
        return;
    }
    const Deployment deployment = deploymentOf(pages.given.given, runs.front().plan.fleet);
    const FleetConfig config = fleetConfigOf(deployment, 0, 0);
    const FleetGroup& group = config.groups.front();
    options.link = atSlowestSpreadingFactor(group.link, group.sfMix); // as the window's form has it
    options.devices = group.devices;
    if (pages.fleet) // simulated here, in core: the report writer only draws it
        options.fleet = reportFleetOf(book, runs, config, pages.seed, deployment.catchUpSizes == CatchUpSizing::Real);
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
    const FleetPages pages = readFleetPages(args, argv);
    const std::optional<Link> timesLink = pages.any() ? std::nullopt : readTimesLink(args);
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
    dpu::ui::ReportOptions options;
    options.budgetBytes = budget;
    fillLinkAndFleet(pages, book, runs, timesLink, options);
    if (pages.plan) { // planned here, in core, from the folders as dpu-cli fleet plan reads them
        std::optional<dpu::ui::ReportFleetPlan> planned = reportFleetPlanOf(pages.given, fleetPlanRunsOf(folders));
        if (!planned) {
            std::fprintf(stderr, "report: the fleet plan was stopped: nothing written\n");
            return kCellStoppedExit;
        }
        options.fleetPlan = std::move(*planned);
    }
    // The charts are Qt widgets: an application on the offscreen platform, for this command only.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char name[] = "dpu-cli";
    char* qtArgv[] = {name, nullptr};
    QApplication app(qtArgc, qtArgv);
    QString error;
    if (!dpu::ui::ReportWriter::write(book, options, QString::fromStdString(out), &error))
        throw Error(error.toStdString());
    std::string added;
    if (pages.fleet)
        added += " with a fleet page of " + std::to_string(options.fleet.series.size()) + " series";
    if (pages.plan)
        added += std::string(pages.fleet ? " and" : " with") + " a fleet plan page of "
                 + std::to_string(options.fleetPlan.plan.candidates.size()) + " candidates";
    std::printf("%s: report of %zu run(s)%s\n", out.c_str(), runs.size(), added.c_str());
    return 0;
#endif
}

} // namespace dpu::cli
