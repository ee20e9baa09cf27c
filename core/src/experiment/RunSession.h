// SPDX-License-Identifier: MIT
// One execution of a plan: data, model, the (seed, round, strategy) loop, records and checkpoints.
#pragma once
#include "data/Dataset.h"
#include "dpu/Cost.h"
#include "dpu/DeployedForms.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "experiment/Checkpoint.h"
#include "experiment/DeviceUpdate.h"
#include "models/Network.h"
#include "strategies/Strategy.h"
#include "train/Distillation.h"
#include "train/Int8Grid.h"
#include <chrono>
#include <memory>
#include <optional>

namespace dpu {

class RunSession {
public:
    RunSession(const Plan& plan, const RunOptions& options, RunObserver& observer);
    RunSummary run();

private:
    void prepare();
    /// The network's tensors as the rounds price and select them: the partial tensors' names and
    /// sizes, the INT8 quantiser's unclamped tensors and bias codes, and the cost model.
    void priceTheModel();
    void checkCancel();
    /// The plan's deployed form: what the form-dependent steps below ask (quantiser, mask, round 1).
    const DeployedFormInfo& form() const { return deployedFormInfo(plan_.deployed); }
    void runSeed(size_t seedIndex, int64_t& unit);
    /// Where a unit starts and what it ships, from the strategy's policy and the plan's mode.
    struct UnitStart {
        bool singleBase = false; ///< round 1 of single mode or of a sparse deployment: the trained base model
        bool reinit = false;     ///< starts from a random model (the seeded one unless `fresh`)
        bool fresh = false;      ///< starts from a new random model of this round (FU, fu_start "fresh")
        bool full = false;       ///< ships a full bundle
    };
    /// One unit in named steps: choose the start, train, gate, deploy, record.
    RoundRecord runUnit(size_t seedIndex, int round, size_t strategyIndex, const TensorDataset& train,
                        const TrainContext& ctx);
    UnitStart chooseStart(const StrategyPolicy& policy, const StrategyState& st, int round, int64_t samples) const;
    /// Round `round`'s own random model for seed `seed` (StartFrom::Fresh), derived from both so
    /// that a resumed run draws the same one; uses the network, which training then overwrites.
    Weights freshModel(uint64_t seed, int round);
    /// The strategy's candidate (the base model's full training in single mode's round 1);
    /// sets `budget` to the round's byte budget (-1: none).
    RoundOutput trainUnit(size_t seedIndex, int round, size_t strategyIndex, const TensorDataset& train,
                          const TrainContext& ctx, const UnitStart& start, int64_t& budget);
    /// FU's candidate of `round` as the baseline trains it (dense, from the seeded random model,
    /// with FU's own unit seed): distillation's teacher. Kept for the round, so FU's own unit and
    /// every strategy of the round share one training; not owned by the caller.
    const RoundOutput& fuOfRound(size_t seedIndex, int round, const TensorDataset& train, const TrainContext& ctx);
    /// The soft targets of fuOfRound()'s model on `train`, computed once per round for every
    /// strategy that distils.
    const DistillTargets& teacherTargetsOf(size_t seedIndex, int round, const TensorDataset& train,
                                           const TrainContext& ctx);
    /// The quantiser an INT8 model's partial round trains through: `st`'s deployed scales and
    /// the tensors int8_rescale lets grow (owned by the session, valid until the next call).
    const Int8Grid& int8GridOf(const StrategyState& st);
    /// A candidate that passed the gate: its bundle, the devices' new state and accuracy.
    void deployUnit(RoundRecord& r, StrategyState& st, const UnitStart& start, const RoundOutput& out,
                    double candidateTest, int64_t budget);
    /// The bundle a deployed unit ships: full, a delta, or a delta from the regenerated seed.
    bundle::Kind shippedKind(const UnitStart& start, const StrategyState& st) const;
    /// INT8 deployed model: the candidate quantised (the scales of a full update its own, else
    /// the devices', grown where int8_rescale lets a clipping channel grow), its validation
    /// accuracy measured on that, and its masks the changed codes.
    void quantiseCandidate(RoundOutput& out, const StrategyState& st, const UnitStart& start);
    /// Lossy bundle values: the candidate's validation accuracy measured on the weights the
    /// devices would decode from its bundle, so that the deploy gate judges what ships. The
    /// bundle stays in judged_ for deployBundle().
    void judgeDecoded(RoundOutput& out, const StrategyState& st, const UnitStart& start, uint64_t seed);
    /// Running sums, the devices' state and the unit's wall time into the record.
    void recordTotals(RoundRecord& r, StrategyState& st, int round, std::chrono::steady_clock::time_point t0) const;
    void writeResults(bool withCheckpoint);
    /// run.json: how the run stands ("running", "finished", "stopped") and where it ran.
    void writeStatus(const std::string& state);
    /// Per partial tensor: its size and the weights the round changed (0 for all when not deployed).
    std::vector<LayerUpdate> layerUpdates(const MaskSet& masks, bool deployed) const;
    /// The byte budget of `round` for one strategy and seed (plan.budget must be enabled).
    int64_t roundBudget(const std::string& strategy, uint64_t seed, int round) const;
    /// Builds, applies and ships (writes) the round's bundle; the devices' state moves to it.
    /// Ships judged_ when judgeDecoded() wrote it (the same bundle), and empties it. `wholeModel`:
    /// the round is a full update (a sparse model's, written as a Delta: DeviceUpdate::build).
    void deployBundle(RoundRecord& r, StrategyState& st, bundle::Kind kind, const Weights& target, bool wholeModel);

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
    int teacherRound_ = 0; ///< the round teacher_ is FU's candidate of (0: none)
    RoundOutput teacher_;
    DistillTargets teacherTargets_; ///< of teacher_; undefined logProbs: not computed yet
    Int8Grid int8Grid_; ///< unclamped: per parameter, from plan int8_rescale; scales: int8GridOf()
    /// Per unit: judgeDecoded()'s bundle of the candidate (writing one serialises and hashes
    /// the whole device file), shipped as it is when the candidate deploys.
    std::optional<bundle::BundleOutput> judged_;
    // Across the run.
    std::vector<RoundRecord> records_;
    int64_t resumeFrom_ = 0;
    std::vector<StrategyState> resumedStates_;
};

} // namespace dpu
