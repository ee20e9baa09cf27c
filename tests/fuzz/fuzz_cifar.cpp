// SPDX-License-Identifier: MIT
// libFuzzer target: CIFAR-10 / CIFAR-100 binary files (raw or gzip) read from memory; byte 0 picks the layout.
#include "data/CifarRecords.h"
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <cstdlib>

namespace {

// The product accepts up to kCifarMaxFileBytes; here a mutated gzip stream may inflate to at
// most 256 KiB (85 CIFAR-10 records) per execution, so one input costs microseconds, not the
// tens of milliseconds a 16 KiB gzip bomb takes to inflate to megabytes.
constexpr uint64_t kFuzzMaxBytes = uint64_t{1} << 18;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    const auto kind = (data[0] & 1) ? dpu::data::CifarKind::Cifar100 : dpu::data::CifarKind::Cifar10;
    try {
        dpu::data::FileReader in("fuzz.bin", data + 1, size - 1);
        const dpu::data::CifarRecords r = dpu::data::readCifarRecords(in, kind, kFuzzMaxBytes);
        const int classes = kind == dpu::data::CifarKind::Cifar10 ? 10 : 100;
        if (r.count <= 0 || r.labels.size() != size_t(r.count) || r.pixels.size() != size_t(r.count * dpu::data::kCifarPixelBytes))
            std::abort();
        for (int64_t label : r.labels)
            if (label < 0 || label >= classes)
                std::abort();
    } catch (const dpu::Error&) {
    }
    return 0;
}
