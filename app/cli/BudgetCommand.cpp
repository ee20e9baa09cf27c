// SPDX-License-Identifier: MIT
// dpu-cli budget: the budget planner's recommendation from run folders, headless (core's dpu/Recommend.h).
#include "ArgList.h"
#include "CliCommands.h"
#include "dpu/Links.h"
#include "dpu/Recommend.h"
#include "dpu/RunFolder.h"
#include <cmath>
#include <cstdio>
#include <string>

namespace dpu::cli {
namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// The option's value, NaN when absent; absent or > 0 (and finite), else a usage error.
double positiveNumber(ArgList& args, const std::string& name, const char* what)
{
    const double v = args.number(name, NAN);
    if (!std::isnan(v) && !(v > 0 && std::isfinite(v)))
        throw UsageError(name + ": expected " + what + " > 0, found " + num(v));
    return v;
}

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f %%", 100.0 * fraction);
    return buf;
}

std::string points(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f", 100.0 * fraction);
    return buf;
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, s < 1 ? "%.3f s" : "%.1f s", s);
    return buf;
}

/// The family keys' values as they would read in a plan file: bundle.values "q8".
std::string valuesText(const FamilyValues& values)
{
    std::string out;
    for (const auto& [key, value] : values)
        out += ", " + key + " " + value;
    return out;
}

void printText(const Recommendation& r, const Budget& budget, const std::string& budgetText, const LinkPreset* link,
               int rounds)
{
    std::printf("budget          %s\n", budgetText.c_str());
    if (r.found) {
        std::printf("recommendation  %s%s (%s)\n", r.family.c_str(),
                    r.strategy == "fu" ? "" : (", k = " + num(r.k)).c_str(),
                    r.measured ? "measured: finished runs' real bundle bytes"
                               : "estimate: calibrated cost model, no finished run fits");
        if (!std::isnan(r.expectedAccuracy))
            std::printf("expected        %s test accuracy%s\n", percent(r.expectedAccuracy).c_str(),
                        std::isnan(r.accuracyToFu) ? "" : (" (" + points(r.accuracyToFu) + " points to FU)").c_str());
        else
            std::printf("expected        unknown (no finished run of this family near k)\n");
        std::printf("bytes           %.0f B per round (%s), %.0f B per run of %d rounds (%s)\n", r.bytesPerRound,
                    humanBytes(r.bytesPerRound).c_str(), r.bytesPerRun, rounds, humanBytes(r.bytesPerRun).c_str());
        if (link)
            std::printf("link            %s per round per device on %s\n",
                        seconds(8.0 * r.bytesPerRound / link->bitsPerSecond).c_str(), link->name.c_str());
        std::printf("plan            strategies %s%s%s%s\n", r.strategy.c_str(),
                    r.strategy == "fu" ? "" : " (and fu to compare)", valuesText(r.values).c_str(),
                    r.strategy == "fu" ? "" : (", k " + num(r.k)).c_str());
    } else {
        std::printf("recommendation  none\n");
    }
    std::printf("why             %s\n", r.why.c_str());
    if (r.fits.empty())
        return;
    const char* scope = budget.scope == Budget::Scope::PerRound ? "round" : "run";
    std::printf("\n%-24s %-5s %-10s %-10s %-14s %s\n", "family", "fits", "k", "expected", scope == std::string("round") ? "B/round" : "B/run",
                "cheapest run");
    for (const FamilyFit& f : r.fits) {
        char k[32] = "-", acc[32] = "-", bytes[32] = "-";
        if (f.fits) {
            std::snprintf(k, sizeof k, "%.4g", f.k);
            std::snprintf(acc, sizeof acc, "%.2f %%", 100.0 * f.accuracy);
            std::snprintf(bytes, sizeof bytes, "%.0f B", f.bytes);
        }
        char where[48] = ""; // FU ignores k
        if (f.family.substr(0, f.family.find(' ')) != "fu")
            std::snprintf(where, sizeof where, " at k = %.4g", f.cheapestK);
        std::printf("%-24s %-5s %-10s %-10s %-14s %.0f B/%s%s\n", f.family.c_str(), f.fits ? "yes" : "no", k, acc, bytes,
                    f.cheapestBytes, scope, where);
    }
}

} // namespace

int budgetCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv);
    const double perRound = positiveNumber(args, "--bytes-per-round", "bytes");
    const double total = positiveNumber(args, "--bytes-total", "bytes");
    const double window = positiveNumber(args, "--window", "seconds");
    const std::string linkKey = args.value("--link");
    const bool json = args.flag("--json");
    const auto folders = args.positional();
    if (folders.empty())
        throw UsageError("budget needs at least one run folder (or a folder of runs)");
    const LinkPreset* link = nullptr;
    if (!linkKey.empty() && !(link = findLinkPreset(linkKey)))
        throw UsageError("--link: expected " + linkPresetKeys() + ", found '" + linkKey + "'");
    if (!std::isnan(window) && !link)
        throw UsageError("--window needs --link NAME (the rate that moves the bytes)");
    const int given = !std::isnan(perRound) + !std::isnan(total) + !std::isnan(window);
    if (given != 1)
        throw UsageError(given == 0 ? "budget needs --bytes-per-round N, --bytes-total N or --link NAME --window SECONDS"
                                    : "give one budget: --bytes-per-round, --bytes-total or --window, not several");

    Budget budget;
    std::string budgetText;
    char buf[160];
    if (!std::isnan(total)) {
        budget = {Budget::Scope::PerRun, total};
        std::snprintf(buf, sizeof buf, "%.0f B (%s) per run per device, all rounds", total, humanBytes(total).c_str());
    } else {
        budget = {Budget::Scope::PerRound, std::isnan(window) ? perRound : link->bitsPerSecond * window / 8.0};
        std::snprintf(buf, sizeof buf, "%.0f B (%s) per round per device", budget.bytes, humanBytes(budget.bytes).c_str());
    }
    budgetText = buf;
    if (!std::isnan(window))
        budgetText += " (" + link->name + " for " + seconds(window) + ")";

    // Read every folder first: a bad one is reported before anything is answered.
    std::vector<RunFolder> folderRuns;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            folderRuns.push_back(loadRunFolder(dir));
    std::vector<FrontierRun> runs;
    for (const RunFolder& run : folderRuns)
        runs.push_back({run.label(), run.plan, run.records, run.complete(), {run.status.partialWeights, run.status.denseWeights}});
    const std::vector<FrontierGroup> groups = frontierGroups(runs);
    // The largest group answers (as the report draws it); the others are named with the reason.
    int shown = -1;
    for (size_t g = 0; g < groups.size(); ++g)
        if (shown < 0 || groups[g].runIds.size() > groups[static_cast<size_t>(shown)].runIds.size())
            shown = static_cast<int>(g);
    const FrontierGroup* group = shown < 0 ? nullptr : &groups[static_cast<size_t>(shown)];
    const Plan reference = group ? group->plan : folderRuns.front().plan;
    CostModel cost;
    for (const FrontierRun& run : runs)
        if (cost.partialWeights <= 0 && run.cost.partialWeights > 0
            && (!group || frontierGroupOf(groups, run.plan) == shown))
            cost = run.cost;

    for (const RunFolder& run : folderRuns)
        if (!run.complete())
            std::fprintf(stderr, "note: %s stopped early: not used (its means would favour the early rounds)\n",
                         run.label().c_str());
    for (size_t g = 0; g < groups.size(); ++g) {
        if (static_cast<int>(g) == shown)
            continue;
        const auto why = planDifferences(groups[g].plan, group->plan, frontierFreeKeys());
        std::string names;
        for (const std::string& id : groups[g].runIds)
            names += (names.empty() ? "" : ", ") + id;
        std::fprintf(stderr, "note: left out %s: plan differs in %s\n", names.c_str(),
                     why.empty() ? "(nothing)" : why.front().c_str());
    }

    const Recommendation r = recommend(group, reference, cost, budget);
    if (json)
        std::fputs(recommendationToJson(r, budget).c_str(), stdout);
    else
        printText(r, budget, budgetText, link, reference.split.rounds);
    return r.found ? 0 : 3;
}

} // namespace dpu::cli
