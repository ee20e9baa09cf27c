// SPDX-License-Identifier: MIT
// Shared test helpers: fixture locations, tolerances, small tensor datasets and files.
#pragma once
#include "dpu/Plan.h"
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::test {

/// tests/data in the source tree (reference data and committed fixtures).
std::string dataDir();

/// tests/data/owndata/`sub`: the own-data fixtures of every format (written by make_owndata.py there).
std::string ownData(const std::string& sub);

/// A DatasetSpec of `kind` at `path`, every other field at its default.
dpu::DatasetSpec datasetSpec(const std::string& kind, const std::string& path);

/// The Debian Fashion-MNIST folder, or an empty string when the package is absent.
std::string fashionMnistDir();

/// A folder (named fashion-mnist-N-M, so the engine still calls it Fashion-MNIST) holding
/// Fashion-MNIST's first `train` training and first `test` test samples as uncompressed IDX
/// files, written once per process (and removed at its exit): tests whose point is not the
/// dataset load it in a few milliseconds instead of decompressing and normalising 70,000 images
/// (about 0.5 s of CPU per run). Empty when the package is absent; throws when it cannot be written.
std::string fashionMnistSubset(uint32_t train, uint32_t test);

/// |a - b| <= abs + rel * max(|a|, |b|).
bool near(double a, double b, double abs = 1e-9, double rel = 1e-9);

/// Writes bytes to a file (creating parent folders); throws std::runtime_error on failure.
void writeFile(const std::string& path, const std::vector<uint8_t>& bytes);

/// Reads a whole file; throws std::runtime_error on failure.
std::vector<uint8_t> readFile(const std::string& path);

/// Bytes of an IDX file: magic 0x0000 <type> <dims>, big-endian sizes, then the data.
std::vector<uint8_t> idxBytes(uint8_t typeCode, const std::vector<uint32_t>& dims,
                              const std::vector<uint8_t>& data);

/// Gzip-compresses bytes (zlib), for .gz fixtures.
std::vector<uint8_t> gzip(const std::vector<uint8_t>& bytes);

} // namespace dpu::test

/// QCOMPARE for doubles with an absolute tolerance, printing both values on failure.
#define DPU_COMPARE_NEAR(actual, expected, tol)                                                    \
    do {                                                                                           \
        const double a_ = (actual), e_ = (expected);                                               \
        if (!(std::abs(a_ - e_) <= (tol)))                                                         \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 +- %4")                          \
                                 .arg(QStringLiteral(#actual)).arg(a_, 0, 'g', 12)                 \
                                 .arg(e_, 0, 'g', 12).arg(double(tol))));                          \
    } while (0)

namespace dpu::test {

/// Writes a small, learnable MNIST-format folder: train-/t10k- images and labels (gzip when
/// `compressed`). Sample i has label i % classes; its pixels are deterministic noise in 0..63
/// plus a bright horizontal band whose rows encode the label.
void writeIdxFolder(const std::string& dir, uint32_t trainCount, uint32_t testCount,
                    bool compressed = true, uint32_t side = 28, uint32_t classes = 10);

/// Pixel bytes (side x side, row-major) of writeIdxFolder's sample `index`.
std::vector<uint8_t> syntheticImage(uint32_t index, uint32_t label, uint32_t side, uint32_t classes);

/// One CIFAR binary record: label byte(s) (`coarse` first when >= 0, i.e. CIFAR-100) then 3072
/// pixel bytes, channel-major; pixel (c, y, x) of record `index` is cifarPixel(index, c, y, x).
std::vector<uint8_t> cifarRecord(uint32_t index, int coarse, uint8_t label);
uint8_t cifarPixel(uint32_t index, int c, int y, int x);

/// Writes a CIFAR-10 (data_batch_1..5.bin, test_batch.bin; `perBatch` records each and
/// `testCount` test records) or CIFAR-100 (train.bin with 5 * perBatch records, test.bin)
/// folder; labels run i % classes over the records of each file.
void writeCifarFolder(const std::string& dir, bool cifar100, uint32_t perBatch, uint32_t testCount);

/// Runs `fn`; returns the what() of the E it throws, or "" when it throws nothing.
template <class E, class F>
std::string thrownMessage(F&& fn)
{
    try {
        fn();
    } catch (const E& e) {
        return e.what();
    }
    return {};
}

} // namespace dpu::test

/// Expects `expr` to throw `type` whose message contains every string in the trailing list.
#define DPU_EXPECT_THROW_MESSAGE(type, expr, ...)                                                  \
    do {                                                                                           \
        const std::string m_ = dpu::test::thrownMessage<type>([&] { (void)(expr); });              \
        QVERIFY2(!m_.empty(), "no " #type " from " #expr);                                         \
        for (const std::string& n_ : std::vector<std::string>{__VA_ARGS__})                        \
            QVERIFY2(m_.find(n_) != std::string::npos,                                             \
                     qPrintable(QString::fromStdString("message \"" + m_ + "\" lacks \"" + n_ + "\""))); \
    } while (0)
