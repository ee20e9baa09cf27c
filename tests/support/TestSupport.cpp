// SPDX-License-Identifier: MIT
// Shared test helpers: fixture locations, tolerances, file and IDX builders.
#include "TestSupport.h"
#include <QTemporaryDir>
#include <zlib.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace dpu::test {

std::string dataDir()
{
    if (const char* env = std::getenv("DPU_TEST_DATA"))
        return env;
    return DPU_TEST_DATA_DIR;
}

std::string ownData(const std::string& sub)
{
    return dataDir() + "/owndata/" + sub;
}

dpu::DatasetSpec datasetSpec(const std::string& kind, const std::string& path)
{
    dpu::DatasetSpec s;
    const auto k = dpu::enumFromString<dpu::DataKind>(kind);
    if (!k)
        qFatal("datasetSpec: no data kind is named \"%s\"", kind.c_str());
    s.kind = *k;
    s.path = path;
    return s;
}

std::string fashionMnistDir()
{
    const std::string dir = "/usr/share/datasets/fashion-mnist";
    return std::filesystem::exists(dir + "/train-images-idx3-ubyte.gz") ? dir : std::string();
}

namespace {

/// The first `count` records of a gzip IDX file (`header` bytes, then `record` bytes per sample),
/// with the count in its header set to `count`.
std::vector<uint8_t> idxPrefix(const std::string& gzPath, size_t header, size_t record, uint32_t count)
{
    gzFile f = gzopen(gzPath.c_str(), "rb");
    if (!f)
        throw std::runtime_error("cannot read " + gzPath);
    std::vector<uint8_t> out(header + record * count);
    const int got = gzread(f, out.data(), static_cast<unsigned>(out.size()));
    gzclose(f);
    if (got != static_cast<int>(out.size()))
        throw std::runtime_error(gzPath + ": fewer than " + std::to_string(count) + " samples");
    for (int i = 0; i < 4; ++i) // the sample count, big-endian, after the 4-byte magic
        out[4 + i] = static_cast<uint8_t>(count >> (24 - 8 * i));
    return out;
}

} // namespace

std::string fashionMnistSubset(uint32_t train, uint32_t test)
{
    static QTemporaryDir root; // one per process, removed at exit
    static std::map<std::pair<uint32_t, uint32_t>, std::string> made;
    const std::string from = fashionMnistDir();
    if (from.empty())
        return {};
    std::string& dir = made[{train, test}];
    if (!dir.empty())
        return dir;
    const std::string to = root.path().toStdString() + "/fashion-mnist-" + std::to_string(train) + "-" + std::to_string(test);
    for (const auto& [split, count] : {std::pair<std::string, uint32_t>{"train", train}, {"t10k", test}}) {
        writeFile(to + "/" + split + "-images-idx3-ubyte", idxPrefix(from + "/" + split + "-images-idx3-ubyte.gz", 16, 784, count));
        writeFile(to + "/" + split + "-labels-idx1-ubyte", idxPrefix(from + "/" + split + "-labels-idx1-ubyte.gz", 8, 1, count));
    }
    return dir = to;
}

bool near(double a, double b, double abs, double rel)
{
    return std::abs(a - b) <= abs + rel * std::max(std::abs(a), std::abs(b));
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes)
{
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
        std::filesystem::create_directories(parent);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

std::vector<uint8_t> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> idxBytes(uint8_t typeCode, const std::vector<uint32_t>& dims,
                              const std::vector<uint8_t>& data)
{
    std::vector<uint8_t> out{0, 0, typeCode, static_cast<uint8_t>(dims.size())};
    for (uint32_t d : dims)
        for (int shift = 24; shift >= 0; shift -= 8)
            out.push_back(static_cast<uint8_t>(d >> shift));
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::vector<uint8_t> gzip(const std::vector<uint8_t>& bytes)
{
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    std::vector<uint8_t> out(deflateBound(&zs, static_cast<uLong>(bytes.size())) + 32);
    zs.next_in = const_cast<Bytef*>(bytes.data());
    zs.avail_in = static_cast<uInt>(bytes.size());
    zs.next_out = out.data();
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("deflate failed");
    out.resize(zs.total_out);
    return out;
}

} // namespace dpu::test

namespace dpu::test {

namespace {

uint32_t hash32(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t z = (uint64_t{a} << 32 | b) * 0x9E3779B97F4A7C15ULL + c * 0xBF58476D1CE4E5B9ULL;
    z ^= z >> 31;
    z *= 0x94D049BB133111EBULL;
    return static_cast<uint32_t>(z >> 32);
}

} // namespace

std::vector<uint8_t> syntheticImage(uint32_t index, uint32_t label, uint32_t side, uint32_t classes)
{
    std::vector<uint8_t> px(static_cast<size_t>(side) * side);
    for (uint32_t r = 0; r < side; ++r)
        for (uint32_t c = 0; c < side; ++c) {
            const bool band = r * classes / side == label;
            const uint32_t noise = hash32(index, r, c) % 64;
            px[r * side + c] = static_cast<uint8_t>(band ? 192 + noise : noise);
        }
    return px;
}

void writeIdxFolder(const std::string& dir, uint32_t trainCount, uint32_t testCount, bool compressed,
                    uint32_t side, uint32_t classes)
{
    for (int split = 0; split < 2; ++split) {
        const std::string prefix = split == 0 ? "train" : "t10k";
        const uint32_t count = split == 0 ? trainCount : testCount;
        const uint32_t offset = split == 0 ? 0 : 1000000; // test images differ from train images
        std::vector<uint8_t> pixels, labels;
        for (uint32_t i = 0; i < count; ++i) {
            const auto label = i % classes;
            labels.push_back(static_cast<uint8_t>(label));
            const auto img = syntheticImage(offset + i, label, side, classes);
            pixels.insert(pixels.end(), img.begin(), img.end());
        }
        auto images = idxBytes(0x08, {count, side, side}, pixels);
        auto labelFile = idxBytes(0x08, {count}, labels);
        const std::string ext = compressed ? ".gz" : "";
        writeFile(dir + "/" + prefix + "-images-idx3-ubyte" + ext, compressed ? gzip(images) : images);
        writeFile(dir + "/" + prefix + "-labels-idx1-ubyte" + ext, compressed ? gzip(labelFile) : labelFile);
    }
}

uint8_t cifarPixel(uint32_t index, int c, int y, int x)
{
    return static_cast<uint8_t>(hash32(index, static_cast<uint32_t>(c), static_cast<uint32_t>(y * 32 + x)) % 256);
}

std::vector<uint8_t> cifarRecord(uint32_t index, int coarse, uint8_t label)
{
    std::vector<uint8_t> out;
    if (coarse >= 0)
        out.push_back(static_cast<uint8_t>(coarse));
    out.push_back(label);
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x)
                out.push_back(cifarPixel(index, c, y, x));
    return out;
}

void writeCifarFolder(const std::string& dir, bool cifar100, uint32_t perBatch, uint32_t testCount)
{
    const uint32_t classes = cifar100 ? 100 : 10;
    auto records = [&](uint32_t first, uint32_t count) {
        std::vector<uint8_t> out;
        for (uint32_t i = 0; i < count; ++i) {
            const auto label = static_cast<uint8_t>(i % classes);
            const auto rec = cifarRecord(first + i, cifar100 ? label / 5 : -1, label);
            out.insert(out.end(), rec.begin(), rec.end());
        }
        return out;
    };
    if (cifar100) {
        writeFile(dir + "/train.bin", records(0, 5 * perBatch));
        writeFile(dir + "/test.bin", records(1000000, testCount));
        return;
    }
    for (uint32_t b = 1; b <= 5; ++b)
        writeFile(dir + "/data_batch_" + std::to_string(b) + ".bin", records((b - 1) * perBatch, perBatch));
    writeFile(dir + "/test_batch.bin", records(1000000, testCount));
}

} // namespace dpu::test
