// SPDX-License-Identifier: MIT
// bench_speed's shared setup: argument parsing, data, networks, timing helpers, the DPU selection.
#include "BenchSetup.h"
#include "train/MaskSelection.h"
#include <ATen/Parallel.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sys/resource.h>

namespace dpu::bench {

[[noreturn]] void usage(const std::string& problem)
{
    std::fprintf(stderr,
                 "bench_speed: %s\n"
                 "Usage: bench_speed [--task train|dpu-round|fu-round|ratio|profile] [--model mlp|vgg]\n"
                 "                   [--data DIR] [--samples N] [--validation N] [--epochs E] [--batch B]\n"
                 "                   [--lr LR] [--k K] [--lambda L] [--threads T] [--reps R] [--seed S]\n",
                 problem.c_str());
    std::exit(2);
}

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// User + system CPU seconds of the whole process so far (all threads).
double cpuSeconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
           + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

Args parseArgs(int argc, char** argv)
{
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (i + 1 >= argc)
            usage("missing value after " + key);
        const std::string value = argv[++i];
        try {
            if (key == "--task") a.task = value;
            else if (key == "--model") a.model = value;
            else if (key == "--data") a.data = value;
            else if (key == "--samples") a.samples = std::stoll(value);
            else if (key == "--validation") a.validation = std::stoll(value);
            else if (key == "--epochs") a.epochs = std::stoi(value);
            else if (key == "--batch") a.batch = std::stoi(value);
            else if (key == "--lr") a.lr = std::stod(value);
            else if (key == "--k") a.k = std::stod(value);
            else if (key == "--lambda") a.lambda = std::stod(value);
            else if (key == "--threads") a.threads = std::stoi(value);
            else if (key == "--reps") a.reps = std::stoi(value);
            else if (key == "--seed") a.seed = std::stoull(value);
            else usage("unknown option " + key);
        } catch (const std::logic_error&) {
            usage("bad value '" + value + "' for " + key);
        }
    }
    return a;
}

/// The paper's MLP settings: Adam (PyTorch defaults), lr, /10 every E/3 epochs, batch 128.
dpu::TrainSpec trainSpec(const Args& a)
{
    dpu::TrainSpec spec;
    spec.epochs = a.epochs;
    spec.batch = a.batch;
    spec.optimizer = dpu::Optimizer::Adam;
    spec.lr = a.lr;
    spec.schedule.kind = dpu::ScheduleKind::Step;
    spec.schedule.stepEpochs = 0; // epochs / 3
    spec.schedule.gamma = 0.1;
    return spec;
}

BenchData fashion(const Args& a)
{
    dpu::DatasetSpec spec;
    spec.kind = dpu::DataKind::Idx;
    spec.path = a.data;
    dpu::LoadedData loaded = dpu::loadData(spec);
    const int64_t n = std::min(a.samples, loaded.train.size());
    const int64_t v = std::min(a.validation, loaded.test.size());
    BenchData d;
    d.train = {loaded.train.images.narrow(0, 0, n).contiguous(), loaded.train.labels.narrow(0, 0, n).contiguous()};
    d.validation = {loaded.test.images.narrow(0, 0, v).contiguous(), loaded.test.labels.narrow(0, 0, v).contiguous()};
    d.shape = loaded.shape;
    d.classes = loaded.classes;
    return d;
}

std::unique_ptr<dpu::Network> network(const std::string& model, const dpu::InputShape& shape, int classes,
                                      uint64_t seed)
{
    auto net = dpu::createNetwork({model, shape, classes, 1.0});
    dpu::initialiseNetwork(*net, seed);
    return net;
}

json commonFields(const Args& a)
{
    return {{"impl", "engine"}, {"torch", TORCH_VERSION}, {"threads", at::get_num_threads()},
            {"omp_wait_policy", std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : ""},
            {"task", a.task}, {"epochs", a.epochs}};
}

dpu::MaskSet selectAndRewind(dpu::Network& net, const std::vector<torch::Tensor>& partial, const dpu::Weights& start,
                             const std::vector<torch::Tensor>& local, double lambda, double k)
{
    std::vector<torch::Tensor> global(partial.size());
    {
        torch::NoGradGuard guard;
        for (size_t i = 0; i < partial.size(); ++i)
            if (partial[i].defined())
                global[i] = (partial[i] - start.params[i]).square();
    }
    const auto scores = dpu::combineContributions(global, local, lambda);
    int64_t total = 0;
    for (const auto& p : partial)
        if (p.defined())
            total += p.numel();
    const dpu::MaskSet masks = dpu::topKMask(scores, std::llround(k * static_cast<double>(total)));
    std::vector<torch::Tensor> params;
    for (auto& p : net.parameters())
        params.push_back(p.tensor);
    dpu::rewindInPlace(params, start.params, masks);
    return masks;
}

} // namespace dpu::bench
