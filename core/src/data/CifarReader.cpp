// SPDX-License-Identifier: MIT
// CIFAR folders as tensors: files parsed by CifarRecords, batches concatenated in order.
#include "data/CifarReader.h"
#include "data/DataFolder.h"
#include "dpu/Error.h"
#include <vector>

namespace dpu::data {

RawSplit readCifarFile(const std::string& path, CifarKind kind)
{
    CifarRecords r = readCifarRecords(path, kind);
    RawSplit out{torch::from_blob(r.pixels.data(), {r.count, 3, 32, 32}, torch::kUInt8).clone(),
                 torch::from_blob(r.labels.data(), {r.count}, torch::kInt64).clone()};
    return out;
}

RawData readCifarFolder(const std::string& folder, CifarKind kind)
{
    requireFolder(folder);
    RawData out;
    if (kind == CifarKind::Cifar10) {
        const auto dir = descendIfPresent(folder, "cifar-10-batches-bin", "data_batch_1.bin");
        std::vector<torch::Tensor> pixels, labels;
        for (int b = 1; b <= 5; ++b) {
            auto batch = readCifarFile(findFile(dir, {"data_batch_" + std::to_string(b) + ".bin"}, true), kind);
            pixels.push_back(std::move(batch.pixels));
            labels.push_back(std::move(batch.labels));
        }
        out.train = {torch::cat(pixels), torch::cat(labels)};
        out.test = readCifarFile(findFile(dir, {"test_batch.bin"}, true), kind);
    } else {
        const auto dir = descendIfPresent(folder, "cifar-100-binary", "train.bin");
        out.train = readCifarFile(findFile(dir, {"train.bin"}, true), kind);
        out.test = readCifarFile(findFile(dir, {"test.bin"}, true), kind);
    }
    return out;
}

} // namespace dpu::data
