// SPDX-License-Identifier: MIT
// The plan: everything a run needs, as plain structs shared by the CLI, the GUI and the tests.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/PlanEnums.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// Seeded training-time augmentations (the paper's CIFAR recipe); off by default.
struct AugmentSpec {
    int cropPadding = 0; ///< random crop of the original size from the image padded by this many zeros (0: off)
    bool flip = false;   ///< random horizontal flip with probability 1/2
    bool enabled() const { return cropPadding > 0 || flip; }
};

/// Where the data lives and how it is prepared (docs/plan-format.md, "Datasets"). kind: IDX
/// (MNIST format, .gz or raw), CIFAR-10/100, npy (a folder of .npy files), npz, safetensors (a
/// file), images (a folder with one subfolder per class).
struct DatasetSpec {
    DataKind kind = DataKind::Idx;
    std::string path = "/usr/share/datasets/fashion-mnist";
    int64_t trainLimit = 0; ///< use only the first N training samples (0: all)
    int64_t testLimit = 0;  ///< use only the first N test samples (0: all)
    // Array kinds (npy, npz, safetensors): names of the arrays; empty picks the defaults
    // ("x" or "x_train", "y" or "y_train", "x_test" and "y_test" when present).
    std::string x, y, xTest, yTest;
    ArrayLayout layout = ArrayLayout::Auto; ///< arrays: Nhw (3-D images), Ncl (3-D windows), ...
    double testFraction = 0.2;   ///< held out as the test split when the data has none
    int classes = 0;             ///< 0: the largest label + 1 (every class must then have samples)
    // Image folders: every image resized to imageHeight x imageWidth (0: all must share one size),
    // decoded to `channels` (0: as the first image, 1 gray or 3 RGB).
    int imageHeight = 0, imageWidth = 0, channels = 0;
    /// Train: per-channel mean and std of the loaded training split; FirstRound: of each seed's
    /// first-round samples D1 (what a server has before the first deployment); None; Given:
    /// `mean` and `std` below (values scaled to [0, 1] for 8-bit data, as stored otherwise).
    Normalise normalise = Normalise::Train;
    std::vector<double> mean, std;
    AugmentSpec augment;
};

/// Simulated data collection: |D1| initial samples, |dD| more per round.
struct SplitSpec {
    int64_t initial = 1000;
    int64_t perRound = 1000;
    int rounds = 10;
    int64_t validation = 3000; ///< drawn (seeded) from the test split; the rest is test
};

/// Learning-rate schedule per epoch.
struct ScheduleSpec {
    ScheduleKind kind = ScheduleKind::Step;
    int stepEpochs = 0; ///< step: decay every N epochs (0: every epochs/3, at least 1)
    double gamma = 0.1; ///< step: multiply the rate by gamma at each step
};

/// Optimiser and epochs of one training step (the full step and the sparse fine-tune use the same).
struct TrainSpec {
    int epochs = 6;
    int batch = 128;
    Optimizer optimizer = Optimizer::Adam; ///< SGD is Nesterov when nesterov is true
    double lr = 0.005;
    double momentum = 0.9;
    bool nesterov = true;
    double weightDecay = 0.0;
    ScheduleSpec schedule;
};

/// Distillation from the server's own full model (plan keys `distill.*`): the partial-updating
/// strategies train towards FU's model of the same round (trained from the seeded random model,
/// as the baseline is) as well as towards the labels, in the full step and in the sparse
/// fine-tune. It costs the server one FU training per round (shared with FU's own unit) and no
/// byte on the link.
struct DistillSpec {
    double weight = 0;        ///< share of the soft-target loss in [0, 1]; 0: off
    double temperature = 4;   ///< softens both models' outputs (the loss is scaled by its square)
    bool enabled() const { return weight > 0; }
};

/// The update bundles a run builds for every deployed round (docs/bundle-format.md).
struct BundleSpec {
    Coding values = Coding::Fp32; ///< coding of changed weights
    bool write = true;           ///< keep them in OUT/bundles/ (their sizes are always measured)
    std::string secretKey;       ///< Ed25519 secret key file (64 bytes) to sign them; empty: unsigned
    /// With a lossy coding, the sparse fine-tune knows it: the changed weights are quantised with
    /// the bundle's own coding in steps and the still-unquantised ones re-fitted around them,
    /// instead of quantising after training (docs/engine.md, "Quantisation-aware updating").
    bool quantAware = false;
    /// Always-shipped tensors (biases, and the other 1-D parameters): Exact ships them dense and
    /// exact; Partial lets them join the top-k selection like the partial weights; Coded (lossy
    /// codings) trains them fully but codes their changes with the bundle's value coding.
    DenseTensors denseTensors = DenseTensors::Exact;
};

/// Byte budgets of the deployed rounds, measured in real bundle bytes; 0 turns one off. With a
/// budget, k is not used by the partial-updating strategies: each round ships the most valuable
/// weights whose bundle fits. At most one of the two may be set.
struct BudgetSpec {
    int64_t bytesPerRound = 0; ///< every round's bundle fits in this many bytes
    /// The run's bundles (per strategy and seed) fit in this many bytes together: each round gets
    /// what is left divided by the rounds left, so what a round does not use carries over.
    int64_t bytesTotal = 0;
    bool enabled() const { return bytesPerRound > 0 || bytesTotal > 0; }
};

struct Plan {
    std::string name = "fashion-mlp-k0.01";
    std::string model = "mlp"; ///< built-in name or "torchscript:PATH"
    double widthMultiplier = 1.0; ///< mobilenetv1 only
    DatasetSpec dataset;
    SplitSpec split;
    std::vector<std::string> strategies{"dpu", "fu", "rpu"};
    double k = 0.01;      ///< updating ratio: share of partial weights changed per round
    double lambda = 0.5;  ///< DPU: weight of the global contribution
    bool reinit = true;   ///< DPU: re-initialisation rule of the paper (Sec. 4.2)
    /// DPU/LCPU/GCPU-reinit: re-initialise every n rounds (rounds 1, 1 + n, ...) instead of the
    /// rule (the paper's appendix compares n = 1, 5, 10, 20); 0: the rule (or never, reinit false)
    int reinitEvery = 0;
    FuStart fuStart = FuStart::Seeded; ///< FU: where each round starts (seeded, fresh, last)
    /// FU: epochs of each training step of its own rounds (single mode's shared round-1 base
    /// keeps train.epochs); 0: train.epochs. A comparison at DPU's training budget sets it.
    int fuEpochs = 0;
    /// Multi mode: the partial-updating strategies rewind iteratively (20 % of the remaining
    /// weights per step) as single mode does, instead of one top-k mask
    bool rewind = false;
    /// Iterative rewinding (single mode, or `rewind`): epochs of each fine-tune step before the
    /// last, with the step schedule compressed in proportion; 0: train.epochs (the paper's)
    int rewindEpochs = 0;
    /// How the partial-updating strategies share a round's changed weights among the tensors
    /// (DPU/GCPU/LCPU; RPU always draws k of each tensor)
    KShare kShare = KShare::Global;
    RunMode mode = RunMode::Multi; ///< Single: one update of a trained model, iterative rewinding
    /// The model on the devices. Sparse: round 1 deploys a fully trained model pruned to
    /// `deployedSparsity` (per partial tensor, by magnitude, with a masked fine-tune), and the
    /// updates after it keep its zeros: the partial-updating strategies change only nonzeros,
    /// FU prunes what it trains to the same sparsity (the paper's Table 3)
    DeployedForm deployed = DeployedForm::Fp32;
    double deployedSparsity = 0.5; ///< sparse: share of each partial tensor's weights that are zero
    /// An INT8 model's partial rounds: whose output channels may get a larger scale when their
    /// weights outgrow ±127 codes (the channel's codes are then re-coded and shipped with it)
    Int8Rescale int8Rescale = Int8Rescale::Never;
    /// An INT8 model's full trainings (FU's rounds, round 1's base): through the quantiser with
    /// the scales they ship (the paper), or in float and quantised afterwards
    FuInt8Training fuInt8Training = FuInt8Training::QuantAware;
    /// An INT8 model's biases (1-D parameters): int8 codes with a fresh scale per tensor each
    /// round, or float32 as before this field
    Int8Biases int8Biases = Int8Biases::Codes;
    TrainSpec train;
    DistillSpec distill;
    BundleSpec bundle;
    BudgetSpec budget;
    std::vector<uint64_t> seeds{1};
    ComputeDevice device = ComputeDevice::Auto;
    int threads = 0;             ///< intra-op threads (0: all cores)
    Deployment fleet;            ///< the deployment it is for: its `fleet` keys (dpu/Deployment.h)
};

/// The default plan: Fashion-MNIST, MLP, {1000, 1000}, 10 rounds, DPU vs FU vs RPU at k = 0.01.
Plan defaultPlan();

/// The name a plan gets from its fields, as the window's form proposes it and sweep cells follow
/// it: "<data>-<model>-k<k>" ("fashion-mlp-k0.01"), or with a byte budget "<data>-<model>-<N>B"
/// (per round) or "...-<N>B-total", since the run then uses no k. <data> is "fashion", "kmnist"
/// or "mnist" for such IDX folders, own data's file or folder name, else the dataset's kind.
std::string automaticPlanName(const Plan& plan);

/// Parses and validates plan JSON. Missing keys keep their defaults.
/// Throws PlanError naming the field path for unknown keys, wrong types or bad values;
/// `source` (a file name) prefixes parse errors.
Plan parsePlan(const std::string& jsonText, const std::string& source = "plan");

/// Reads and parses a plan file. Throws Error if unreadable, PlanError if invalid.
Plan loadPlanFile(const std::string& path);

/// A plan file larger than this is refused before it is read (real plans take about 1 KB).
constexpr uint64_t kMaxPlanFileBytes = uint64_t{1} << 20;

/// One field of a plan file that could not be used, and why ("k", "expected a number, found string").
struct PlanProblem {
    std::string path;
    std::string message;
};

/// What a plan file gave: every usable field, defaults in place of the bad ones, and the problems.
struct RecoveredPlan {
    Plan plan;
    std::vector<PlanProblem> problems; ///< empty when the file is a valid plan
};

/// Parses plan JSON as parsePlan() does, but a field with a bad value (wrong type, out of range,
/// unknown key) keeps its default and is listed instead of failing the whole plan, so an editor
/// can show the file with its problems marked. Throws PlanError (naming `source`) only when the
/// text is not a JSON object at all.
RecoveredPlan recoverPlan(const std::string& jsonText, const std::string& source = "plan");

/// Serialises a plan to pretty JSON that parsePlan() reads back to an equal plan.
std::string planToJson(const Plan& plan);

/// Checks cross-field rules (e.g. k in (0, 1], strategies known). Throws PlanError.
void validatePlan(const Plan& plan);

/// The names bundle.values may take, fp32 (the exact one) first: enumStrings<Coding>().
/// fp16; q8 (256 k-means centroids per tensor, Huffman); q8c (q8's error or less on one uniform
/// grid per bundle, context-coded); q4 (16 centroids, context-coded); ternary (sign x one
/// magnitude per tensor, context-coded); docs/bundle-format.md.
std::vector<std::string> valueCodings();

/// Rounds the plan schedules: split.rounds, and at most 2 in single mode (train, then update).
int plannedRounds(const Plan& plan);

/// Whether the partial strategies rewind iteratively: always in single mode (the paper), in
/// multi mode when `rewind` asks. rewind_epochs means something only then.
bool rewindsIteratively(const Plan& plan);

/// Names of the strategies a plan may list, with their variants ("dpu", "dpu-noreinit", ...).
std::vector<std::string> strategyNames();

} // namespace dpu
