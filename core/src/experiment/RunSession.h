// SPDX-License-Identifier: MIT
// One execution of a plan: data, model, the (seed, round, strategy) loop, records and checkpoints.
#pragma once
#include "data/Dataset.h"
#include "dpu/Cost.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "experiment/Checkpoint.h"
#include "experiment/DeviceUpdate.h"
#include "models/Network.h"
#include "strategies/Strategy.h"
#include <memory>

namespace dpu {

class RunSession {
public:
    RunSession(const Plan& plan, const RunOptions& options, RunObserver& observer);
    RunSummary run();

private:
    void prepare();
    void checkCancel();
    void runSeed(size_t seedIndex, int64_t& unit);
    RoundRecord runUnit(size_t seedIndex, int round, size_t strategyIndex, const TensorDataset& train,
                        const TrainContext& ctx);
    void writeResults(bool withCheckpoint);
    /// run.json: how the run stands ("running", "finished", "stopped") and where it ran.
    void writeStatus(const std::string& state);
    std::vector<LayerUpdate> layerUpdates(const MaskSet& masks) const;
    /// The byte budget of `round` for one strategy and seed (plan.budget must be enabled).
    int64_t roundBudget(const std::string& strategy, uint64_t seed, int round) const;
    void deployBundle(RoundRecord& r, StrategyState& st, bundle::Kind kind, const Weights& target);

    const Plan& plan_;
    const RunOptions& options_;
    RunObserver& observer_;

    torch::Device device_{torch::kCPU};
    LoadedData data_;
    std::unique_ptr<Network> network_;
    std::unique_ptr<DeviceUpdate> deviceUpdate_;
    std::vector<std::unique_ptr<Strategy>> strategies_;
    std::vector<std::string> partialNames_;
    std::vector<int64_t> partialSizes_;
    CostModel cost_;
    int rounds_ = 0;
    std::string planJson_;
    RunStatus status_;

    // Per seed.
    DataSplit split_;
    TensorDataset seedTrain_; ///< the training split as this seed normalises it
    Weights randomModel_;
    std::vector<StrategyState> states_;
    // Across the run.
    std::vector<RoundRecord> records_;
    int64_t resumeFrom_ = 0;
    std::vector<StrategyState> resumedStates_;
};

} // namespace dpu
