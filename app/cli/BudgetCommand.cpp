// SPDX-License-Identifier: MIT
// dpu-cli budget: the budget planner's recommendation from run folders, headless (core's dpu/Recommend.h).
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "DeploymentOptions.h"
#include "dpu/DeploymentLink.h"
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "dpu/Recommend.h"
#include "dpu/RunFolder.h"
#include "dpu/StrategyId.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace dpu::cli {
namespace {

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

/// 42 s, 3.5 min, 2.1 h, 1.5 d.
std::string duration(double s)
{
    char buf[32];
    if (s < 120)
        std::snprintf(buf, sizeof buf, s < 1 ? "%.3f s" : "%.1f s", s);
    else if (s < 7200)
        std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    else if (s < 172800)
        std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    else
        std::snprintf(buf, sizeof buf, "%.1f d", s / 86400);
    return buf;
}

/// 12.3 mJ, 4.56 J, 1.23 kJ.
std::string joules(double j)
{
    char buf[32];
    if (j < 1)
        std::snprintf(buf, sizeof buf, "%.1f mJ", j * 1e3);
    else if (j < 1000)
        std::snprintf(buf, sizeof buf, "%.2f J", j);
    else
        std::snprintf(buf, sizeof buf, "%.2f kJ", j / 1e3);
    return buf;
}

/// A link of dpu/LinkModel.h with what one round goes to: devices and the completion target.
struct ModelLink {
    Link link;
    int devices = 1;
    RoundTarget target;
};

/// Whether `key` names a link model: a region, a preset of dpu/LinkModel.h or an alias of one.
bool isModelKey(const std::string& key)
{
    return deploymentLinkChoice(key).has_value();
}

/// The keys --link takes: the regions, then the presets.
std::string modelKeys()
{
    std::string out;
    for (const DeploymentLinkChoice& choice : deploymentLinkChoices())
        if (choice.region)
            out += (out.empty() ? "" : ", ") + choice.key;
    for (const std::string& key : linkPresetKeysList())
        out += ", " + key;
    return out;
}

/// The link, SF, duty cycle, loss, delivery and devices in words.
std::string describeLink(const ModelLink& m)
{
    const Link& l = m.link;
    std::string text = l.name;
    if (l.dutyCycle < 1)
        text += ", duty cycle " + num(l.dutyCycle * 100) + " %";
    text += ", frame loss " + num(l.frameLoss * 100) + " %";
    if (l.frameLossSpread > 0)
        text += " +- " + num(l.frameLossSpread * 100) + " % over the devices";
    if (l.listening == LinkListening::PingSlots)
        text += ", Class B (a ping slot every " + num(l.pingSlotPeriodSeconds) + " s)";
    if (!l.leaveWhenDecoded)
        text += ", devices listen to the end";
    text += l.delivery == LinkDelivery::Multicast ? ", multicast to " : ", unicast to ";
    text += std::to_string(m.devices) + (m.devices == 1 ? " device" : " devices");
    return text;
}

/// 4.7 kbit/s, 287 kbit/s, 1.2 Mbit/s.
std::string bitRate(double bitsPerSecond)
{
    char buf[32];
    if (bitsPerSecond < 1e6)
        std::snprintf(buf, sizeof buf, "%.3g kbit/s", bitsPerSecond / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g Mbit/s", bitsPerSecond / 1e6);
    return buf;
}

void printLinkRound(const ModelLink& m, const LinkRound& lr)
{
    std::printf("link            %s\n", describeLink(m).c_str());
    std::printf("rate            %s of data while sending (no duty cycle, set-up or loss)\n",
                bitRate(applicationBitsPerSecond(m.link)).c_str());
    std::printf("airtime         %s per round (%lld frames: %lld fragments + %lld redundancy, %.2f %% per device)\n",
                duration(lr.airtime).c_str(), static_cast<long long>(lr.frames), static_cast<long long>(lr.fragments),
                static_cast<long long>(lr.redundancy), 100.0 * lr.deviceProbability);
    std::printf("wall time       %s per round\n", duration(lr.wallTime).c_str());
    std::printf("energy          %s per device per round (%s of a %g mAh battery at %g V)\n", joules(lr.energyPerDevice).c_str(),
                percent(lr.batteryShare).c_str(), m.link.batteryMilliampHours, m.link.batteryVolts);
    if (m.link.frameLossSpread > 0) // planned for the mean loss: who is left behind
        std::printf("completion      %.2f %% of the devices expected to complete (planned for the mean loss)\n", 100.0 * lr.completionShare);
}

nlohmann::json linkRoundJson(const ModelLink& m, const LinkRound& lr)
{
    return {{"link", m.link.key}, {"link_name", m.link.name}, {"devices", m.devices},
            {"multicast", m.link.delivery == LinkDelivery::Multicast}, {"duty_cycle", m.link.dutyCycle},
            {"frame_loss", m.link.frameLoss}, {"completion_probability", m.target.probability}, {"every_device", m.target.everyDevice}, {"bytes", lr.bytes},
            {"fragments", lr.fragments}, {"redundancy", lr.redundancy}, {"frames", lr.frames}, {"bytes_on_air", lr.bytesOnAir},
            {"device_probability", lr.deviceProbability}, {"airtime_s", lr.airtime}, {"wall_time_s", lr.wallTime},
            {"energy_per_device_j", lr.energyPerDevice}, {"battery_share", lr.batteryShare},
            {"listen_s", lr.listenSeconds}, {"completion_share", lr.completionShare},
            {"application_bits_per_second", applicationBitsPerSecond(m.link)}};
}

void printText(const Recommendation& r, const Budget& budget, const std::string& budgetText,
               const std::optional<ModelLink>& model, int rounds)
{
    std::printf("budget          %s\n", budgetText.c_str());
    if (r.found) {
        const bool baseline = isBaseline(r.strategy); // FU has no k, and is its own reference
        std::printf("recommendation  %s%s (%s)\n", r.family.c_str(),
                    baseline ? "" : (", k = " + num(r.k)).c_str(),
                    r.measured ? "measured: finished runs' real bundle bytes"
                               : "estimate: calibrated cost model, no finished run fits");
        if (!std::isnan(r.expectedAccuracy))
            std::printf("expected        %s test accuracy%s\n", percent(r.expectedAccuracy).c_str(),
                        std::isnan(r.accuracyToFu) ? "" : (" (" + points(r.accuracyToFu) + " points to FU)").c_str());
        else
            std::printf("expected        unknown (no finished run of this family near k)\n");
        std::printf("bytes           %.0f B per round (%s), %.0f B per run of %d rounds (%s)\n", r.bytesPerRound,
                    humanBytes(r.bytesPerRound).c_str(), r.bytesPerRun, rounds, humanBytes(r.bytesPerRun).c_str());
        if (model)
            printLinkRound(*model, linkRound(model->link, std::llround(r.bytesPerRound), model->devices, model->target));
        std::printf("plan            strategies %s%s%s%s\n", r.strategy.c_str(),
                    baseline ? "" : (" (and " + baselineStrategyName() + " to compare)").c_str(),
                    valuesText(r.values).c_str(), baseline ? "" : (", k " + num(r.k)).c_str());
    } else {
        std::printf("recommendation  none\n");
    }
    std::printf("why             %s\n", r.why.c_str());
    if (r.fits.empty())
        return;
    const char* scope = budget.scope == Budget::Scope::PerRound ? "round" : "run";
    std::printf("\n%-24s %-5s %-10s %-10s %-14s %s\n", "family", "fits", "k", "expected", scope == std::string("round") ? "B/update round" : "B/run",
                "cheapest run");
    for (const FamilyFit& f : r.fits) {
        char k[32] = "-", acc[32] = "-", bytes[32] = "-";
        if (f.fits) {
            std::snprintf(k, sizeof k, "%.4g", f.k);
            std::snprintf(acc, sizeof acc, "%.2f %%", 100.0 * f.accuracy);
            std::snprintf(bytes, sizeof bytes, "%.0f B", f.bytes);
        }
        char where[48] = ""; // FU ignores k
        if (!isBaseline(f.family.substr(0, f.family.find(' ')))) // a family's label starts with its strategy
            std::snprintf(where, sizeof where, " at k = %.4g", f.cheapestK);
        char cheapest[96] = "- (no update round)";
        if (!std::isnan(f.cheapestBytes))
            std::snprintf(cheapest, sizeof cheapest, "%.0f B/%s%s", f.cheapestBytes, scope == std::string("round") ? "update round" : scope, where);
        std::printf("%-24s %-5s %-10s %-10s %-14s %s\n", f.family.c_str(), f.fits ? "yes" : "no", k, acc, bytes, cheapest);
    }
}

/// --link KEY with the link model's options: a region or preset (or an alias of one,
/// resolveLinkKey()) with SF, duty cycle, loss, delivery, devices and target. Throws UsageError
/// naming the option that does not fit.
std::optional<ModelLink> readModelLink(ArgList& args)
{
    const LinkArgs given = readLinkArgs(args);
    const std::optional<int64_t> devices = args.integer("--devices");
    const std::optional<double> target = args.real("--target");
    const bool everyDevice = args.flag("--every-device");
    if (everyDevice && !target)
        throw UsageError("--every-device needs --target Q: the probability that every device completes");
    const std::string& key = given.settings.link;
    if (key.empty()) {
        if (given.anyModelOption || devices || target)
            throw UsageError(std::string(given.anyModelOption ? given.firstModelOption : devices ? "--devices" : "--target")
                             + " needs --link with a link model (" + modelKeys() + ")");
        return std::nullopt;
    }
    if (!isModelKey(key))
        throw UsageError("--link: expected one of " + modelKeys() + " (or " + linkKeyAliasesText() + "), found '" + key + "'");
    if (!given.settings.sfMix.empty())
        throw UsageError("--sf-mix: budget answers for one spreading factor; give --sf N (for a multicast, the mix's slowest)");
    ModelLink m;
    m.link = linkOf(given.settings); // an SF or sub-band the region lacks: LinkError naming the field
    validateLink(m.link);
    m.devices = static_cast<int>(devices.value_or(1)); // at most 10^8 (CommandNumbers.cpp)
    if (target)
        m.target.probability = *target;
    m.target.everyDevice = everyDevice;
    return m;
}

} // namespace

namespace {

/// The budget the options ask for, and its words for the answer: bytes per round or per run, or
/// what a link moves in a time window or for an energy (a link model inverts its round).
Budget budgetFromArgs(double perRound, double total, double window, double energy, const std::optional<ModelLink>& model,
                      std::string& budgetText)
{
    Budget budget;
    char buf[160];
    if (!std::isnan(total)) {
        budget = {Budget::Scope::PerRun, total};
        std::snprintf(buf, sizeof buf, "%.0f B (%s) per run per device, all rounds", total, humanBytes(total).c_str());
    } else {
        // A link model inverts its round: the largest bundle whose wall time or energy fits.
        const double bytes = !std::isnan(perRound) ? perRound
                             : !std::isnan(window)
                                 ? static_cast<double>(largestBytesForWallTime(model->link, window, model->devices, model->target))
                                 : static_cast<double>(largestBytesForEnergy(model->link, energy, model->devices, model->target));
        if (!(bytes > 0))
            throw Error(std::string(!std::isnan(window) ? "--window: " : "--energy: ") + "not even one byte reaches "
                        + describeLink(*model) + (!std::isnan(window) ? " in " + seconds(window) : " for " + num(energy) + " J")
                        + " (the session's fixed time or energy exceeds it)");
        budget = {Budget::Scope::PerRound, bytes};
        std::snprintf(buf, sizeof buf, "%.0f B (%s) per round per device", budget.bytes, humanBytes(budget.bytes).c_str());
    }
    budgetText = buf;
    if (!std::isnan(window))
        budgetText += " (" + describeLink(*model) + " for " + seconds(window) + ")";
    if (!std::isnan(energy))
        budgetText += " (" + describeLink(*model) + " for " + num(energy) + " J per device)";
    return budget;
}

/// Says on stderr which runs the answer leaves out and why.
void printLeftOut(const std::vector<RunFolder>& folderRuns, const std::vector<FrontierGroup>& groups, int shown)
{
    const FrontierGroup* group = shown < 0 ? nullptr : &groups[static_cast<size_t>(shown)];
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
}

} // namespace

int budgetCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv, numberOptionsOf("budget"));
    // NaN: not given (a value given is in its range, CommandNumbers.cpp, or refused by name).
    const double perRound = args.real("--bytes-per-round", NAN);
    const double total = args.real("--bytes-total", NAN);
    const double window = args.real("--window", NAN);
    const double energy = args.real("--energy", NAN);
    const std::optional<ModelLink> model = readModelLink(args);
    const bool json = args.flag("--json");
    const auto folders = args.positional();
    if (folders.empty())
        throw UsageError("budget needs at least one run folder (or a folder of runs)");
    if (!std::isnan(window) && !model)
        throw UsageError("--window needs --link with a link model (" + modelKeys() + ")");
    if (!std::isnan(energy) && !model)
        throw UsageError("--energy needs --link with a link model (" + modelKeys() + ")");
    const int given = !std::isnan(perRound) + !std::isnan(total) + !std::isnan(window) + !std::isnan(energy);
    if (given != 1)
        throw UsageError(given == 0 ? "budget needs --bytes-per-round N, --bytes-total N, --link KEY --window SECONDS"
                                      " or --link KEY --energy JOULES"
                                    : "give one budget: --bytes-per-round, --bytes-total, --window or --energy, not several");

    std::string budgetText;
    const Budget budget = budgetFromArgs(perRound, total, window, energy, model, budgetText);

    // Read every folder first: a bad one is reported before anything is answered.
    std::vector<RunFolder> folderRuns;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            folderRuns.push_back(loadRunFolder(dir));
    std::vector<FrontierRun> runs;
    for (const RunFolder& run : folderRuns)
        runs.push_back({run.label(), run.plan, run.records, run.complete(), runCostModel(run)});
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

    printLeftOut(folderRuns, groups, shown);

    const Recommendation r = recommend(group, reference, cost, budget);
    if (json && model && r.found) {
        // The link model's round of the recommended bytes, beside the recommendation.
        nlohmann::json j = nlohmann::json::parse(recommendationToJson(r, budget));
        j["link_round"] = linkRoundJson(*model, linkRound(model->link, std::llround(r.bytesPerRound), model->devices, model->target));
        std::fputs((j.dump(2) + "\n").c_str(), stdout);
    } else if (json) {
        std::fputs(recommendationToJson(r, budget).c_str(), stdout);
    } else {
        printText(r, budget, budgetText, model, reference.split.rounds);
    }
    return r.found ? 0 : 3;
}

} // namespace dpu::cli
