// SPDX-License-Identifier: MIT
// Run state after every (seed, round, strategy) unit: enough to resume to identical results.
#pragma once
#include "dpu/Events.h"
#include "train/Weights.h"
#include <optional>
#include <string>
#include <vector>

namespace dpu {

/// What a strategy carries from round to round within one seed.
struct StrategyState {
    Weights deployed;
    double deployedVal = 0;
    double deployedTest = 0;
    int64_t lastReinitSamples = 0; ///< |D| at the last deployed re-initialisation
    double cumulativeBits = 0;
    uint64_t deviceVersion = 0;          ///< update version on the devices (bundles deployed)
    int64_t cumulativeBundleBytes = 0;
    Weights server;                      ///< keepsServerModel() strategies: the server's model
};

struct CheckpointData {
    std::string planJson;   ///< the plan the run was started with
    int64_t completed = 0;  ///< units done, in (seed, round, strategy) order
    std::vector<RoundRecord> records;
    std::vector<StrategyState> states; ///< of the seed in progress (empty at a seed boundary)
};

/// Writes outDir/checkpoint atomically: tensors under unit-numbered names first, then
/// state.json as the commit point, then removes files of older units. Throws Error.
void saveCheckpoint(const std::string& outDir, const CheckpointData& data);

/// Loads outDir/checkpoint/state.json if present (tensors on CPU). Throws Error if it exists
/// but is corrupt.
std::optional<CheckpointData> loadCheckpoint(const std::string& outDir);

/// Whether the checkpoint's run was started with the plan `planJson` (planToJson's text): the
/// same plan but perhaps for its name, a label (a sweep cell named by its own k since resumes).
bool startedWith(const CheckpointData& checkpoint, const std::string& planJson);

} // namespace dpu
