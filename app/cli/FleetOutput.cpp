// SPDX-License-Identifier: MIT
// dpu-cli fleet's output: the fleet in words and each strategy's figures (core's fleetMetrics), or JSON.
#include "FleetOutput.h"
#include "dpu/Recommend.h"
#include <nlohmann/json.hpp>
#include <cmath>
#include <cstdio>

namespace dpu::cli {
namespace {

std::string format(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string duration(double s)
{
    if (std::isnan(s))
        return "not reached";
    if (s < 120)
        return format("%.0f s", s);
    if (s < 7200)
        return format("%.1f min", s / 60);
    if (s < 172800)
        return format("%.1f h", s / 3600);
    return format("%.1f d", s / 86400);
}

/// As the window and the report write energy (ui/charts/Units: "4.2 µJ", "12.5 mJ", "3.20 J", "1.50 kJ").
std::string joules(double j)
{
    if (std::isnan(j))
        return "-";
    if (j < 1e-3)
        return format("%.1f µJ", j * 1e6);
    if (j < 1)
        return format("%.1f mJ", j * 1e3);
    if (j < 1000)
        return format("%.2f J", j);
    return j < 1e6 ? format("%.2f kJ", j / 1e3) : format("%.2f MJ", j / 1e6);
}

/// "13987 B (14.0 KB)"; "-" for NaN (no update round).
std::string bytes(double b)
{
    if (std::isnan(b))
        return "-";
    const std::string exact = format("%.0f B", b);
    return b < 1e3 ? exact : exact + " (" + humanBytes(b) + ")";
}

std::string describeGroup(const FleetGroup& g, bool multicastPerSf)
{
    std::string text = std::to_string(g.devices) + " devices, " + g.link.name;
    if (!g.sfMix.empty()) {
        text += ", SF mix";
        for (const auto& [sf, n] : spreadingFactorCounts(g.devices, g.sfMix))
            text += " SF" + std::to_string(sf) + ":" + std::to_string(n);
        if (g.link.delivery == LinkDelivery::Multicast)
            text += multicastPerSf ? " (a multicast per SF)" : " (multicast at the slowest)";
    }
    if (g.link.dutyCycle < 1)
        text += ", duty cycle " + format("%g %%", g.link.dutyCycle * 100);
    text += ", frame loss " + format("%g %%", g.link.frameLoss * 100);
    if (g.link.frameLossSpread > 0)
        text += format(" +- %g %% over the devices", g.link.frameLossSpread * 100);
    text += g.link.delivery == LinkDelivery::Multicast ? ", multicast" : ", unicast";
    if (g.link.listening == LinkListening::PingSlots)
        text += format(" in Class B (a ping slot every %g s)", g.link.pingSlotPeriodSeconds);
    if (!g.link.leaveWhenDecoded)
        text += ", devices listen to each session's end";
    text += g.trace ? ", availability from a trace of " + std::to_string(g.trace->devices()) + " devices"
                    : ", availability " + format("%g", g.availability) + " per round";
    if (g.cpu.clockHz > 0)
        text += ", " + g.cpu.name + " at " + format("%g MHz", g.cpu.clockHz / 1e6) + format(", %g cycles per instruction", g.cpu.cyclesPerInstruction)
                + format(", %g mA", g.cpu.activeAmps * 1e3) + format(" at %g V", g.cpu.volts);
    return text;
}

void printStrategy(const FleetResult& r, const FleetMetrics& m, bool uploads)
{
    const std::string cadence = ", at one round every " + cadenceText(m.roundPeriodSeconds);
    std::printf("\n%s: %zu versions (the initial deployment and %d update rounds) over %d rounds of the run\n", r.strategy.c_str(),
                r.timeToShare.size(), m.updateRounds, m.runRounds);
    const auto line = [](const char* name, const std::string& value) { std::printf("  %-33s %s\n", name, value.c_str()); };
    line("initial deployment", bytes(static_cast<double>(m.initialDeploymentBytes))
                                   + (m.initialDeploymentBytes > 0 ? ", " + duration(m.initialDeploymentAirtime) + " on air, "
                                                                         + joules(m.initialDeploymentEnergy) + " per device"
                                                                   : std::string()));
    line("bytes per update round", bytes(m.bytesPerUpdateRound) + " per device (the update bundle)");
    line("airtime per update round", (std::isnan(m.airtimePerUpdateRound) ? "-" : duration(m.airtimePerUpdateRound)) + ", all transmitters");
    line("energy per update round", joules(m.energyPerUpdateRound) + " per device");
    line("energy per year", joules(m.energyPerYear) + " per device" + cadence);
    line("battery per year", format("%.2f %%", m.batteryPerYear * 100) + cadence);
    const auto& t = r.latestTimeToShare;
    line("last version to 50 / 90 / 99 %", duration(t[0]) + " / " + duration(t[1]) + " / " + duration(t[2]));
    line("fleet accuracy", format("%.2f %%", m.meanFleetAccuracy * 100) + format(" (server %.2f %%), mean over the run's rounds",
                                                                                m.meanServerAccuracy * 100));
    line("downloads", bytes(m.downloadBytesPerDevice) + " per device over the run's rounds, catch-ups included");
    if (uploads)
        line("uploads", bytes(m.uploadBytesPerRound) + " per device per round, " + joules(m.uploadEnergyPerYear) + " per device per year");
    const std::string drained = std::to_string(m.catchUpRounds) + (m.catchUpRounds == 1 ? " round" : " rounds");
    line("catch-up after the last release",
         m.catchUpRounds == 0                          ? std::string("none simulated (--drain R)")
         : m.catchUpEnergy == 0 && m.catchUpBytes == 0 ? drained + ": nothing to send"
                                                       : drained + ": " + joules(m.catchUpEnergy) + ", " + bytes(m.catchUpBytes) + " per device");
}

} // namespace

void printFleetResults(const FleetOfRuns& fleet, bool rounds)
{
    const FleetConfig& config = fleet.config;
    const FleetPolicy& p = config.policy;
    for (const FleetGroup& g : config.groups)
        std::printf("fleet     %s\n", describeGroup(g, p.multicastPerSpreadingFactor).c_str());
    std::printf("policy    catch-up %s (%s first), %s, %d repair session%s, %g %% completion per device, a round every %s%s\n",
                p.catchUp == CatchUpDelivery::Unicast ? "unicast" : "multicast per version",
                p.order == CatchUpOrder::MostStaleFirst ? "most stale" : "smallest",
                p.maxStaleness > 0 ? ("full model beyond " + std::to_string(p.maxStaleness) + " versions behind").c_str()
                                   : "never the full model",
                p.repairSessions, p.repairSessions == 1 ? "" : "s", p.target.probability * 100,
                cadenceText(config.roundPeriodSeconds).c_str(),
                config.drainRounds > 0 ? (", " + std::to_string(config.drainRounds) + " rounds after the last").c_str() : "");
    std::printf("figures   %s\n", fleetFiguresText(config.roundPeriodSeconds).c_str());
    for (size_t i = 0; i < fleet.results.size(); ++i)
        printStrategy(fleet.results[i], fleet.metrics[i], config.sampleBytes > 0);
    if (!rounds)
        return;
    for (const FleetResult& r : fleet.results) {
        std::printf("\n%s\n%5s %6s %8s %9s %9s %10s %10s %11s %11s %8s %6s %8s\n", r.strategy.c_str(), "round", "latest",
                    "on it", "fleet", "server", "airtime", "wall", "J mean", "J max", "sessions", "served", "deferred");
        for (size_t i = 0; i < r.rounds.size(); ++i) {
            const FleetRound& x = r.rounds[i];
            std::printf("%5d %6d %7.1f%% %8.2f%% %8.2f%% %10s %10s %11s %11s %8d %6d %8d%s\n", x.round, x.latestVersion,
                        100 * x.versionShare[static_cast<size_t>(x.latestVersion)], 100 * x.fleetAccuracy, 100 * x.serverAccuracy,
                        duration(x.airtime).c_str(), duration(x.wallTime).c_str(), joules(x.energyMean).c_str(),
                        joules(x.energyMax).c_str(), x.sessions, x.served, x.deferred,
                        static_cast<int>(i) >= r.runRounds ? "  catch-up" : "");
        }
    }
}

namespace {

nlohmann::json groupsJson(const FleetConfig& config)
{
    nlohmann::json groups = nlohmann::json::array();
    for (const FleetGroup& g : config.groups) {
        nlohmann::json mix = nlohmann::json::object();
        for (const auto& [sf, n] : spreadingFactorCounts(g.devices, g.sfMix))
            mix["sf" + std::to_string(sf)] = n;
        nlohmann::json group{{"devices", g.devices}, {"link", g.link.key}, {"link_name", g.link.name}, {"sf_counts", mix},
                             {"duty_cycle", g.link.dutyCycle}, {"frame_loss", g.link.frameLoss},
                             {"frame_loss_spread", g.link.frameLossSpread},
                             {"device_class", g.link.listening == LinkListening::PingSlots      ? "b"
                                              : g.link.listening == LinkListening::WholeSession ? "c"
                                                                                                : "a"},
                             {"ping_period_s", g.link.pingSlotPeriodSeconds}, {"leave_when_decoded", g.link.leaveWhenDecoded},
                             {"multicast", g.link.delivery == LinkDelivery::Multicast},
                             {"availability", g.trace ? nlohmann::json("trace") : nlohmann::json(g.availability)}};
        if (g.cpu.clockHz > 0) // only with --cpu: the output without it stays as it was
            group["cpu"] = {{"name", g.cpu.name}, {"clock_hz", g.cpu.clockHz}, {"cycles_per_instruction", g.cpu.cyclesPerInstruction},
                            {"active_amps", g.cpu.activeAmps}, {"volts", g.cpu.volts}};
        groups.push_back(group);
    }
    return groups;
}

nlohmann::json roundsJson(const FleetResult& r)
{
    nlohmann::json rounds = nlohmann::json::array();
    for (size_t i = 0; i < r.rounds.size(); ++i) {
        const FleetRound& x = r.rounds[i];
        rounds.push_back({{"round", x.round}, {"catch_up", static_cast<int>(i) >= r.runRounds}, {"start_s", x.startSeconds},
                          {"latest_version", x.latestVersion}, {"version_share", x.versionShare}, {"fleet_accuracy", x.fleetAccuracy},
                          {"server_accuracy", x.serverAccuracy}, {"airtime_s", x.airtime}, {"wall_time_s", x.wallTime},
                          {"energy_mean_j", x.energyMean}, {"energy_max_j", x.energyMax},
                          {"apply_energy_mean_j", x.applyEnergyMean}, {"apply_seconds_max", x.applySecondsMax},
                          {"bundle_bytes", x.bundleBytes},
                          {"bytes_on_air", x.bytesOnAir}, {"download_bytes", x.downloadBytes}, {"sessions", x.sessions},
                          {"available", x.available}, {"served", x.served}, {"completed", x.completed},
                          {"deferred", x.deferred}, {"full_models", x.fullModels},
                          {"upload_bytes_per_node", x.uploadBytesPerNode}, {"upload_airtime_per_node_s", x.uploadAirtimePerNode},
                          {"upload_energy_per_node_j", x.uploadEnergyPerNode}});
    }
    return rounds;
}

/// NaN (no update round) as null.
nlohmann::json numberOrNull(double v)
{
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

nlohmann::json metricsJson(const FleetMetrics& m)
{
    return {{"initial_deployment_bytes", m.initialDeploymentBytes},
            {"initial_deployment_airtime_s", m.initialDeploymentAirtime},
            {"initial_deployment_energy_j", m.initialDeploymentEnergy}, {"update_rounds", m.updateRounds}, {"run_rounds", m.runRounds},
            {"bytes_per_update_round", numberOrNull(m.bytesPerUpdateRound)},
            {"download_bytes_per_device", m.downloadBytesPerDevice},
            {"airtime_per_update_round_s", numberOrNull(m.airtimePerUpdateRound)},
            {"energy_per_update_round_j", numberOrNull(m.energyPerUpdateRound)}, {"rounds_per_year", m.roundsPerYear},
            {"energy_per_year_j", m.energyPerYear}, {"upload_energy_per_year_j", m.uploadEnergyPerYear},
            {"battery_share_per_year", m.batteryPerYear}, {"upload_bytes_per_round", m.uploadBytesPerRound},
            {"mean_fleet_accuracy", m.meanFleetAccuracy}, {"mean_server_accuracy", m.meanServerAccuracy},
            {"catch_up_after_last_release", {{"rounds", m.catchUpRounds}, {"energy_j", m.catchUpEnergy}, {"bytes", m.catchUpBytes}}}};
}

} // namespace

std::string fleetResultsToJson(const FleetOfRuns& fleet)
{
    const FleetConfig& config = fleet.config;
    nlohmann::json out{{"groups", groupsJson(config)},
                       {"round_period_s", config.roundPeriodSeconds},
                       {"figures", fleetFiguresText(config.roundPeriodSeconds)},
                       {"catch_up", config.policy.catchUp == CatchUpDelivery::Unicast ? "unicast" : "multicast-per-version"},
                       {"catch_up_bytes", "cheaper of the chain of missed bundles and the full model"},
                       {"max_staleness", config.policy.maxStaleness},
                       {"repair_sessions", config.policy.repairSessions},
                       {"completion_probability", config.policy.target.probability},
                       {"seed", config.seed},
                       {"strategies", nlohmann::json::array()}};
    const auto shares = [](const std::array<double, 3>& t) { return nlohmann::json{{"50", t[0]}, {"90", t[1]}, {"99", t[2]}}; };
    for (size_t i = 0; i < fleet.results.size(); ++i) {
        const FleetResult& r = fleet.results[i];
        nlohmann::json versions = nlohmann::json::array();
        for (const auto& t : r.timeToShare)
            versions.push_back(shares(t));
        nlohmann::json strategy{{"strategy", r.strategy}, {"devices", r.devices}, {"latest_time_to_share_s", shares(r.latestTimeToShare)},
                                {"time_to_share_s", versions}};
        strategy.update(metricsJson(fleet.metrics[i]));
        strategy["rounds"] = roundsJson(r);
        out["strategies"].push_back(std::move(strategy));
    }
    return out.dump(1) + "\n";
}

} // namespace dpu::cli
