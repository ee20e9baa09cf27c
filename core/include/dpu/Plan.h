// SPDX-License-Identifier: MIT
// The plan: everything a run needs, as plain structs shared by the CLI, the GUI and the tests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// Where the data lives. kind: "idx" (MNIST format, .gz or raw), "cifar10", "cifar100".
struct DatasetSpec {
    std::string kind = "idx";
    std::string path = "/usr/share/datasets/fashion-mnist";
    int64_t trainLimit = 0; ///< use only the first N training samples (0: all)
    int64_t testLimit = 0;  ///< use only the first N test samples (0: all)
};

/// Simulated data collection: |D1| initial samples, |dD| more per round.
struct SplitSpec {
    int64_t initial = 1000;
    int64_t perRound = 1000;
    int rounds = 10;
    int64_t validation = 3000; ///< drawn (seeded) from the test split; the rest is test
};

/// Learning-rate schedule per epoch. kind: "step", "cosine", "constant".
struct ScheduleSpec {
    std::string kind = "step";
    int stepEpochs = 0; ///< step: decay every N epochs (0: every epochs/3, at least 1)
    double gamma = 0.1; ///< step: multiply the rate by gamma at each step
};

/// Optimiser and epochs of one training step (the full step and the sparse fine-tune use the same).
struct TrainSpec {
    int epochs = 6;
    int batch = 128;
    std::string optimizer = "adam"; ///< "adam" or "sgd" (Nesterov when nesterov is true)
    double lr = 0.005;
    double momentum = 0.9;
    bool nesterov = true;
    double weightDecay = 0.0;
    ScheduleSpec schedule;
};

/// The update bundles a run builds for every deployed round (docs/bundle-format.md).
struct BundleSpec {
    std::string values = "fp32"; ///< coding of changed weights: one of bundleValueCodings()
    bool write = true;           ///< keep them in OUT/bundles/ (their sizes are always measured)
    std::string secretKey;       ///< Ed25519 secret key file (64 bytes) to sign them; empty: unsigned
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
    std::string mode = "multi"; ///< "multi" (multi-round) or "single" (one update, iterative rewinding)
    TrainSpec train;
    BundleSpec bundle;
    std::vector<uint64_t> seeds{1};
    std::string device = "auto"; ///< "auto", "cpu" or "cuda"
    int threads = 0;             ///< intra-op threads (0: all cores)
};

/// The default plan: Fashion-MNIST, MLP, {1000, 1000}, 10 rounds, DPU vs FU vs RPU at k = 0.01.
Plan defaultPlan();

/// Parses and validates plan JSON. Missing keys keep their defaults.
/// Throws PlanError naming the field path for unknown keys, wrong types or bad values;
/// `source` (a file name) prefixes parse errors.
Plan parsePlan(const std::string& jsonText, const std::string& source = "plan");

/// Reads and parses a plan file. Throws Error if unreadable, PlanError if invalid.
Plan loadPlanFile(const std::string& path);

/// Serialises a plan to pretty JSON that parsePlan() reads back to an equal plan.
std::string planToJson(const Plan& plan);

/// Checks cross-field rules (e.g. k in (0, 1], strategies known). Throws PlanError.
void validatePlan(const Plan& plan);

/// Names "bundle.values" may take: "fp32" (exact), "fp16", "q8" (256 k-means centroids per tensor,
/// Huffman), "q8c" (q8's error or less on a uniform grid, context-coded), "q4" (16 centroids,
/// context-coded), "ternary" (sign x one magnitude per tensor, context-coded); docs/bundle-format.md.
std::vector<std::string> bundleValueCodings();

/// Names of the strategies a plan may list, with their variants ("dpu", "dpu-noreinit", ...).
std::vector<std::string> strategyNames();

} // namespace dpu
