// SPDX-License-Identifier: MIT
// Where a run keeps its update bundles (OUT/bundles/...): one definition for the runner and the export.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace dpu::bundlepaths {

/// OUT/bundles/seed-S: initial.safetensors and one folder per strategy.
inline std::string seedDir(const std::string& outDir, uint64_t seed)
{
    return outDir + "/bundles/seed-" + std::to_string(seed);
}

/// The round-0 device file of a seed.
inline std::string initialFile(const std::string& outDir, uint64_t seed)
{
    return seedDir(outDir, seed) + "/initial.safetensors";
}

/// round-NNN.dpub: zero-padded so that a plain listing is in deployment order.
inline std::string roundFileName(int round)
{
    char name[32];
    std::snprintf(name, sizeof name, "round-%03d.dpub", round);
    return name;
}

/// Whether a file name is one roundFileName writes: round-, three digits or more, .dpub.
inline bool isRoundFileName(const std::string& name)
{
    const std::string head = "round-", tail = ".dpub";
    if (name.size() < head.size() + 3 + tail.size() || name.compare(0, head.size(), head) != 0 ||
        name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
        return false;
    return name.find_first_not_of("0123456789", head.size()) == name.size() - tail.size();
}

/// OUT/bundles/seed-S/STRATEGY/round-NNN.dpub
inline std::string roundFile(const std::string& outDir, uint64_t seed, const std::string& strategy, int round)
{
    return seedDir(outDir, seed) + "/" + strategy + "/" + roundFileName(round);
}

} // namespace dpu::bundlepaths
