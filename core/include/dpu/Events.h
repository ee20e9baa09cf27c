// SPDX-License-Identifier: MIT
// Events and per-round records a run reports: plain structs, safe to copy across threads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// Which training step an epoch belongs to.
enum class Phase {
    Full,     ///< training all weights (FU, DPU/GCPU/LCPU first step, Pruning dense step)
    FineTune, ///< sparse fine-tuning under the mask
};
const char* phaseName(Phase phase);

/// Sent once when a run starts (after data and model are ready).
struct RunInfo {
    std::string planName;
    std::string model;
    std::string device;
    std::vector<std::string> strategies;
    std::vector<uint64_t> seeds;
    int rounds = 0;              ///< rounds actually scheduled (may be fewer than planned)
    int64_t partialWeights = 0;  ///< I: weights subject to partial updating
    int64_t denseWeights = 0;    ///< always-shipped values (biases, BatchNorm)
    int64_t trainSamples = 0;
    int resumedUnits = 0;        ///< (seed, round, strategy) units restored from a checkpoint
};

struct RoundStart {
    std::string strategy;
    uint64_t seed = 0;
    int round = 0;
    int64_t samples = 0;
    bool reinitialised = false;
};

struct EpochEvent {
    std::string strategy;
    uint64_t seed = 0;
    int round = 0;
    Phase phase = Phase::Full;
    int epoch = 0;  ///< 1-based
    int epochs = 0;
    double lr = 0;
    double trainLoss = 0;     ///< mean cross-entropy over the epoch's batches
    double valAccuracy = 0;   ///< after this epoch
};

struct BatchProgress {
    std::string strategy;
    uint64_t seed = 0;
    int round = 0;
    Phase phase = Phase::Full;
    int epoch = 0;
    int batch = 0;   ///< 1-based
    int batches = 0;
};

/// Updated weights of one partial tensor in a round.
struct LayerUpdate {
    std::string name;
    int64_t total = 0;
    int64_t updated = 0;
};

/// One line of results.jsonl: a (seed, round, strategy) unit.
struct RoundRecord {
    std::string strategy;
    uint64_t seed = 0;
    int round = 0;
    int64_t samples = 0;        ///< |D^r|
    bool reinitialised = false; ///< this round started from the seeded random model
    bool deployed = false;      ///< passed the deploy gate (validation accuracy improved)
    double valAccuracy = 0;     ///< of the model on the devices after this round
    double testAccuracy = 0;
    double candidateValAccuracy = 0;  ///< of this round's trained model, deployed or not
    double candidateTestAccuracy = 0;
    /// Updating ratio of the round's candidate: the plan's k, or under a byte budget the share of
    /// the selectable weights that fitted; 1 for full-model rounds. 0 in records of runs that
    /// predate the field.
    double k = 0;
    int64_t budgetBytes = 0;          ///< the round's byte budget (0: none, k decides)
    int64_t updatedWeights = 0;       ///< partial weights changed on the devices (0 if not deployed)
    std::vector<LayerUpdate> layers;  ///< per partial tensor
    double analyticBits = 0;          ///< DESIGN.md "Communication cost"; 0 if not deployed
    double cumulativeBits = 0;
    double cumulativeRatio = 0;       ///< cumulative bits over rounds x full-model bits
    int64_t bundleBytes = 0;          ///< real size of the round's update bundle; 0 if not deployed
    int64_t cumulativeBundleBytes = 0;
    std::string bundleKind;           ///< "full", "delta", "reinit+delta"; empty if not deployed
    uint64_t deviceVersion = 0;       ///< update version on the devices after this round
    std::string deviceSha256;         ///< hex SHA-256 of the device's weight file after this round
    double seconds = 0;               ///< wall time of the unit
};

struct RunSummary {
    bool cancelled = false;
    std::vector<RoundRecord> records;
    std::string outDir;
};

/// Receives a run's events on the thread that calls Runner::run(). Every method has a
/// no-op default. Pausing and cancelling go through RunOptions::control, not the observer.
class RunObserver {
public:
    virtual ~RunObserver() = default;
    virtual void runStarted(const RunInfo&) {}
    virtual void roundStarted(const RoundStart&) {}
    virtual void epochDone(const EpochEvent&) {}
    virtual void batchDone(const BatchProgress&) {}
    virtual void roundDone(const RoundRecord&) {}
    virtual void runFinished(const RunSummary&) {}
    virtual void message(const std::string&) {}
    /// The run holds at a batch boundary (true) because its RunControl is paused, or goes on (false).
    virtual void runPaused(bool) {}
};

} // namespace dpu
