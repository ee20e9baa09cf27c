// SPDX-License-Identifier: MIT
// The interface every updating strategy implements: one round from a start state to a candidate.
#pragma once
#include "data/Dataset.h"
#include "dpu/Plan.h"
#include "dpu/StrategyId.h"
#include "models/Network.h"
#include "strategies/BundlePreview.h"
#include "train/Distillation.h"
#include "train/Int8Grid.h"
#include "train/TrainContext.h"
#include "train/Weights.h"
#include <memory>
#include <string>

namespace dpu {

struct RoundInput {
    Network& network;
    const TensorDataset& train;      ///< D^r
    const TensorDataset& validation;
    const Weights& start;            ///< deployed weights, or the seeded random model (re-initialisation)
    const TrainSpec& spec;
    double k;
    uint64_t unitSeed;               ///< derives sample orders and random masks of this unit
    const TrainContext& ctx;
    /// The server's own fully trained model from the previous round (keepsServerModel()
    /// strategies); null: none yet, or a re-initialisation dropped it.
    const Weights* server = nullptr;
    /// Sizes and decodes candidates as the round's real bundle; null when nothing asks for it
    /// (no budget, no quantisation-aware fine-tune).
    const BundlePreview* preview = nullptr;
    /// With a preview: the round's bundle must fit in this many bytes (k is then not used);
    /// negative: no budget.
    int64_t budgetBytes = -1;
    /// With a preview: quantise the changed weights with the bundle's coding in steps, re-fitting
    /// the rest around them (plan bundle.quant_aware).
    bool quantAware = false;
    /// 1-D parameters (biases) join the selection like partial weights (bundle.dense_tensors
    /// "partial"); otherwise they always train and ship.
    bool selectDense = false;
    /// A sparse deployed model's nonzeros (nonzeroPattern()): the partial-updating strategies
    /// train, select and change only these, so its zeros stay; null: a dense model.
    const MaskSet* pattern = nullptr;
    /// FU on a sparse deployed model: prune what it trains to this sparsity (pruneToSparsity());
    /// 0: keep it dense.
    double sparsity = 0;
    /// An INT8 deployed model's quantiser (the start's Weights::scales, plan int8_rescale): the
    /// partial-updating strategies train through it; FU through one with scales of its own
    /// (Int8Grid::ownScales, plan fu_int8_training); null: float training (FU with `post`:
    /// quantised afterwards).
    const Int8Grid* int8 = nullptr;
    /// Distillation (plan distill): soft targets of FU's model of this round on `train`; the
    /// partial-updating strategies fit them in their full step and fine-tune; null: off.
    const DistillTargets* distill = nullptr;
    /// How the contribution strategies share the round's count among the tensors (plan k_share).
    KShare kShare = KShare::Global;
    /// Iterative rewinding: epochs of each fine-tune step before the last (plan rewind_epochs);
    /// 0: spec.epochs.
    int rewindEpochs = 0;
};

struct RoundOutput {
    Weights weights;         ///< the candidate state (on the network's device)
    MaskSet masks;           ///< per parameter: partial weights that may differ from the base; empty: all
    bool zeroBase = false;   ///< Pruning: weights outside the mask are zero, not the start's
    double valAccuracy = 0;
    Weights server;          ///< keepsServerModel(): the server's model after this round's full step
    /// Under a budget: the candidate's bundle fits (false: not even an update of no selectable
    /// weight fits, so the round must not deploy).
    bool fitsBudget = true;
    int64_t selectable = 0;  ///< weights the selection chose from (I, plus biases when selectable)
    int64_t selected = -1;   ///< weights it let change (-1: every one, a full update)
};

/// Where a strategy's round starts.
enum class StartFrom {
    Deployed,         ///< from the devices' weights, every round (RPU, DPU without the rule)
    DeployedOrSeeded, ///< from the devices' weights, or the seeded random model when the
                      ///< re-initialisation rule fires (DPU, GCPU-reinit, LCPU)
    Seeded,           ///< from the seeded random model every round (FU, Pruning)
    Fresh,            ///< from a new random model every round (FU with fu_start "fresh");
                      ///< round 1 from the seeded one, so every start agrees there
};

/// What a strategy is, declared once: the runner decides from this alone, never from the
/// strategy's name or the plan's strings (as an OBS source declares its capabilities in one
/// obs_source_info). How a round trains (a full step first or not) stays inside runRound().
struct StrategyPolicy {
    StartFrom start = StartFrom::Deployed;
    /// Ships every weight in a full bundle (FU); otherwise a k-sparse delta.
    bool shipsFullModel = false;
    /// Honours RoundInput::preview: byte budgets and the quantisation-aware fine-tune (FU and
    /// Pruning ship by their own rule and ignore both).
    bool budgeted = false;
    /// Keeps the server's fully trained model across rounds (error feedback): the runner hands
    /// it back as RoundInput::server and stores RoundOutput::server, deployed or not.
    bool keepsServerModel = false;
};

class Strategy {
public:
    virtual ~Strategy() = default;
    virtual std::string name() const = 0;
    /// What the runner needs to know of this strategy (where rounds start, what ships).
    virtual StrategyPolicy policy() const = 0;
    /// Trains one round. Throws Cancelled when the context asks to stop.
    virtual RoundOutput runRound(const RoundInput& in) = 0;
};

/// Creates a strategy by its plan name (see strategyNames()). Throws PlanError if unknown.
std::unique_ptr<Strategy> createStrategy(const std::string& name, const Plan& plan);
/// Creates the strategy `id` with the plan's settings (lambda, reinit, fu_start, rewinding).
std::unique_ptr<Strategy> createStrategy(StrategyId id, const Plan& plan);

} // namespace dpu
