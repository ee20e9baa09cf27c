// SPDX-License-Identifier: MIT
// Device benchmark: one epoch, one DPU and one FU round, and the masked optimiser step, on CPU or CUDA.
//
// Usage: bench_device --device cpu|cuda --model mlp|vgg|resnet20 [--samples N] [--epochs E]
//                     [--threads T] [--reps R] [--steps S]
// Prints one JSON object: medians over R repetitions of one training epoch (after a warm-up
// epoch), of one DPU round and one FU round of E epochs each (same data, same start), and of
// MaskedOptimizer::step over the model's parameters (fused kernel against the tensor-op path,
// masked with c_local as in DPU's phases). Data are random images of the model's input shape:
// speed does not depend on what the pixels show. bench/gpu/run-gpu-bench.sh runs the grid.
#include "dpu/Cost.h"
#include "models/Network.h"
#include "strategies/Strategy.h"
#include "train/MaskSelection.h"
#include "train/MaskedOptimizer.h"
#include "train/Trainer.h"
#include "train/Weights.h"
#include "train/cuda/MaskedKernels.h"
#include "util/TorchCompat.h"
#include <ATen/Parallel.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
    std::string device = "cpu", model = "mlp";
    int64_t samples = 4096;
    int epochs = 2, threads = 16, reps = 3, steps = 50;
};

[[noreturn]] void usage(const std::string& problem)
{
    std::fprintf(stderr, "bench_device: %s\nUsage: bench_device --device cpu|cuda --model mlp|vgg|resnet20 "
                         "[--samples N] [--epochs E] [--threads T] [--reps R] [--steps S]\n", problem.c_str());
    std::exit(2);
}

Args parse(int argc, char** argv)
{
    Args a;
    for (int i = 1; i < argc; i += 2) {
        const std::string key = argv[i];
        if (i + 1 >= argc)
            usage(key + ": missing value");
        const std::string v = argv[i + 1];
        if (key == "--device") a.device = v;
        else if (key == "--model") a.model = v;
        else if (key == "--samples") a.samples = std::stoll(v);
        else if (key == "--epochs") a.epochs = std::stoi(v);
        else if (key == "--threads") a.threads = std::stoi(v);
        else if (key == "--reps") a.reps = std::stoi(v);
        else if (key == "--steps") a.steps = std::stoi(v);
        else usage("unknown option " + key);
    }
    if (a.device != "cpu" && a.device != "cuda")
        usage("--device: expected cpu or cuda, found " + a.device);
    return a;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Seconds of fn(), with the device's queue drained before and after.
template <class F>
double timed(const torch::Device& device, F&& fn)
{
    dpu::compat::synchronize(device);
    const auto t0 = Clock::now();
    fn();
    dpu::compat::synchronize(device);
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

dpu::TensorDataset randomData(const dpu::InputShape& shape, int64_t n, int classes, const torch::Device& device)
{
    torch::manual_seed(1);
    return {torch::randn({n, shape.channels, shape.height, shape.width}).to(device),
            torch::randint(0, classes, {n}, torch::kLong).to(device)};
}

/// Median seconds of one MaskedOptimizer::step over the network's parameters (fused or not),
/// with k-masks on the partial tensors and c_local accumulators: DPU's most expensive step.
double stepSeconds(dpu::Network& net, const dpu::TrainSpec& spec, bool fused, int steps, const torch::Device& device)
{
    std::vector<torch::Tensor> params, local;
    std::vector<torch::Tensor> scores;
    for (auto& p : net.parameters()) {
        params.push_back(p.tensor);
        local.push_back(torch::zeros_like(p.tensor));
        scores.push_back(p.tensor.dim() > 1 ? torch::rand(p.tensor.sizes()).to(device) : torch::Tensor());
        p.tensor.mutable_grad() = torch::randn(p.tensor.sizes()).to(device) * 1e-3;
    }
    int64_t partial = 0;
    for (const auto& s : scores)
        partial += s.defined() ? s.numel() : 0;
    const dpu::MaskSet masks = dpu::topKMask(scores, dpu::updatedCount(partial, 0.01));
    auto opt = dpu::MaskedOptimizer::create(spec, params);
    opt->setFused(fused);
    opt->setMasks(&masks);
    opt->setLocalContribution(&local);
    std::vector<double> t;
    torch::NoGradGuard guard;
    for (int i = 0; i < steps + 5; ++i) {
        const double s = timed(device, [&] { opt->step(); });
        if (i >= 5) // the first steps allocate the optimiser state
            t.push_back(s);
    }
    return median(t);
}

} // namespace

int main(int argc, char** argv)
{
    const Args a = parse(argc, argv);
    at::set_num_threads(a.threads);
    const torch::Device device(a.device);
    if (device.is_cuda() && !dpu::compat::cudaAvailable())
        usage("--device cuda: LibTorch sees no CUDA device");
    dpu::compat::makeDeterministic(device);
    const dpu::InputShape shape = a.model == "mlp" ? dpu::InputShape{1, 28, 28} : dpu::InputShape{3, 32, 32};
    const int classes = 10;
    auto net = dpu::createNetwork({a.model, shape, classes, 1.0});
    net->to(device);
    dpu::initialiseNetwork(*net, 1);
    const dpu::Weights start = dpu::snapshot(*net);
    const auto train = randomData(shape, a.samples, classes, device);
    const auto validation = randomData(shape, std::min<int64_t>(a.samples / 2, 2000), classes, device);

    dpu::TrainSpec spec;
    spec.epochs = a.epochs;
    dpu::TrainContext ctx;

    dpu::TrainSpec one = spec;
    one.epochs = 1;
    dpu::TrainOptions plain;
    plain.selectBest = false;
    std::vector<double> epoch, dpuRound, fuRound;
    dpu::trainNetwork(*net, train, validation, one, plain, ctx); // warm-up: allocator, cuDNN plans
    for (int r = 0; r < a.reps; ++r) {
        dpu::restore(*net, start);
        epoch.push_back(timed(device, [&] { dpu::trainNetwork(*net, train, validation, one, plain, ctx); }));
    }
    dpu::Plan plan;
    for (int r = 0; r < a.reps; ++r) {
        for (const char* name : {"fu", "dpu"}) {
            auto strategy = dpu::createStrategy(name, plan);
            dpu::restore(*net, start);
            const double s = timed(device, [&] {
                strategy->runRound({*net, train, validation, start, spec, 0.01, static_cast<uint64_t>(r + 1), ctx});
            });
            (std::string(name) == "fu" ? fuRound : dpuRound).push_back(s);
        }
    }
    dpu::restore(*net, start);
    const double fusedStep = device.is_cpu() || dpu::cuda::kernelsBuilt() ? stepSeconds(*net, spec, true, a.steps, device)
                                                                        : -1.0;
    const double genericStep = stepSeconds(*net, spec, false, a.steps, device);

    nlohmann::json j{{"device", a.device}, {"model", a.model}, {"samples", a.samples}, {"epochs", a.epochs},
                     {"threads", a.threads}, {"reps", a.reps}, {"torch", dpu::compat::torchVersion()},
                     {"epoch_seconds", median(epoch)}, {"dpu_round_seconds", median(dpuRound)},
                     {"fu_round_seconds", median(fuRound)}, {"dpu_over_fu", median(dpuRound) / median(fuRound)},
                     {"step_fused_ms", fusedStep * 1e3}, {"step_generic_ms", genericStep * 1e3},
                     {"epoch_all", epoch}, {"dpu_all", dpuRound}, {"fu_all", fuRound}};
    std::cout << j.dump() << std::endl;
    return 0;
}
