// SPDX-License-Identifier: MIT
// Soft targets from a teacher model and the distillation loss (see Distillation.h).
#include "train/Distillation.h"

namespace dpu {

DistillTargets teacherTargets(Network& network, const Weights& teacher, const TensorDataset& data,
                              const DistillSpec& spec)
{
    restore(network, teacher);
    DistillTargets out;
    out.weight = spec.weight;
    out.temperature = spec.temperature;
    constexpr int64_t kBatch = 1000;
    const int64_t n = data.size();
    std::vector<torch::Tensor> parts;
    {
        torch::NoGradGuard guard;
        network.setTraining(false);
        for (int64_t start = 0; start < n; start += kBatch) {
            const torch::Tensor logits = network.forward(data.images.narrow(0, start, std::min(kBatch, n - start)));
            parts.push_back(torch::log_softmax(logits.to(torch::kFloat) / spec.temperature, 1));
        }
    }
    network.setTraining(true);
    out.logProbs = parts.empty() ? torch::Tensor() : torch::cat(parts, 0);
    return out;
}

torch::Tensor distillationLoss(const torch::Tensor& logits, const torch::Tensor& labels, const torch::Tensor& targets,
                               double weight, double temperature)
{
    const torch::Tensor hard = torch::nn::functional::cross_entropy(logits, labels);
    const torch::Tensor student = torch::log_softmax(logits / temperature, 1);
    // KL(q || p) = sum q (log q - log p); the sum of q log q is constant, but keeping it makes
    // the reported loss a divergence (0 when the student matches the teacher).
    const torch::Tensor soft = (targets.exp() * (targets - student)).sum(1).mean();
    return hard * (1.0 - weight) + soft * (weight * temperature * temperature);
}

} // namespace dpu
