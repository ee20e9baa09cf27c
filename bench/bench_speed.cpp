// SPDX-License-Identifier: MIT
// Engine speed benchmark: training throughput, DPU round vs FU round, bookkeeping cost, per-phase profile.
//
// Tasks (one per process; bench/run_speed.sh alternates them with the Python reference):
//   train      E epochs of plain training (trainNetwork, no validation): MLP on Fashion-MNIST
//              or VGGNet on random 3x32x32 data; prints samples per second.
//   dpu-round  one DPU round through createStrategy("dpu") on D Fashion-MNIST samples.
//   fu-round   one FU round through createStrategy("fu") on the same data.
//   ratio      in one process: FU and DPU rounds alternating, the selection (contributions, top-k,
//              rewind) and MaskedOptimizer::step per step (plain, with c_local, masked, generic path),
//              from which the cost of the contribution bookkeeping per round follows; medians.
//   profile    a DPU round through an instrumented copy of the trainer loop (same engine calls:
//              index_select, Network::forward, cross_entropy, backward, MaskedOptimizer::step,
//              accuracy) that times data indexing, forward, backward, optimiser step, evaluation.
// Every task prints one JSON object on stdout.
#include "BenchSetup.h"
#include "data/Dataset.h"
#include "dpu/Error.h"
#include "dpu/Process.h"
#include "models/Network.h"
#include "strategies/Strategy.h"
#include "train/Evaluator.h"
#include "train/MaskSelection.h"
#include "train/MaskedOptimizer.h"
#include "train/Schedule.h"
#include "train/Trainer.h"
#include "train/Weights.h"
#include "util/Rng.h"
#include <ATen/Parallel.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

using namespace dpu::bench;











/// Records when each epoch of each phase ends.
class EpochClock : public dpu::RunObserver {
public:
    void start() { t0_ = Clock::now(); }
    void epochDone(const dpu::EpochEvent& e) override
    {
        (e.phase == dpu::Phase::Full ? full_ : fine_).push_back(since(t0_));
    }
    const std::vector<double>& full() const { return full_; }
    const std::vector<double>& fine() const { return fine_; }

private:
    Clock::time_point t0_ = Clock::now();
    std::vector<double> full_, fine_;
};

struct RoundTiming {
    double seconds = 0;
    double cpu = 0;      ///< process CPU seconds during the round
    double fullStep = 0; ///< until the last epoch of the full step (DPU) or of the training (FU)
    double valAccuracy = 0;
    int64_t updated = 0;
};

RoundTiming runRound(const std::string& strategyName, const BenchData& d, const Args& a)
{
    dpu::Plan plan;
    plan.k = a.k;
    plan.lambda = a.lambda;
    plan.train = trainSpec(a);
    auto strategy = dpu::createStrategy(strategyName, plan);
    auto net = network("mlp", d.shape, d.classes, a.seed);
    const dpu::Weights start = dpu::snapshot(*net);
    EpochClock clock;
    dpu::TrainContext ctx{&clock, nullptr, strategyName, a.seed, 1, /*reportBatches=*/false};
    dpu::RoundInput in{*net, d.train, d.validation, start, plan.train, a.k, dpu::deriveSeed(a.seed, 1, 1), ctx};
    clock.start();
    const double c0 = cpuSeconds();
    const auto t0 = Clock::now();
    dpu::RoundOutput out = strategy->runRound(in);
    RoundTiming t;
    t.seconds = since(t0);
    t.cpu = cpuSeconds() - c0;
    t.fullStep = clock.full().empty() ? 0.0 : clock.full().back();
    t.valAccuracy = out.valAccuracy;
    t.updated = out.masks.empty() ? -1 : dpu::maskCount(out.masks);
    return t;
}


json taskTrain(const Args& a)
{
    dpu::TensorDataset train, validation;
    std::unique_ptr<dpu::Network> net;
    if (a.model == "mlp") {
        Args b = a;
        b.validation = 1;
        BenchData d = fashion(b);
        train = d.train;
        validation = d.validation;
        net = network("mlp", d.shape, d.classes, a.seed);
    } else if (a.model == "vgg") {
        torch::manual_seed(a.seed);
        train = {torch::randn({a.samples, 3, 32, 32}), torch::randint(0, 10, {a.samples}, torch::kLong)};
        validation = {train.images.narrow(0, 0, 1), train.labels.narrow(0, 0, 1)};
        net = network("vgg", {3, 32, 32}, 10, a.seed);
    } else {
        usage("--model: expected mlp or vgg, found " + a.model);
    }
    dpu::TrainOptions opt;
    opt.selectBest = false;
    opt.shuffleSeed = dpu::deriveSeed(a.seed, 7);
    dpu::TrainContext ctx{nullptr, nullptr, "train", a.seed, 1, false};
    const double c0 = cpuSeconds();
    const auto t0 = Clock::now();
    dpu::trainNetwork(*net, train, validation, trainSpec(a), opt, ctx);
    const double seconds = since(t0);
    json j = commonFields(a);
    j.update({{"model", a.model}, {"samples", train.size()}, {"seconds", seconds}, {"cpu_seconds", cpuSeconds() - c0},
              {"samples_per_second", static_cast<double>(train.size()) * a.epochs / seconds}});
    return j;
}

json taskRound(const Args& a, const std::string& strategyName)
{
    const BenchData d = fashion(a);
    const RoundTiming t = runRound(strategyName, d, a);
    json j = commonFields(a);
    j.update({{"model", "mlp"}, {"strategy", strategyName}, {"samples", d.train.size()}, {"seconds", t.seconds},
              {"cpu_seconds", t.cpu}, {"phases", {{"full step", t.fullStep}, {"rest (selection, sparse fine-tune)", t.seconds - t.fullStep}}},
              {"best_val_accuracy", t.valAccuracy}, {"updated_weights", t.updated}});
    return j;
}

/// Median milliseconds per MaskedOptimizer::step on the MLP's parameters (fixed random gradients),
/// in alternating blocks: plain, with c_local, masked (k), and the generic tensor-operation path.
std::map<std::string, double> optimizerStepMs(const BenchData& d, const Args& a, int blocks, int steps)
{
    auto net = network("mlp", d.shape, d.classes, a.seed);
    std::vector<torch::Tensor> params, local, partial;
    torch::manual_seed(a.seed);
    for (auto& p : net->parameters()) {
        p.tensor.mutable_grad() = torch::randn_like(p.tensor) * 0.01;
        params.push_back(p.tensor);
        partial.push_back(p.tensor.dim() > 1 ? p.tensor : torch::Tensor());
        local.push_back(p.tensor.dim() > 1 ? torch::zeros_like(p.tensor) : torch::Tensor());
    }
    int64_t total = 0;
    for (const auto& p : partial)
        if (p.defined())
            total += p.numel();
    const dpu::MaskSet masks = dpu::randomLayerMasks(partial, a.k, a.seed);
    const dpu::TrainSpec spec = trainSpec(a);
    const char* names[] = {"plain", "with c_local", "masked", "generic path with c_local"};
    std::map<std::string, std::vector<double>> samples;
    for (int block = 0; block < blocks; ++block) {
        for (int variant = 0; variant < 4; ++variant) {
            auto opt = dpu::MaskedOptimizer::create(spec, params);
            if (variant == 1 || variant == 3)
                opt->setLocalContribution(&local);
            if (variant == 2)
                opt->setMasks(&masks);
            opt->setFused(variant != 3);
            opt->step(); // allocates nothing further after the first step
            const auto t0 = Clock::now();
            for (int s = 0; s < steps; ++s)
                opt->step();
            samples[names[variant]].push_back(1e3 * since(t0) / steps);
        }
    }
    std::map<std::string, double> out;
    for (const auto& [name, v] : samples)
        out[name] = median(v);
    return out;
}

/// FU vs DPU rounds (alternating in one process) and the cost of the contribution bookkeeping:
/// the c_local accumulation (extra optimiser time per step x steps of the full step) plus
/// steps 2-4 of Alg. 1 (contributions, top-k, rewind).
json taskRatio(const Args& a)
{
    const BenchData d = fashion(a);
    std::vector<double> fu, dpuRound, selection;
    for (int rep = 0; rep < a.reps; ++rep) {
        fu.push_back(runRound("fu", d, a).seconds);
        dpuRound.push_back(runRound("dpu", d, a).seconds);

        // Steps 2-4 of Alg. 1 exactly as ContributionUpdating::runRound does them, on a trained-like state.
        auto net = network("mlp", d.shape, d.classes, a.seed);
        const dpu::Weights start = dpu::snapshot(*net);
        std::vector<torch::Tensor> partial, local;
        torch::manual_seed(a.seed + static_cast<uint64_t>(rep));
        {
            torch::NoGradGuard guard;
            for (auto& p : net->parameters()) {
                p.tensor.add_(torch::randn_like(p.tensor) * 0.01);
                partial.push_back(p.tensor.dim() > 1 ? p.tensor : torch::Tensor());
                local.push_back(p.tensor.dim() > 1 ? torch::randn_like(p.tensor).abs_() : torch::Tensor());
            }
        }
        const auto t0 = Clock::now();
        const dpu::MaskSet masks = selectAndRewind(*net, partial, start, local, a.lambda, a.k);
        selection.push_back(since(t0));
    }
    const auto stepMs = optimizerStepMs(d, a, std::max(3, a.reps), 50);
    const int64_t batchesPerEpoch = (d.train.size() + a.batch - 1) / a.batch;
    const int64_t fullSteps = batchesPerEpoch * a.epochs;
    const double cLocalSeconds = 1e-3 * (stepMs.at("with c_local") - stepMs.at("plain")) * static_cast<double>(fullSteps);
    const double fuM = median(fu), dpuM = median(dpuRound), selM = median(selection);
    json j = commonFields(a);
    j.update({{"model", "mlp"}, {"samples", d.train.size()}, {"reps", a.reps},
              {"fu_round_s", fu}, {"dpu_round_s", dpuRound}, {"selection_s", selection},
              {"optimizer_step_ms", stepMs}, {"full_step_optimizer_steps", fullSteps},
              {"median", {{"fu_round_s", fuM}, {"dpu_round_s", dpuM}, {"selection_s", selM}}},
              {"dpu_over_fu", dpuM / fuM},
              {"c_local_seconds_per_round", cLocalSeconds},
              {"bookkeeping_share_of_dpu_round", (cLocalSeconds + selM) / dpuM}});
    return j;
}

/// Per-phase totals of an instrumented copy of trainNetwork's loop.
struct Profile {
    std::map<std::string, double> seconds;
    Clock::time_point last = Clock::now();
    void reset() { last = Clock::now(); }
    void lap(const std::string& name)
    {
        const auto now = Clock::now();
        seconds[name] += std::chrono::duration<double>(now - last).count();
        last = now;
    }
};

/// The loop of core/src/train/Trainer.cpp with clocks between its parts (no events, no cancel).
double trainProfiled(dpu::Network& net, const dpu::TensorDataset& data, const dpu::TensorDataset& validation,
                     const dpu::TrainSpec& spec, uint64_t shuffleSeed, const dpu::MaskSet* masks,
                     std::vector<torch::Tensor>* local, bool selectBest, Profile& prof)
{
    std::vector<torch::Tensor> params;
    for (auto& p : net.parameters())
        params.push_back(p.tensor);
    auto optimizer = dpu::MaskedOptimizer::create(spec, params);
    optimizer->setMasks(masks);
    optimizer->setLocalContribution(local);
    net.setTraining(true);
    double best = -1;
    dpu::Weights bestState;
    prof.reset();
    if (selectBest) {
        best = dpu::accuracy(net, validation);
        bestState = dpu::snapshot(net);
        prof.lap("evaluation");
    }
    const int64_t n = data.size(), batch = spec.batch;
    const int batches = static_cast<int>((n + batch - 1) / batch);
    int bestEpoch = 0;
    for (int epoch = 0; epoch < spec.epochs; ++epoch) {
        prof.reset();
        optimizer->setLearningRate(dpu::learningRate(spec, epoch));
        dpu::Rng rng(dpu::deriveSeed(shuffleSeed, static_cast<uint64_t>(epoch)));
        const auto order = rng.permutation(n);
        torch::Tensor orderTensor = torch::from_blob(const_cast<int64_t*>(order.data()), {n}, torch::kLong);
        prof.lap("data indexing");
        for (int b = 0; b < batches; ++b) {
            const int64_t start = b * batch, len = std::min(batch, n - start);
            if (len < 2 && n > 1)
                continue;
            torch::Tensor idx = orderTensor.narrow(0, start, len);
            torch::Tensor x = data.images.index_select(0, idx);
            torch::Tensor y = data.labels.index_select(0, idx);
            prof.lap("data indexing");
            for (auto& p : params)
                p.mutable_grad().reset();
            torch::Tensor loss = torch::nn::functional::cross_entropy(net.forward(x), y);
            prof.lap("forward");
            loss.backward();
            prof.lap("backward");
            optimizer->step();
            prof.lap("optimizer step");
            (void)loss.item<double>();
            prof.lap("forward");
        }
        if (selectBest) {
            const double val = dpu::accuracy(net, validation);
            if (val > best) {
                best = val;
                bestEpoch = epoch + 1;
                bestState = dpu::snapshot(net);
            }
            prof.lap("evaluation");
        }
    }
    if (selectBest && bestEpoch != spec.epochs)
        dpu::restore(net, bestState);
    prof.lap("evaluation");
    return best;
}

json taskProfile(const Args& a)
{
    const BenchData d = fashion(a);
    const dpu::TrainSpec spec = trainSpec(a);
    auto net = network("mlp", d.shape, d.classes, a.seed);
    const dpu::Weights start = dpu::snapshot(*net);
    Profile prof;
    std::map<std::string, double> phases;
    const auto t0 = Clock::now();

    std::vector<torch::Tensor> partial, local;
    for (auto& p : net->parameters()) {
        partial.push_back(p.tensor.dim() > 1 ? p.tensor : torch::Tensor());
        local.push_back(p.tensor.dim() > 1 ? torch::zeros_like(p.tensor) : torch::Tensor());
    }
    trainProfiled(*net, d.train, d.validation, spec, dpu::deriveSeed(a.seed, 1), nullptr, &local, false, prof);
    phases["full step"] = since(t0);

    auto t1 = Clock::now();
    const dpu::MaskSet masks = selectAndRewind(*net, partial, start, local, a.lambda, a.k);
    phases["contributions, top-k, rewind"] = since(t1);

    t1 = Clock::now();
    const double best =
        trainProfiled(*net, d.train, d.validation, spec, dpu::deriveSeed(a.seed, 2), &masks, nullptr, true, prof);
    phases["sparse fine-tune"] = since(t1);
    json j = commonFields(a);
    j.update({{"model", "mlp"}, {"samples", d.train.size()}, {"seconds", since(t0)}, {"phases", phases},
              {"best_val_accuracy", best}, {"updated_weights", dpu::maskCount(masks)}, {"profile", prof.seconds}});
    return j;
}

} // namespace

int main(int argc, char** argv)
{
    dpu::ensurePassiveOpenMP(argc, argv);
    const Args a = parseArgs(argc, argv);
    if (a.threads > 0)
        at::set_num_threads(a.threads);
    try {
        json j;
        if (a.task == "train")
            j = taskTrain(a);
        else if (a.task == "dpu-round")
            j = taskRound(a, "dpu");
        else if (a.task == "fu-round")
            j = taskRound(a, "fu");
        else if (a.task == "ratio")
            j = taskRatio(a);
        else if (a.task == "profile")
            j = taskProfile(a);
        else
            usage("--task: expected train, dpu-round, fu-round, ratio or profile, found " + a.task);
        std::printf("%s\n", j.dump().c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_speed: error: %s\n", e.what());
        return 1;
    }
}
