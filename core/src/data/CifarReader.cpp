// SPDX-License-Identifier: MIT
// CIFAR binary reading: record-size checks, label range checks, batches concatenated in order.
#include "data/CifarReader.h"
#include "data/DataFolder.h"
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <algorithm>
#include <cstring>
#include <vector>

namespace dpu::data {

namespace {

constexpr int64_t kPixelBytes = 3 * 32 * 32;
// The real files are 30 MB; 2 GiB leaves room for bigger sets in the same format while
// keeping a hostile (e.g. gzip bomb) file from exhausting memory.
constexpr uint64_t kMaxFileBytes = uint64_t{1} << 31;

struct Layout {
    const char* name;
    int64_t labelBytes;
    int coarseClasses; // 0: no coarse label
    int classes;
};

Layout layoutOf(CifarKind kind)
{
    return kind == CifarKind::Cifar10 ? Layout{"CIFAR-10", 1, 0, 10} : Layout{"CIFAR-100", 2, 20, 100};
}

} // namespace

RawSplit readCifarFile(const std::string& path, CifarKind kind)
{
    const Layout layout = layoutOf(kind);
    const int64_t recordBytes = layout.labelBytes + kPixelBytes;
    FileReader in(path);
    std::vector<uint8_t> bytes;
    if (!in.compressed())
        bytes.reserve(static_cast<size_t>(std::min(in.diskSize(), kMaxFileBytes + 1)));
    in.readAppend(bytes, kMaxFileBytes + 1);
    if (bytes.size() > kMaxFileBytes)
        in.fail("too large: more than " + std::to_string(kMaxFileBytes) + " bytes");
    const auto size = static_cast<int64_t>(bytes.size());
    if (size == 0)
        in.fail("no samples: the file is empty");
    if (size % recordBytes != 0)
        in.fail("size mismatch: " + std::to_string(size) + " bytes is not a multiple of the " +
                std::to_string(recordBytes) + "-byte " + layout.name + " record (" +
                std::to_string(size / recordBytes) + " records and " + std::to_string(size % recordBytes) +
                " bytes left over)");
    const int64_t count = size / recordBytes;

    RawSplit out{torch::empty({count, 3, 32, 32}, torch::kUInt8), torch::empty({count}, torch::kInt64)};
    auto* pixels = out.pixels.data_ptr<uint8_t>();
    auto* labels = out.labels.data_ptr<int64_t>();
    for (int64_t i = 0; i < count; ++i) {
        const uint8_t* record = bytes.data() + i * recordBytes;
        if (layout.coarseClasses > 0 && record[0] >= layout.coarseClasses)
            in.fail("label out of range: coarse label " + std::to_string(record[0]) + " at record " +
                    std::to_string(i) + " (counting from 0), expected 0.." +
                    std::to_string(layout.coarseClasses - 1));
        const int label = record[layout.labelBytes - 1];
        if (label >= layout.classes)
            in.fail("label out of range: " + std::string(layout.name) + " label " + std::to_string(label) +
                    " at record " + std::to_string(i) + " (counting from 0), expected 0.." +
                    std::to_string(layout.classes - 1));
        labels[i] = label;
        std::memcpy(pixels + i * kPixelBytes, record + layout.labelBytes, kPixelBytes);
    }
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
