// SPDX-License-Identifier: MIT
// Spreading-factor mixes (dpu/LinkModel.h): FUOTASim's, one parsed from "SF:weight,...", devices per SF by the largest remainder.
#include "dpu/LinkModel.h"
#include "link/Text.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace dpu {
using link::require;

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
        } catch (const std::exception&) {
            throw LinkError("sfMix", expected + ", found '" + item + "'");
        }
        const std::string weight = item.substr(colon + 1);
        const std::string range = "weight of SF" + std::to_string(share.spreadingFactor) + " must be 0 or more, at most "
                                  + std::to_string(static_cast<int64_t>(kMaxSpreadingFactorWeight));
        // strtod, not stod: a weight beyond a double (1e999) is a value out of range, not a syntax error.
        char* end = nullptr;
        share.share = std::strtod(weight.c_str(), &end);
        usedWeight = static_cast<size_t>(end - weight.c_str());
        require(used == sf.size() && usedWeight > 0 && usedWeight == weight.size(), "sfMix", expected + ", found '" + item + "'");
        // Bounded, not only finite: weights of 1e308 each add up to infinity, and the shares
        // (weight / sum) became NaN device counts.
        require(std::isfinite(share.share) && share.share >= 0 && share.share <= kMaxSpreadingFactorWeight, "sfMix",
                range + ", found " + weight);
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
    // Weights relative to the largest: their sum is at most the mix's size, whatever they are
    // (1e308 each overflowed to an infinite sum, and NaN counts indexed past the devices). A
    // weight that is not a finite number of 0 or more counts as 0 (validateFleet refuses it).
    double largest = 0;
    for (auto& m : sorted) {
        if (!(std::isfinite(m.share) && m.share > 0))
            m.share = 0;
        largest = std::max(largest, m.share);
    }
    double total = 0;
    for (auto& m : sorted)
        total += largest > 0 ? m.share /= largest : 0;
    std::vector<int64_t> counts(sorted.size());
    std::vector<std::pair<double, size_t>> remainders;
    int64_t given = 0;
    for (size_t i = 0; i < sorted.size() && total > 0 && devices > 0; ++i) {
        const double exact = std::min(static_cast<double>(devices), devices * sorted[i].share / total);
        counts[i] = static_cast<int64_t>(std::floor(exact));
        given += counts[i];
        remainders.emplace_back(exact - static_cast<double>(counts[i]), i);
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; given < devices && !remainders.empty(); ++i, ++given)
        ++counts[remainders[i % remainders.size()].second];
    // Rounding might give a device too many: taken back from the slowest SFs that have one.
    for (size_t i = counts.size(); given > devices && i-- > 0;)
        for (; given > devices && counts[i] > 0; --given)
            --counts[i];
    std::vector<std::pair<int, int>> out;
    for (size_t i = 0; i < sorted.size(); ++i)
        if (counts[i] > 0)
            out.emplace_back(sorted[i].spreadingFactor, static_cast<int>(counts[i]));
    return out;
}

} // namespace dpu
