// SPDX-License-Identifier: MIT
// The multi-round loop: re-initialisation rule, deploy gate, cost, records, checkpoint per unit.
#include "experiment/RunSession.h"
#include "experiment/FuTraining.h"
#include "experiment/RoundRules.h"
#include "experiment/RoundPreview.h"
#include "strategies/SparseModel.h"
#include "train/Distillation.h"
#include "train/Int8Quantiser.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/StrategyId.h"
#include "train/Evaluator.h"
#include "util/AtomicFile.h"
#include "util/Rng.h"
#include "runs/BundlePaths.h"
#include "util/Sha256Hex.h"
#include "util/TorchCompat.h"
#include <chrono>
#include <filesystem>
#include <sstream>

namespace dpu {

namespace {

torch::Device selectDevice(ComputeDevice wanted)
{
    if (wanted == ComputeDevice::Cuda) {
        if (!compat::cudaAvailable())
            throw PlanError("device", "\"cuda\" requested but no CUDA device is available to LibTorch");
        return torch::Device(torch::kCUDA);
    }
    if (wanted == ComputeDevice::Auto && compat::cudaAvailable())
        return torch::Device(torch::kCUDA);
    return torch::Device(torch::kCPU);
}

TensorDataset toDevice(const TensorDataset& d, const torch::Device& device)
{
    return {d.images.to(device), d.labels.to(device), d.augment};
}

/// The label of a strategy's random stream (sample orders, RPU's masks, ...). Keyed by the
/// strategy's name, not by its place in the plan's list, so that a strategy's records do not
/// change when another strategy is added, removed or reordered, or when it runs alone (a
/// sweep's "strategies" axis splits a plan into cells that way, to share a GPU). The numbers
/// are the places the fidelity plan's order (fu, dpu, gcpu, rpu) gave, so records made before
/// with that order stand; a new strategy takes the next free number (the switch lists every one).
uint64_t strategyStream(StrategyId id)
{
    switch (id) {
    case StrategyId::Fu: return 1;
    case StrategyId::Dpu: return 2;
    case StrategyId::Gcpu: return 3;
    case StrategyId::Rpu: return 4;
    case StrategyId::DpuNoreinit: return 5;
    case StrategyId::DpuMemory: return 6;
    case StrategyId::GcpuReinit: return 7;
    case StrategyId::Lcpu: return 8;
    case StrategyId::Pruning: return 9;
    }
    DPU_UNREACHABLE("strategy " + std::to_string(static_cast<int>(id)) + " has no random stream");
}

/// The stream of a plan's strategy name: validatePlan() admits only strategyNames().
uint64_t strategyStream(const std::string& name)
{
    const std::optional<StrategyId> id = enumFromString<StrategyId>(name);
    DPU_INTERNAL_CHECK(id.has_value(), "strategy \"" + name + "\" is not a known strategy");
    return strategyStream(*id);
}

} // namespace

RunSession::RunSession(const Plan& plan, const RunOptions& options, RunObserver& observer)
    : plan_(plan), options_(options), observer_(observer)
{
}

void RunSession::prepare()
{
    validatePlan(plan_);
    checkCancel();
    planJson_ = planToJson(plan_);
    if (plan_.threads > 0)
        at::set_num_threads(plan_.threads);
    device_ = selectDevice(plan_.device);
    compat::makeDeterministic(device_); // the same plan and seed give the same run on one GPU
    // Stop and Pause work while an image folder loads; the run's observer hears the pause.
    struct PauseToRun : DataReadObserver {
        explicit PauseToRun(RunObserver& o) : run(o) {}
        void readPaused(bool paused) override { run.runPaused(paused); }
        RunObserver& run;
    } pauses(observer_);
    data_ = loadData(plan_.dataset, options_.control, &pauses);
    // The training split moves to the device once; each round's D^r is then gathered there
    // (on the CPU this is the same tensor, no copy).
    data_.train = toDevice(data_.train, device_);
    checkCancel(); // loading takes seconds: a Stop pressed meanwhile takes effect here
    network_ = createNetwork({plan_.model, data_.shape, data_.classes, plan_.widthMultiplier});
    network_->to(device_);
    DeviceUpdate::Config deviceConfig;
    deviceConfig.model = plan_.model;
    deviceConfig.compat = DeviceUpdate::compatString(plan_.model, data_.shape, data_.classes);
    deviceConfig.coding = bundle::codingOf(plan_.bundle.values);
    deviceConfig.codeDenseTensors = plan_.bundle.denseTensors == DenseTensors::Coded;
    deviceConfig.int8 = form().quantiser == Quantiser::Int8PerChannel;
    deviceConfig.int8Biases = int8BiasCodes(plan_);
    if (!plan_.bundle.secretKey.empty()) {
        try {
            deviceConfig.secretKey = readSecretKeyFile(plan_.bundle.secretKey, "plan bundle.secret_key");
        } catch (const Error& e) {
            throw PlanError("bundle.secret_key", e.what());
        }
    }
    deviceUpdate_ = std::make_unique<DeviceUpdate>(*network_, deviceConfig);
    priceTheModel();
    // Refused up front (as the GUI's field check does) rather than stopping after the rounds
    // that fit, which looked like a finished run of fewer rounds.
    checkSplitFits(plan_, DatasetSize{data_.train.size(), data_.test.size()});
    rounds_ = plannedRounds(plan_);
    for (const auto& name : plan_.strategies)
        strategies_.push_back(createStrategy(name, plan_));

    if (options_.resume && !options_.outDir.empty()) {
        removeStaleTemporaries(options_.outDir); // a killed writer's half files
        if (auto cp = loadCheckpoint(options_.outDir)) {
            // The name is a label: a plan renamed since (a sweep cell named by its own k) resumes.
            if (!startedWith(*cp, planJson_))
                throw Error(options_.outDir + "/checkpoint: the plan differs from the one the run was started with");
            resumeFrom_ = cp->completed;
            records_ = std::move(cp->records);
            resumedStates_ = std::move(cp->states);
            for (auto& s : resumedStates_) {
                s.deployed = weightsTo(s.deployed, device_);
                if (!s.server.params.empty())
                    s.server = weightsTo(s.server, device_);
            }
        }
    }
    // After the checkpoint check, so that a differing plan leaves the old run's files alone.
    if (!options_.outDir.empty()) { // what the data was and how it was prepared (docs/plan-format.md, data.json)
        std::vector<data::ChannelStats> stats;
        for (uint64_t seed : plan_.seeds)
            if (plan_.dataset.normalise == Normalise::FirstRound)
                stats.push_back(firstRoundStats(data_, plan_.split, seed));
        std::filesystem::create_directories(options_.outDir);
        writeFileAtomic(options_.outDir + "/data.json", dataRecordJson(plan_, data_, stats));
    }
}

void RunSession::checkCancel()
{
    honourRunControl(options_.control, &observer_);
}

RunSummary RunSession::run()
{
    try {
        prepare();
    } catch (const Cancelled&) {
        RunSummary cancelled;
        cancelled.cancelled = true;
        cancelled.outDir = options_.outDir;
        observer_.runFinished(cancelled);
        return cancelled;
    }
    RunInfo info{plan_.name, plan_.model, device_.str(), plan_.strategies, plan_.seeds, rounds_,
                 cost_.partialWeights, cost_.denseWeights, data_.train.size(), static_cast<int>(resumeFrom_)};
    observer_.runStarted(info);
    status_ = RunStatus{true,          "running",           rounds_,      cost_.partialWeights, cost_.denseWeights,
                        device_.str(), describeThisMachine(), isoTimeNow(), {},                   cost_.codedDenseWeights,
                        cost_.codedDenseScales};
    if (options_.resume && !options_.outDir.empty()) { // a resumed run keeps the day it began
        const std::string previous = options_.outDir + "/run.json";
        if (std::filesystem::exists(previous)) {
            try {
                status_.started = runStatusFromJson(readWholeFile(previous), previous).started;
            } catch (const Error&) {
                // A damaged status file is rewritten below; the results themselves are intact.
            }
        }
    }
    if (resumeFrom_ > 0)
        // The checkpoint is saved before the results: a run stopped between the two has results
        // one unit behind it, and the last unit would never write them again (test_cli_kill).
        writeResults(false);
    RunSummary summary;
    summary.outDir = options_.outDir;
    int64_t unit = 0;
    try {
        for (size_t s = 0; s < plan_.seeds.size(); ++s)
            runSeed(s, unit);
    } catch (const Cancelled&) {
        summary.cancelled = true;
    }
    summary.records = records_;
    status_.ended = isoTimeNow();
    writeStatus(summary.cancelled ? "stopped" : "finished");
    observer_.runFinished(summary);
    return summary;
}

void RunSession::runSeed(size_t seedIndex, int64_t& unit)
{
    const int64_t perSeed = static_cast<int64_t>(rounds_) * static_cast<int64_t>(strategies_.size());
    if (unit + perSeed <= resumeFrom_) { // every unit of this seed finished before the resume
        unit += perSeed;
        return;
    }
    const uint64_t seed = plan_.seeds[seedIndex];
    DataSplit cpuSplit = splitData(data_, plan_.split, seed);
    seedTrain_ = data_.train;
    if (plan_.dataset.normalise == Normalise::FirstRound) { // what the server knows before its first deployment: D1
        const auto stats = firstRoundStats(data_, plan_.split, seed);
        seedTrain_ = normalisedWith(data_.train, stats);
        cpuSplit.validation = normalisedWith(cpuSplit.validation, stats);
        cpuSplit.test = normalisedWith(cpuSplit.test, stats);
    }
    split_ = {toDevice(cpuSplit.validation, device_), toDevice(cpuSplit.test, device_), cpuSplit.arrivalOrder};
    initialiseNetwork(*network_, seed);
    randomModel_ = snapshot(*network_);
    teacherRound_ = 0;
    if (form().quantiser == Quantiser::Int8PerChannel) { // the devices start from an INT8 model too
        randomModel_.scales = int8Scales(randomModel_.params, int8BiasCodes(plan_));
        quantiseInPlace(randomModel_);
        restore(*network_, randomModel_);
    }
    if (plan_.bundle.write && !options_.outDir.empty()) { // the device file every deployment starts from
        std::filesystem::create_directories(bundlepaths::seedDir(options_.outDir, seed));
        const auto file = deviceUpdate_->deviceFile(randomModel_, 0);
        writeFileAtomic(bundlepaths::initialFile(options_.outDir, seed), std::string(file.begin(), file.end()));
    }
    if (unit < resumeFrom_ && !resumedStates_.empty()) {
        states_ = resumedStates_;
    } else {
        const double val = accuracy(*network_, split_.validation), test = accuracy(*network_, split_.test);
        states_.assign(strategies_.size(), StrategyState{});
        for (auto& st : states_) {
            st.deployed = cloneWeights(randomModel_);
            st.deployedVal = val;
            st.deployedTest = test;
        }
    }
    for (int round = 1; round <= rounds_; ++round) {
        const int64_t n = roundSamples(plan_.split, round);
        TensorDataset train;
        for (size_t s = 0; s < strategies_.size(); ++s, ++unit) {
            if (unit < resumeFrom_)
                continue;
            if (!train.images.defined())
                train = seedTrain_.select(split_.arrivalOrder.narrow(0, 0, n).to(device_));
            TrainContext ctx{&observer_, options_.control, strategies_[s]->name(), seed, round};
            RoundRecord record = runUnit(seedIndex, round, s, train, ctx);
            records_.push_back(record);
            observer_.roundDone(record);
            const bool seedDone = round == rounds_ && s + 1 == strategies_.size();
            resumeFrom_ = unit + 1; // the checkpoint's count
            if (seedDone)
                states_.clear();
            writeResults(true);
        }
    }
}

RoundRecord RunSession::runUnit(size_t seedIndex, int round, size_t s, const TensorDataset& train, const TrainContext& ctx)
{
    const auto t0 = std::chrono::steady_clock::now();
    Strategy& strategy = *strategies_[s];
    StrategyState& st = states_[s];
    const UnitStart start = chooseStart(strategy.policy(), st, round, train.size());
    observer_.roundStarted({strategy.name(), ctx.seed, round, train.size(), start.reinit});
    int64_t budget = -1; // the round's byte budget (-1: none)
    judged_.reset(); // an undeployed unit's bundle is never another's
    RoundOutput out = trainUnit(seedIndex, round, s, train, ctx, start, budget);
    if (form().quantiser == Quantiser::Int8PerChannel)
        quantiseCandidate(out, st, start);
    else if (isLossy(plan_.bundle.values) && !start.full && out.fitsBudget)
        judgeDecoded(out, st, start, ctx.seed);
    restore(*network_, out.weights);
    const double candidateTest = accuracy(*network_, split_.test);

    RoundRecord r;
    r.strategy = strategy.name();
    r.seed = ctx.seed;
    r.round = round;
    r.samples = train.size();
    r.reinitialised = start.reinit;
    r.candidateValAccuracy = out.valAccuracy;
    r.candidateTestAccuracy = candidateTest;
    r.deployed = out.fitsBudget && passesDeployGate(out.valAccuracy, st.deployedVal); // the gate
    r.budgetBytes = std::max<int64_t>(budget, 0);
    r.k = start.full ? 1.0
          : budget >= 0 && out.selectable > 0 ? static_cast<double>(out.selected) / static_cast<double>(out.selectable)
                                               : plan_.k;
    if (r.deployed)
        deployUnit(r, st, start, out, candidateTest, budget);
    else
        r.layers = layerUpdates(MaskSet{}, false);
    recordTotals(r, st, round, t0);
    return r;
}

RunSession::UnitStart RunSession::chooseStart(const StrategyPolicy& policy, const StrategyState& st, int round,
                                              int64_t samples) const
{
    UnitStart start;
    // A sparse or INT8 deployment starts with its pruned or quantised model, as single mode starts
    // with its trained one, and is never re-initialised (a seeded random model is neither).
    const bool keptForm = form().keepsItsForm();
    start.singleBase = (plan_.mode == RunMode::Single || keptForm) && round == 1;
    // reinit_every replaces the paper's rule with a fixed count of rounds (its appendix's ablation).
    const bool ruleFires = plan_.reinitEvery > 0 ? reinitialisesEvery(round, plan_.reinitEvery)
                                                 : shouldReinitialise(samples, st.lastReinitSamples);
    start.fresh = !start.singleBase && policy.start == StartFrom::Fresh && round > 1;
    start.reinit = start.singleBase || policy.start == StartFrom::Seeded || policy.start == StartFrom::Fresh
                   || (policy.start == StartFrom::DeployedOrSeeded && ruleFires && !keptForm);
    start.full = start.singleBase || policy.shipsFullModel;
    return start;
}

Weights RunSession::freshModel(uint64_t seed, int round)
{
    constexpr uint64_t kFreshStream = 0x66726573; // apart from the unit seeds' streams
    initialiseNetwork(*network_, deriveSeed(seed, static_cast<uint64_t>(round), kFreshStream));
    return snapshot(*network_);
}

RoundOutput RunSession::trainUnit(size_t seedIndex, int round, size_t s, const TensorDataset& train,
                                  const TrainContext& ctx, const UnitStart& start, int64_t& budget)
{
    if (start.singleBase) { // single-round mode: the deployed model every strategy updates, trained fully
        // Seeded without the strategy, so every strategy updates the very same deployed model.
        const uint64_t baseSeed = deriveSeed(plan_.seeds[seedIndex], 1, 0);
        RoundInput in{*network_, train, split_.validation, randomModel_, plan_.train, 1.0, baseSeed, ctx};
        in.sparsity = form().firstDeployment == FirstDeployment::PrunedBase ? plan_.deployedSparsity : 0.0;
        in.int8 = ownScalesGrid(plan_); // an INT8 base: through the quantiser with its own scales, or null
        return createStrategy(baselineStrategy(), plan_)->runRound(in);
    }
    Strategy& strategy = *strategies_[s];
    const StrategyPolicy policy = strategy.policy();
    // With distillation, FU's own unit is the teacher's training, once a round (not where FU prunes to kept zeros).
    if (plan_.distill.enabled() && isBaseline(strategy.name()) && policy.start == StartFrom::Seeded
        && form().keptMask == KeptMask::None) {
        RoundOutput out = fuOfRound(seedIndex, round, train, ctx);
        out.weights = cloneWeights(out.weights); // quantiseCandidate() works in place
        return out;
    }
    StrategyState& st = states_[s];
    const uint64_t unitSeed = deriveSeed(plan_.seeds[seedIndex], static_cast<uint64_t>(round), strategyStream(plan_.strategies[s]));
    const Weights fresh = start.fresh ? freshModel(ctx.seed, round) : Weights{};
    const Weights& from = start.fresh ? fresh : start.reinit ? randomModel_ : st.deployed;
    const TrainSpec spec = roundSpecOf(plan_, strategy.name()); // FU: fu_epochs
    RoundInput in{*network_, train, split_.validation, from, spec, plan_.k, unitSeed, ctx};
    // A re-initialisation restarts the server's model too: its memory is of the old one.
    if (policy.keepsServerModel && !start.reinit && !st.server.params.empty())
        in.server = &st.server;
    // The bundle this round would deploy (its kind as deployUnit() picks it).
    const RoundPreview preview(*deviceUpdate_, (start.reinit || st.deviceVersion == 0) ? bundle::Kind::ReinitDelta
                                                                                      : bundle::Kind::Delta,
                               st.deployed, ctx.seed, st.deviceVersion + 1);
    const bool budgeted = plan_.budget.enabled() && policy.budgeted;
    if (budgeted || (plan_.bundle.quantAware && policy.budgeted))
        in.preview = &preview;
    if (budgeted)
        in.budgetBytes = roundBudget(strategy.name(), ctx.seed, round);
    in.quantAware = plan_.bundle.quantAware;
    in.selectDense = plan_.bundle.denseTensors == DenseTensors::Partial;
    in.kShare = shareOf(plan_.kShare, start.reinit || st.deviceVersion == 0);
    in.rewindEpochs = plan_.rewindEpochs;
    MaskSet pattern; // the zeros the devices' sparse model holds, read from it
    if (form().keptMask == KeptMask::Zeros) {
        pattern = nonzeroPattern(st.deployed);
        in.pattern = &pattern;
        in.sparsity = plan_.deployedSparsity;
    }
    if (form().quantiser == Quantiser::Int8PerChannel) // a full update brings its own scales
        in.int8 = start.full ? ownScalesGrid(plan_) : &int8GridOf(st);
    if (plan_.distill.enabled() && !start.full)
        in.distill = &teacherTargetsOf(seedIndex, round, train, ctx);
    RoundOutput out = strategy.runRound(in);
    budget = in.budgetBytes;
    if (!out.fitsBudget)
        observer_.message(strategy.name() + ", seed " + std::to_string(ctx.seed) + ", round " + std::to_string(round)
                          + ": not even an update of no weight fits the round's budget of " + std::to_string(budget)
                          + " bytes; the round does not deploy");
    if (policy.keepsServerModel) // kept whether or not the round deploys
        st.server = std::move(out.server);
    return out;
}

const Int8Grid& RunSession::int8GridOf(const StrategyState& st)
{
    int8Grid_.scales = &st.deployed.scales;
    return int8Grid_;
}

const RoundOutput& RunSession::fuOfRound(size_t seedIndex, int round, const TensorDataset& train,
                                        const TrainContext& ctx)
{
    if (teacherRound_ == round)
        return teacher_;
    const uint64_t unitSeed = deriveSeed(plan_.seeds[seedIndex], static_cast<uint64_t>(round), strategyStream(baselineStrategy()));
    const TrainSpec spec = roundSpecOf(plan_, baselineStrategyName()); // FU's own unit is this training
    RoundInput in{*network_, train, split_.validation, randomModel_, spec, 1.0, unitSeed, ctx};
    in.int8 = ownScalesGrid(plan_);
    teacher_ = createStrategy(baselineStrategy(), plan_)->runRound(in); // dense: a sparse plan's FU prunes afterwards
    teacherRound_ = round;
    teacherTargets_ = DistillTargets{};
    return teacher_;
}

const DistillTargets& RunSession::teacherTargetsOf(size_t seedIndex, int round, const TensorDataset& train,
                                                   const TrainContext& ctx)
{
    const RoundOutput& teacher = fuOfRound(seedIndex, round, train, ctx);
    if (!teacherTargets_.logProbs.defined()) // the strategies restore their own start afterwards
        teacherTargets_ = teacherTargets(*network_, teacher.weights, train, plan_.distill);
    return teacherTargets_;
}

void RunSession::recordTotals(RoundRecord& r, StrategyState& st, int round,
                              std::chrono::steady_clock::time_point t0) const
{
    st.cumulativeBits += r.analyticBits;
    r.cumulativeBundleBytes = st.cumulativeBundleBytes;
    r.deviceVersion = st.deviceVersion;
    r.valAccuracy = st.deployedVal;
    r.testAccuracy = st.deployedTest;
    r.cumulativeBits = st.cumulativeBits;
    r.cumulativeRatio = st.cumulativeBits / (static_cast<double>(round) * fullRoundBits(cost_));
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int64_t RunSession::roundBudget(const std::string& strategy, uint64_t seed, int round) const
{
    if (plan_.budget.bytesPerRound > 0)
        return plan_.budget.bytesPerRound;
    // What is left of the run's budget, shared by the rounds left; a round that ships less (or
    // does not deploy) leaves the rest to the later ones. Full bundles (single mode's base
    // model) are not updates and do not count.
    int64_t spent = 0;
    for (const auto& r : records_)
        if (r.seed == seed && r.strategy == strategy && r.bundleKind != "full")
            spent += r.bundleBytes;
    const int64_t left = std::max<int64_t>(plan_.budget.bytesTotal - spent, 0);
    return left / (rounds_ - round + 1);
}

void RunSession::writeResults(bool withCheckpoint)
{
    if (options_.outDir.empty())
        return;
    namespace fs = std::filesystem;
    fs::create_directories(options_.outDir);
    if (withCheckpoint)
        saveCheckpoint(options_.outDir, {planJson_, resumeFrom_, records_, states_});
    std::string lines;
    for (const auto& r : records_)
        lines += recordToJson(r) + "\n";
    writeFileAtomic(options_.outDir + "/results.jsonl", lines);
    writeFileAtomic(options_.outDir + "/results.csv", recordsToCsv(records_));
    writeFileAtomic(options_.outDir + "/plan.json", planJson_);
    writeStatus("running");
}

void RunSession::writeStatus(const std::string& state)
{
    if (options_.outDir.empty())
        return;
    std::filesystem::create_directories(options_.outDir);
    status_.state = state;
    writeFileAtomic(options_.outDir + "/run.json", runStatusToJson(status_));
}

} // namespace dpu
