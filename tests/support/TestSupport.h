// SPDX-License-Identifier: MIT
// Shared test helpers: fixture locations, tolerances, small tensor datasets and files.
#pragma once
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::test {

/// tests/data in the source tree (reference data and committed fixtures).
std::string dataDir();

/// The Debian Fashion-MNIST folder, or an empty string when the package is absent.
std::string fashionMnistDir();

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
