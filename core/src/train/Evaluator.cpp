// SPDX-License-Identifier: MIT
// Top-1 accuracy in large inference-mode batches.
#include "train/Evaluator.h"

namespace dpu {

double accuracy(Network& network, const TensorDataset& data, int64_t batch)
{
    const int64_t n = data.size();
    if (n == 0)
        return 0.0;
    // Counted on the data's device and read once: a read per batch would stall a GPU.
    torch::Tensor correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(data.images.device()));
    {
        torch::NoGradGuard guard;
        network.setTraining(false);
        for (int64_t start = 0; start < n; start += batch) {
            const int64_t len = std::min(batch, n - start);
            torch::Tensor logits = network.forward(data.images.narrow(0, start, len));
            correct.add_(logits.argmax(1).eq(data.labels.narrow(0, start, len)).sum());
        }
    }
    network.setTraining(true);
    return static_cast<double>(correct.item<int64_t>()) / static_cast<double>(n);
}

} // namespace dpu
