// SPDX-License-Identifier: MIT
// The fleet's input: spreading-factor mixes, catch-up bytes by the chain or the full model, validation.
#include "dpu/Fleet.h"
#include "fleet/Text.h"
#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace dpu {
using fleet::number;
using fleet::require;

std::vector<SpreadingFactorShare> fuotaSimSpreadingFactorMix()
{
    // kqorany/FUOTASim fuotasim.py: ratios = [0.06, 0.08, 0.08, 0.11, 0.22, 0.45] for DR0 (SF12) .. DR5 (SF7).
    return {{7, 0.45}, {8, 0.22}, {9, 0.11}, {10, 0.08}, {11, 0.08}, {12, 0.06}};
}

std::vector<SpreadingFactorShare> parseSpreadingFactorMix(const std::string& text)
{
    std::vector<SpreadingFactorShare> mix;
    std::set<int> seen;
    std::istringstream in(text);
    std::string item;
    const std::string expected = "expected SF:weight pairs such as '7:45,8:22,9:11,10:8,11:8,12:6'";
    while (std::getline(in, item, ',')) {
        const auto colon = item.find(':');
        std::string sf = item.substr(0, colon);
        if (sf.size() > 2 && (sf[0] == 's' || sf[0] == 'S') && (sf[1] == 'f' || sf[1] == 'F'))
            sf = sf.substr(2);
        SpreadingFactorShare share;
        size_t used = 0, usedWeight = 0;
        try {
            if (colon == std::string::npos)
                throw std::invalid_argument(item);
            share.spreadingFactor = std::stoi(sf, &used);
            share.share = std::stod(item.substr(colon + 1), &usedWeight);
        } catch (const std::exception&) {
            throw LinkError("sfMix", expected + ", found '" + item + "'");
        }
        require(used == sf.size() && usedWeight == item.size() - colon - 1, "sfMix", expected + ", found '" + item + "'");
        require(std::isfinite(share.share) && share.share >= 0, "sfMix", "weight of SF" + std::to_string(share.spreadingFactor)
                                                                         + " must be 0 or more, found " + number(share.share));
        require(seen.insert(share.spreadingFactor).second, "sfMix", "SF" + std::to_string(share.spreadingFactor) + " appears twice");
        mix.push_back(share);
    }
    require(!mix.empty(), "sfMix", expected + ", found nothing");
    return mix;
}

std::vector<std::pair<int, int>> spreadingFactorCounts(int devices, const std::vector<SpreadingFactorShare>& mix)
{
    std::vector<SpreadingFactorShare> sorted = mix;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.spreadingFactor < b.spreadingFactor; });
    double total = 0;
    for (const auto& m : sorted)
        total += m.share;
    std::vector<int> counts(sorted.size());
    std::vector<std::pair<double, size_t>> remainders;
    int given = 0;
    for (size_t i = 0; i < sorted.size() && total > 0; ++i) {
        const double exact = devices * sorted[i].share / total;
        counts[i] = static_cast<int>(std::floor(exact));
        given += counts[i];
        remainders.emplace_back(exact - counts[i], i);
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; given < devices && !remainders.empty(); ++i, ++given)
        ++counts[remainders[i % remainders.size()].second];
    std::vector<std::pair<int, int>> out;
    for (size_t i = 0; i < sorted.size(); ++i)
        if (counts[i] > 0)
            out.emplace_back(sorted[i].spreadingFactor, counts[i]);
    return out;
}

int64_t chainOrFullBytes(const FleetStrategy& strategy, int from, int to)
{
    int64_t chain = 0;
    for (int v = from + 1; v <= to; ++v)
        chain += strategy.versions[static_cast<size_t>(v)].deltaBytes;
    return strategy.fullModelBytes > 0 ? std::min(chain, strategy.fullModelBytes) : chain;
}

void validateFleet(const FleetConfig& config, const FleetStrategy& strategy)
{
    require(!config.groups.empty(), "groups", "a fleet needs at least one group of devices");
    for (size_t g = 0; g < config.groups.size(); ++g) {
        const FleetGroup& group = config.groups[g];
        const std::string at = "groups[" + std::to_string(g) + "]";
        require(group.devices >= 1, at + ".devices", "expected 1 or more, found " + std::to_string(group.devices));
        require(std::isfinite(group.availability) && group.availability >= 0 && group.availability <= 1, at + ".availability",
                "expected a probability in [0, 1], found " + number(group.availability));
        try {
            validateLink(group.link);
            if (group.uplink)
                validateLink(*group.uplink);
            double total = 0;
            for (const SpreadingFactorShare& s : group.sfMix) {
                require(std::isfinite(s.share) && s.share >= 0, "sfMix", "weights must be 0 or more, found " + number(s.share));
                validateLink(withSpreadingFactor(group.link, s.spreadingFactor));
                if (group.uplink)
                    validateLink(withSpreadingFactor(*group.uplink, s.spreadingFactor));
                total += s.share;
            }
            require(group.sfMix.empty() || total > 0, "sfMix", "the weights add up to 0");
        } catch (const LinkError& e) {
            throw LinkError(at, e.what());
        }
        if (group.trace)
            require(group.trace->devices() > 0, at + ".trace", "the trace names no device");
        try {
            validateDeviceCpu(group.cpu);
        } catch (const LinkError& e) {
            throw LinkError(at, e.what());
        }
        require(group.cpu.clockHz == 0 || strategy.deviceFileBytes > 0, "strategy '" + strategy.name + "'.deviceFileBytes",
                "an apply's time grows with the device file (" + at + ".cpu): its bytes are needed");
    }
    const FleetPolicy& p = config.policy;
    require(p.maxStaleness >= 0, "policy.maxStaleness", "expected 0 (never) or more, found " + std::to_string(p.maxStaleness));
    require(p.repairSessions >= 0 && p.repairSessions <= 100, "policy.repairSessions",
            "expected 0..100, found " + std::to_string(p.repairSessions));
    require(p.target.probability > 0 && p.target.probability < 1, "policy.target.probability",
            "expected a probability in (0, 1), found " + number(p.target.probability));
    require(std::isfinite(config.roundPeriodSeconds) && config.roundPeriodSeconds > 0, "roundPeriodSeconds",
            "expected above 0 s, found " + number(config.roundPeriodSeconds));
    require(config.drainRounds >= 0, "drainRounds", "expected 0 or more, found " + std::to_string(config.drainRounds));
    require(config.sampleBytes >= 0 && config.newSamplesPerRound >= 0, "sampleBytes", "expected 0 or more bytes and samples");

    const std::string at = "strategy '" + strategy.name + "'";
    require(!strategy.versions.empty(), at, "has no version (versions[0] is what the devices run at the start)");
    for (size_t v = 0; v < strategy.versions.size(); ++v) {
        const FleetVersion& version = strategy.versions[v];
        const std::string field = at + ".versions[" + std::to_string(v) + "]";
        require(std::isfinite(version.testAccuracy), field + ".testAccuracy", "not a number");
        if (v == 0)
            continue;
        require(version.round > strategy.versions[v - 1].round, field + ".round",
                "rounds must increase: " + std::to_string(version.round) + " after " + std::to_string(strategy.versions[v - 1].round));
        require(version.deltaBytes >= 0, field + ".deltaBytes", "expected 0 or more, found " + std::to_string(version.deltaBytes));
    }
    require(strategy.fullModelBytes >= 0, at + ".fullModelBytes", "expected 0 or more");
    require(p.maxStaleness == 0 || strategy.fullModelBytes > 0, at + ".fullModelBytes",
            "a maximum staleness sends the full model: its bytes are needed");
    require(config.lastRound == 0 || config.lastRound >= strategy.versions.back().round, "lastRound",
            "the run's last round " + std::to_string(config.lastRound) + " is before its last version's round "
                + std::to_string(strategy.versions.back().round));
}

} // namespace dpu
