// SPDX-License-Identifier: MIT
// readDatasetSize and checkSplitFits: sample counts from headers, and the split rule on them.
#include "dpu/DatasetSize.h"
#include "data/DataFolder.h"
#include "data/Dataset.h"
#include "data/FileReader.h"
#include "data/IdxReader.h"
#include "data/ImageFolder.h"
#include "data/NpyFormat.h"
#include "data/SafetensorsArrays.h"
#include <filesystem>
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

/// The leading dimension of an .npy file, from its header only.
int64_t npySamples(const std::string& path)
{
    data::FileReader in(path);
    std::vector<uint8_t> head;
    in.readAppend(head, uint64_t{1} << 20);
    const auto h = data::parseNpyHeader(head.data(), head.size(), path);
    if (h.shape.empty())
        data::failFile(path, "a 0-dimensional array: expected samples along the first dimension");
    return h.shape[0];
}

/// The leading dimension of a safetensors tensor, from the header only.
int64_t safetensorsSamples(const DatasetSpec& spec, const std::string& given, std::initializer_list<const char*> names,
                           bool optional)
{
    data::FileReader in(spec.path);
    std::vector<uint8_t> head;
    in.readAppend(head, 8);
    uint64_t n = 0;
    for (size_t i = 0; i < head.size() && i < 8; ++i)
        n |= uint64_t{head[i]} << (8 * i);
    in.readAppend(head, std::min<uint64_t>(n, uint64_t{100} << 20));
    const auto index = data::parseSafetensorsHeader(head.data(), head.size(), spec.path);
    std::vector<std::string> tried = given.empty() ? std::vector<std::string>(names.begin(), names.end())
                                                   : std::vector<std::string>{given};
    for (const auto& name : tried) {
        const auto it = index.tensors.find(name);
        if (it != index.tensors.end())
            return it->second.shape.empty() ? 0 : it->second.shape[0];
    }
    if (optional && given.empty())
        return -1;
    data::failFile(spec.path, "missing tensor \"" + tried.front() + "\" (the file holds: " + data::safetensorsNames(index) + ")");
}

std::string npyPath(const DatasetSpec& spec, const std::string& given, std::initializer_list<const char*> names)
{
    namespace fs = std::filesystem;
    const auto full = [&](const std::string& n) {
        std::string file = n.size() >= 4 && n.compare(n.size() - 4, 4, ".npy") == 0 ? n : n + ".npy";
        return fs::path(file).is_absolute() ? file : (fs::path(spec.path) / file).string();
    };
    if (!given.empty())
        return full(given);
    std::error_code ec;
    for (const char* n : names)
        if (fs::exists(full(n), ec))
            return full(n);
    return {};
}

/// Train and test counts of the array and image kinds: test arrays or folders when present, else the hold-out.
DatasetSize newKindSize(const DatasetSpec& spec)
{
    int64_t train = -1, test = -1;
    if (spec.kind == DataKind::Npy) {
        data::requireFolder(spec.path);
        const auto x = npyPath(spec, spec.x, {"x", "x_train"});
        if (x.empty())
            data::failFile(spec.path, "no array named \"x\" or \"x_train\" (x.npy, x_train.npy); name it with dataset.x");
        train = npySamples(x);
        const auto xt = npyPath(spec, spec.xTest, {"x_test"});
        if (!xt.empty())
            test = npySamples(xt);
    } else if (spec.kind == DataKind::Safetensors) {
        train = safetensorsSamples(spec, spec.x, {"x", "x_train"}, false);
        test = safetensorsSamples(spec, spec.xTest, {"x_test"}, true);
    } else if (spec.kind == DataKind::Images) {
        data::requireFolder(spec.path);
        namespace fs = std::filesystem;
        fs::path root(spec.path);
        auto classes = data::classFolders(spec.path);
        if (classes.size() == 1 && classes[0] == "train" && !data::classFolders((root / "train").string()).empty())
            root /= "train";
        train = 0;
        for (const auto& c : data::classFolders(root.string()))
            train += static_cast<int64_t>(data::imageFiles((root / c).string()).size());
        std::error_code ec;
        const fs::path testRoot = root.filename() == "train" ? root.parent_path() / "test" : root / "test";
        if (fs::is_directory(testRoot, ec)) {
            test = 0;
            for (const auto& c : data::classFolders(testRoot.string()))
                test += static_cast<int64_t>(data::imageFiles((testRoot / c).string()).size());
        }
    } else { // npz: the members are compressed, so read it as a run would
        const auto raw = readRawData([&] { DatasetSpec s = spec; s.trainLimit = s.testLimit = 0; return s; }()).raw;
        train = raw.train.size();
        test = raw.test.size();
    }
    if (test < 0 && spec.kind != DataKind::Npz) { // the hold-out data::holdOut() makes
        const int64_t n = train;
        const int64_t held = std::max<int64_t>(1, std::llround(static_cast<double>(n) * spec.testFraction));
        train = std::max<int64_t>(n - held, 0);
        test = std::min(held, n);
    }
    return {train, test};
}

} // namespace

DatasetSize readDatasetSize(const DatasetSpec& spec)
{
    DatasetSize size;
    switch (spec.kind) {
    case DataKind::Npy:
    case DataKind::Npz:
    case DataKind::Safetensors:
    case DataKind::Images:
        size = newKindSize(spec);
        break;
    case DataKind::Idx:
        data::requireFolder(spec.path);
        size.train = idxLabelCount(data::findIdxFile(spec.path, "train-labels-idx1-ubyte"));
        size.test = idxLabelCount(data::findIdxFile(spec.path, "t10k-labels-idx1-ubyte"));
        break;
    case DataKind::Cifar10: {
        data::requireFolder(spec.path);
        const auto dir = data::descendIfPresent(spec.path, "cifar-10-batches-bin", "data_batch_1.bin");
        for (int b = 1; b <= 5; ++b)
            size.train += cifarRecords(data::findFile(dir, {"data_batch_" + std::to_string(b) + ".bin"}, true), 1);
        size.test = cifarRecords(data::findFile(dir, {"test_batch.bin"}, true), 1);
        break;
    }
    case DataKind::Cifar100: {
        data::requireFolder(spec.path);
        const auto dir = data::descendIfPresent(spec.path, "cifar-100-binary", "train.bin");
        size.train = cifarRecords(data::findFile(dir, {"train.bin"}, true), 2);
        size.test = cifarRecords(data::findFile(dir, {"test.bin"}, true), 2);
        break;
    }
    }
    size.train = limited(size.train, spec.trainLimit);
    size.test = limited(size.test, spec.testLimit);
    return size;
}

int64_t trainingSamplesNeeded(const Plan& plan)
{
    const int rounds = plannedRounds(plan);
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
