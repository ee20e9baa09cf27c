// SPDX-License-Identifier: MIT
// What every bench_speed task shares: arguments, the Fashion-MNIST subset, clocks, the DPU selection.
#pragma once
#include "data/Dataset.h"
#include "dpu/Plan.h"
#include "models/Network.h"
#include "train/Weights.h"
#include <nlohmann/json.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace dpu::bench {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

struct Args {
    std::string task = "dpu-round";
    std::string model = "mlp";
    std::string data = "/usr/share/datasets/fashion-mnist";
    int64_t samples = 5000;
    int64_t validation = 3000;
    int epochs = 5;
    int batch = 128;
    double lr = 0.005;
    double k = 0.01;
    double lambda = 0.5;
    int threads = 2;
    int reps = 3;
    uint64_t seed = 1;
};

/// The first `samples` training images and the first `validation` test images, normalised with
/// the whole training split's per-channel statistics (loadData), as bench/python/dpu_round.py.
struct BenchData {
    dpu::TensorDataset train, validation;
    dpu::InputShape shape;
    int classes = 10;
};

/// Prints the usage with `problem` to stderr and exits with status 2.
[[noreturn]] void usage(const std::string& problem);

/// Wall seconds since t0.
double since(Clock::time_point t0);

/// User + system CPU seconds of the whole process so far (all threads).
double cpuSeconds();

/// Median (mean of the middle two for an even count; 0 when empty).
double median(std::vector<double> v);

/// Reads --name value pairs; calls usage() on anything unknown or malformed.
Args parseArgs(int argc, char** argv);

/// The paper's MLP settings: Adam (PyTorch defaults), lr, /10 every E/3 epochs, batch 128.
dpu::TrainSpec trainSpec(const Args& a);

/// Loads the Fashion-MNIST subset of `a` (Error naming the file when missing).
BenchData fashion(const Args& a);

/// A built-in model initialised with the portable seeded initialiser.
std::unique_ptr<dpu::Network> network(const std::string& model, const dpu::InputShape& shape, int classes,
                                      uint64_t seed);

/// The fields every task's JSON line starts with (implementation, versions, threads, settings).
json commonFields(const Args& a);

/// Alg. 1's selection after the full step: c_global = (w_f - w)^2 of the `partial` tensors (the
/// network's, undefined for dense ones) against `start`, combined with `local`, the exact global
/// top-round(kI) mask; then rewinds the network's weights outside it. Returns the mask.
dpu::MaskSet selectAndRewind(dpu::Network& net, const std::vector<torch::Tensor>& partial, const dpu::Weights& start,
                             const std::vector<torch::Tensor>& local, double lambda, double k);

} // namespace dpu::bench
