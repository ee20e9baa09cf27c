// SPDX-License-Identifier: MIT
// libFuzzer target: CIFAR-10 / CIFAR-100 binary files (raw or gzip); byte 0 picks the layout.
#include "FuzzFile.h"
#include "data/CifarRecords.h"
#include "dpu/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    const auto kind = (data[0] & 1) ? dpu::data::CifarKind::Cifar100 : dpu::data::CifarKind::Cifar10;
    const std::string path = dpu::fuzz::asFile(data + 1, size - 1);
    try {
        const dpu::data::CifarRecords r = dpu::data::readCifarRecords(path, kind);
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
