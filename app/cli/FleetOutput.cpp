// SPDX-License-Identifier: MIT
// dpu-cli fleet's output: text tables or JSON of the fleet simulation's results.
#include "FleetOutput.h"
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

std::string joules(double j)
{
    return j < 1 ? format("%.1f mJ", j * 1e3) : j < 1000 ? format("%.2f J", j) : format("%.2f kJ", j / 1e3);
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
    text += g.link.delivery == LinkDelivery::Multicast ? ", multicast" : ", unicast";
    text += g.trace ? ", availability from a trace of " + std::to_string(g.trace->devices()) + " devices"
                    : ", availability " + format("%g", g.availability) + " per round";
    if (g.cpu.clockHz > 0)
        text += ", " + g.cpu.name + " at " + format("%g MHz", g.cpu.clockHz / 1e6) + format(", %g cycles per instruction", g.cpu.cyclesPerInstruction)
                + format(", %g mA", g.cpu.activeAmps * 1e3) + format(" at %g V", g.cpu.volts);
    return text;
}

} // namespace

void printFleetResults(const FleetConfig& config, const std::vector<FleetResult>& results, bool rounds)
{
    const FleetPolicy& p = config.policy;
    for (const FleetGroup& g : config.groups)
        std::printf("fleet     %s\n", describeGroup(g, p.multicastPerSpreadingFactor).c_str());
    std::printf("policy    catch-up %s (%s first), %s, %d repair session%s, %g %% completion per device, a round every %s%s\n",
                p.catchUp == CatchUpDelivery::Unicast ? "unicast" : "multicast per version",
                p.order == CatchUpOrder::MostStaleFirst ? "most stale" : "smallest",
                p.maxStaleness > 0 ? ("full model beyond " + std::to_string(p.maxStaleness) + " versions behind").c_str()
                                   : "never the full model",
                p.repairSessions, p.repairSessions == 1 ? "" : "s", p.target.probability * 100,
                duration(config.roundPeriodSeconds).c_str(),
                config.drainRounds > 0 ? (", " + std::to_string(config.drainRounds) + " rounds after the last").c_str() : "");
    std::printf("\n%-16s %8s %-12s %-12s %-12s %-12s %-12s %-9s %-9s %-9s %12s %12s\n", "strategy", "versions", "latest 50 %",
                "latest 90 %", "latest 99 %", "J/dev/round", "J/dev/year", "battery/y", "fleet acc", "server acc",
                "down B/node", "up B/node");
    for (const FleetResult& r : results) {
        const auto& t = r.latestTimeToShare;
        std::printf("%-16s %8zu %-12s %-12s %-12s %-12s %-12s %-9s %-9s %-9s %12.0f %12.0f\n", r.strategy.c_str(),
                    r.timeToShare.size(), duration(t[0]).c_str(), duration(t[1]).c_str(), duration(t[2]).c_str(),
                    joules(r.meanEnergyPerDeviceRound).c_str(), joules(r.energyPerDevicePerYear).c_str(),
                    format("%.2f %%", r.batterySharePerYear * 100).c_str(), format("%.2f %%", r.meanFleetAccuracy * 100).c_str(),
                    format("%.2f %%", r.meanServerAccuracy * 100).c_str(), r.downloadBytesPerNode, r.uploadBytesPerNode);
    }
    if (!rounds)
        return;
    for (const FleetResult& r : results) {
        std::printf("\n%s\n%5s %6s %8s %9s %9s %10s %10s %11s %11s %8s %6s %8s\n", r.strategy.c_str(), "round", "latest",
                    "on it", "fleet", "server", "airtime", "wall", "J mean", "J max", "sessions", "served", "deferred");
        for (const FleetRound& x : r.rounds)
            std::printf("%5d %6d %7.1f%% %8.2f%% %8.2f%% %10s %10s %11s %11s %8d %6d %8d\n", x.round, x.latestVersion,
                        100 * x.versionShare[static_cast<size_t>(x.latestVersion)], 100 * x.fleetAccuracy, 100 * x.serverAccuracy,
                        duration(x.airtime).c_str(), duration(x.wallTime).c_str(), joules(x.energyMean).c_str(),
                        joules(x.energyMax).c_str(), x.sessions, x.served, x.deferred);
    }
}

std::string fleetResultsToJson(const FleetConfig& config, const std::vector<FleetResult>& results)
{
    nlohmann::json groups = nlohmann::json::array();
    for (const FleetGroup& g : config.groups) {
        nlohmann::json mix = nlohmann::json::object();
        for (const auto& [sf, n] : spreadingFactorCounts(g.devices, g.sfMix))
            mix["sf" + std::to_string(sf)] = n;
        nlohmann::json group{{"devices", g.devices}, {"link", g.link.key}, {"link_name", g.link.name}, {"sf_counts", mix},
                             {"duty_cycle", g.link.dutyCycle}, {"frame_loss", g.link.frameLoss},
                             {"multicast", g.link.delivery == LinkDelivery::Multicast},
                             {"availability", g.trace ? nlohmann::json("trace") : nlohmann::json(g.availability)}};
        if (g.cpu.clockHz > 0) // only with --cpu: the output without it stays as it was
            group["cpu"] = {{"name", g.cpu.name}, {"clock_hz", g.cpu.clockHz}, {"cycles_per_instruction", g.cpu.cyclesPerInstruction},
                            {"active_amps", g.cpu.activeAmps}, {"volts", g.cpu.volts}};
        groups.push_back(group);
    }
    nlohmann::json out{{"groups", groups},
                       {"round_period_s", config.roundPeriodSeconds},
                       {"catch_up", config.policy.catchUp == CatchUpDelivery::Unicast ? "unicast" : "multicast-per-version"},
                       {"catch_up_bytes", "cheaper of the chain of missed bundles and the full model"},
                       {"max_staleness", config.policy.maxStaleness},
                       {"repair_sessions", config.policy.repairSessions},
                       {"completion_probability", config.policy.target.probability},
                       {"seed", config.seed},
                       {"strategies", nlohmann::json::array()}};
    const auto shares = [](const std::array<double, 3>& t) { return nlohmann::json{{"50", t[0]}, {"90", t[1]}, {"99", t[2]}}; };
    for (const FleetResult& r : results) {
        nlohmann::json rounds = nlohmann::json::array();
        for (const FleetRound& x : r.rounds)
            rounds.push_back({{"round", x.round}, {"start_s", x.startSeconds}, {"latest_version", x.latestVersion},
                              {"version_share", x.versionShare}, {"fleet_accuracy", x.fleetAccuracy},
                              {"server_accuracy", x.serverAccuracy}, {"airtime_s", x.airtime}, {"wall_time_s", x.wallTime},
                              {"energy_mean_j", x.energyMean}, {"energy_max_j", x.energyMax},
                              {"apply_energy_mean_j", x.applyEnergyMean}, {"apply_seconds_max", x.applySecondsMax},
                              {"bundle_bytes", x.bundleBytes},
                              {"bytes_on_air", x.bytesOnAir}, {"download_bytes", x.downloadBytes}, {"sessions", x.sessions},
                              {"available", x.available}, {"served", x.served}, {"completed", x.completed},
                              {"deferred", x.deferred}, {"full_models", x.fullModels},
                              {"upload_bytes_per_node", x.uploadBytesPerNode}, {"upload_airtime_per_node_s", x.uploadAirtimePerNode},
                              {"upload_energy_per_node_j", x.uploadEnergyPerNode}});
        nlohmann::json versions = nlohmann::json::array();
        for (const auto& t : r.timeToShare)
            versions.push_back(shares(t));
        out["strategies"].push_back({{"strategy", r.strategy}, {"devices", r.devices}, {"latest_time_to_share_s", shares(r.latestTimeToShare)},
                                     {"time_to_share_s", versions}, {"energy_per_device_round_j", r.meanEnergyPerDeviceRound},
                                     {"energy_per_device_year_j", r.energyPerDevicePerYear},
                                     {"upload_energy_per_device_year_j", r.uploadEnergyPerDevicePerYear},
                                     {"battery_share_per_year", r.batterySharePerYear}, {"mean_fleet_accuracy", r.meanFleetAccuracy},
                                     {"mean_server_accuracy", r.meanServerAccuracy}, {"download_bytes_per_node", r.downloadBytesPerNode},
                                     {"upload_bytes_per_node", r.uploadBytesPerNode}, {"rounds", rounds}});
    }
    return out.dump(1) + "\n";
}

} // namespace dpu::cli
