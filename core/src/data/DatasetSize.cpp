// SPDX-License-Identifier: MIT
// readDatasetSize and checkSplitFits: sample counts from headers, and the split rule on them.
#include "dpu/DatasetSize.h"
#include "data/DataFolder.h"
#include "data/Dataset.h"
#include "data/FileReader.h"
#include "data/IdxReader.h"
#include "dpu/Error.h"
#include <fstream>
#include <string>

namespace dpu {

namespace {

constexpr uint32_t kLabelsMagic = 0x00000801;
constexpr int64_t kCifarPixels = 3 * 32 * 32;

int64_t limited(int64_t count, int64_t limit)
{
    return limit > 0 && limit < count ? limit : count;
}

int64_t idxLabelCount(const std::string& path)
{
    data::FileReader in(path);
    uint8_t header[8];
    if (in.read(header, sizeof header) < sizeof header)
        in.fail("truncated: the file ends inside the 8-byte IDX labels header");
    const uint32_t magic = (uint32_t{header[0]} << 24) | (uint32_t{header[1]} << 16) | (uint32_t{header[2]} << 8) | header[3];
    if (magic != kLabelsMagic)
        in.fail("bad magic: expected 0x00000801 (unsigned-byte labels, 1 dimension)");
    return (int64_t{header[4]} << 24) | (int64_t{header[5]} << 16) | (int64_t{header[6]} << 8) | header[7];
}

/// Bytes of the file's content: its size, or for gzip the size the trailer records (modulo
/// 2^32, ample for CIFAR's 30 MB files).
uint64_t contentBytes(const std::string& path)
{
    data::FileReader probe(path);
    if (!probe.compressed())
        return probe.diskSize();
    std::ifstream in(path, std::ios::binary);
    in.seekg(-4, std::ios::end);
    unsigned char t[4] = {0, 0, 0, 0};
    if (!in.read(reinterpret_cast<char*>(t), 4))
        data::failFile(path, "truncated: no gzip trailer");
    return uint64_t{t[0]} | (uint64_t{t[1]} << 8) | (uint64_t{t[2]} << 16) | (uint64_t{t[3]} << 24);
}

int64_t cifarRecords(const std::string& path, int labelBytes)
{
    const uint64_t record = static_cast<uint64_t>(labelBytes + kCifarPixels);
    const uint64_t bytes = contentBytes(path);
    if (bytes == 0 || bytes % record != 0)
        data::failFile(path, "size mismatch: " + std::to_string(bytes) + " bytes is not a whole number of "
                                 + std::to_string(record) + "-byte records");
    return static_cast<int64_t>(bytes / record);
}

std::string withThousands(int64_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3)
        s.insert(static_cast<size_t>(i), ",");
    return s;
}

} // namespace

DatasetSize readDatasetSize(const DatasetSpec& spec)
{
    DatasetSize size;
    if (spec.kind == "idx") {
        data::requireFolder(spec.path);
        size.train = idxLabelCount(data::findIdxFile(spec.path, "train-labels-idx1-ubyte"));
        size.test = idxLabelCount(data::findIdxFile(spec.path, "t10k-labels-idx1-ubyte"));
    } else if (spec.kind == "cifar10") {
        data::requireFolder(spec.path);
        const auto dir = data::descendIfPresent(spec.path, "cifar-10-batches-bin", "data_batch_1.bin");
        for (int b = 1; b <= 5; ++b)
            size.train += cifarRecords(data::findFile(dir, {"data_batch_" + std::to_string(b) + ".bin"}, true), 1);
        size.test = cifarRecords(data::findFile(dir, {"test_batch.bin"}, true), 1);
    } else if (spec.kind == "cifar100") {
        data::requireFolder(spec.path);
        const auto dir = data::descendIfPresent(spec.path, "cifar-100-binary", "train.bin");
        size.train = cifarRecords(data::findFile(dir, {"train.bin"}, true), 2);
        size.test = cifarRecords(data::findFile(dir, {"test.bin"}, true), 2);
    } else {
        throw PlanError("dataset.kind", "expected \"idx\", \"cifar10\" or \"cifar100\", found \"" + spec.kind + "\"");
    }
    size.train = limited(size.train, spec.trainLimit);
    size.test = limited(size.test, spec.testLimit);
    return size;
}

int64_t trainingSamplesNeeded(const Plan& plan)
{
    const int rounds = plan.mode == "single" ? std::min(plan.split.rounds, 2) : plan.split.rounds;
    return roundSamples(plan.split, rounds);
}

void checkSplitFits(const Plan& plan, const DatasetSize& size)
{
    const SplitSpec& s = plan.split;
    const std::string train = withThousands(size.train);
    if (s.initial > size.train)
        throw PlanError("split.initial", "expected at most " + train + " (the training split), found "
                                             + withThousands(s.initial));
    const int64_t needed = trainingSamplesNeeded(plan);
    if (needed > size.train) {
        const int fit = scheduledRounds(s, size.train);
        throw PlanError("split.rounds", "expected at most " + std::to_string(fit) + " rounds: "
                                            + std::to_string(s.rounds) + " rounds need |D1| + "
                                            + std::to_string(s.rounds - 1) + " × |ΔD| = " + withThousands(needed)
                                            + " training samples, the training split has " + train);
    }
    if (s.validation >= size.test)
        throw PlanError("split.validation", "expected fewer than " + withThousands(size.test)
                                                + " (the test split, so that test samples remain), found "
                                                + withThousands(s.validation));
}

} // namespace dpu
