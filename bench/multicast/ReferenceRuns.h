// SPDX-License-Identifier: MIT
// Repeats the frame-level multicast reference over seeds and summarises it (mean and standard error), for the benches and the test that compare the product with it.
#pragma once
#include "MulticastReference.h"
#include <algorithm>
#include <cmath>
#include <utility>
#include <cstdint>
#include <vector>

namespace mcref {

/// A figure over repetitions: its mean, the standard error of that mean, and how many
/// repetitions had it (time to 90 % is missing where fewer devices decoded).
struct Summary {
    double mean = 0;
    double error = 0;
    int count = 0;
};

struct Repeated {
    Summary energyPerDevice, timeTo50, timeTo90, decodedShare, lastFrameEnd;
};

inline Summary summarise(const std::vector<double>& values)
{
    Summary s;
    double sum = 0, squares = 0;
    for (double v : values)
        if (!std::isnan(v)) {
            sum += v;
            squares += v * v;
            ++s.count;
        }
    if (s.count == 0)
        return {std::nan(""), std::nan(""), 0};
    s.mean = sum / s.count;
    const double variance = s.count > 1 ? std::max(0.0, (squares - sum * s.mean) / (s.count - 1)) : 0.0;
    s.error = std::sqrt(variance / s.count);
    return s;
}

/// simulate() with seeds firstSeed .. firstSeed + repetitions - 1.
inline Repeated repeat(const Scenario& scenario, int repetitions, uint64_t firstSeed = 1)
{
    std::vector<double> energy, t50, t90, share, last;
    for (int r = 0; r < repetitions; ++r) {
        const Outcome o = simulate(scenario, firstSeed + static_cast<uint64_t>(r));
        energy.push_back(o.energyPerDevice);
        t50.push_back(o.timeTo50);
        t90.push_back(o.timeTo90);
        share.push_back(o.decodedShare);
        last.push_back(o.lastFrameEnd);
    }
    return {summarise(energy), summarise(t50), summarise(t90), summarise(share), summarise(last)};
}

/// FUOTASim's SF mix over `devices` by the largest remainder (45/22/11/8/8/6 %): 90/44/22/16/16/12
/// for 200 devices, with `frames` per session at each SF (SF7 first).
inline std::vector<SfGroup> fuotaSimGroups(int devices, const std::vector<int>& frames)
{
    const int weights[] = {45, 22, 11, 8, 8, 6};
    std::vector<SfGroup> groups;
    int given = 0;
    std::vector<std::pair<double, int>> remainders;
    for (int i = 0; i < 6; ++i) {
        const double exact = devices * weights[i] / 100.0;
        groups.push_back(SfGroup{7 + i, static_cast<int>(std::floor(exact)), frames[static_cast<size_t>(i)]});
        given += groups.back().devices;
        remainders.emplace_back(exact - std::floor(exact), i);
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (int i = 0; given < devices; ++i, ++given)
        ++groups[static_cast<size_t>(remainders[static_cast<size_t>(i)].second)].devices;
    return groups;
}

} // namespace mcref
