// SPDX-License-Identifier: MIT
// dpu-cli frontier: the finished runs' frontier in real bundle bytes as a table, JSON, or the application's chart.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "dpu/Error.h"
#include "dpu/Frontier.h"
#include "dpu/RunFolder.h"
#include <cmath>
#include <cstdio>

#ifdef DPU_CLI_HAS_REPORT
#include "report/ReportWriter.h"
#include <QApplication>
#endif

namespace dpu::cli {
namespace {

std::string cell(double v, const char* format)
{
    if (std::isnan(v))
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void printGroup(const FrontierGroup& g)
{
    std::string runs;
    for (const std::string& id : g.runIds)
        runs += (runs.empty() ? "" : ", ") + id;
    std::printf("%s on %s, %d rounds, %zu seed(s); FU reference: %s\nruns: %s\n\n", g.plan.model.c_str(),
                nameOf(g.plan.dataset.kind).c_str(), g.plan.split.rounds, g.plan.seeds.size(),
                g.fuReference.empty() ? "none (no FU ran)" : g.fuReference.c_str(), runs.c_str());
    std::printf("%-22s %-8s %9s %7s %12s %14s %12s %10s %s\n", "family", "k", "accuracy", "to FU", "initial B",
                "B/update round", "B/run", "/FU bits", "runs");
    for (const FrontierFamily& f : g.families)
        for (const FrontierPoint& p : f.points)
            std::printf("%-22s %-8g %9s %7s %12s %14s %12s %10s %d%s\n", f.label.c_str(), p.k,
                        cell(100.0 * p.meanAccuracy, "%.2f %%").c_str(), cell(100.0 * p.accuracyToFu, "%+.2f").c_str(),
                        cell(p.initialDeploymentBytes, "%.0f").c_str(), cell(p.realBytesPerUpdateRound, "%.0f").c_str(),
                        cell(p.realBytesPerRun, "%.0f").c_str(),
                        cell(p.ratioToFu, "%.4g").c_str(), p.runs, p.measuredBytes ? "" : " (analytic bytes)");
}

} // namespace

int frontierCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv, numberOptionsOf("frontier"));
    const bool json = args.flag("--json");
    const std::string image = args.value("--image");
    const double budget = args.real("--budget", 0);
    const auto folders = args.positional();
    if (folders.empty())
        throw UsageError("frontier needs at least one run folder (or a folder of runs)");
    std::vector<RunFolder> runs;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            runs.push_back(loadRunFolder(dir));
    std::vector<FrontierRun> frontierRuns;
    for (const RunFolder& run : runs)
        frontierRuns.push_back({run.label(), run.plan, run.records, run.complete(), runCostModel(run)});
    const std::vector<FrontierGroup> groups = frontierGroups(frontierRuns);
    for (const RunFolder& run : runs)
        if (!run.complete())
            std::fprintf(stderr, "note: %s stopped early: not on the frontier\n", run.label().c_str());
    if (groups.empty())
        throw Error("no finished runs in " + folders.front() + (folders.size() > 1 ? " and the others" : "")
                    + ": the frontier needs finished runs");
    if (json) {
        std::fputs(frontierToJson(groups).c_str(), stdout);
    } else {
        for (size_t g = 0; g < groups.size(); ++g) {
            if (g > 0)
                std::printf("\n");
            printGroup(groups[g]);
        }
    }
    if (image.empty())
        return 0;
#ifndef DPU_CLI_HAS_REPORT
    std::fprintf(stderr, "dpu-cli frontier: --image needs a dpu-cli built with the desktop application (DPU_BUILD_GUI=ON)\n");
    return 1;
#else
    // The chart is a Qt widget: an application on the offscreen platform, for this command only.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char name[] = "dpu-cli";
    char* qtArgv[] = {name, nullptr};
    QApplication app(qtArgc, qtArgv);
    dpu::ui::ReportOptions options;
    options.budgetBytes = budget;
    QString error;
    if (!dpu::ui::ReportWriter::writeFrontierImage(runs, options, QString::fromStdString(image), &error))
        throw Error(error.toStdString());
    std::fprintf(stderr, "%s: frontier of the largest group\n", image.c_str());
    return 0;
#endif
}

} // namespace dpu::cli
