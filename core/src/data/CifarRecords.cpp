// SPDX-License-Identifier: MIT
// CIFAR binary parsing without LibTorch: record-size checks and label range checks.
#include "data/CifarRecords.h"
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <algorithm>
#include <cstring>

namespace dpu::data {

namespace {

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

CifarRecords readCifarRecords(const std::string& path, CifarKind kind)
{
    FileReader in(path);
    return readCifarRecords(in, kind);
}

CifarRecords readCifarRecords(FileReader& in, CifarKind kind, uint64_t maxBytes)
{
    const Layout layout = layoutOf(kind);
    const int64_t recordBytes = layout.labelBytes + kCifarPixelBytes;
    std::vector<uint8_t> bytes;
    if (!in.compressed())
        bytes.reserve(static_cast<size_t>(std::min(in.diskSize(), maxBytes + 1)));
    in.readAppend(bytes, maxBytes + 1);
    if (bytes.size() > maxBytes)
        in.fail("too large: more than " + std::to_string(maxBytes) + " bytes");
    const auto size = static_cast<int64_t>(bytes.size());
    if (size == 0)
        in.fail("no samples: the file is empty");
    if (size % recordBytes != 0)
        in.fail("size mismatch: " + std::to_string(size) + " bytes is not a multiple of the " +
                std::to_string(recordBytes) + "-byte " + layout.name + " record (" +
                std::to_string(size / recordBytes) + " records and " + std::to_string(size % recordBytes) +
                " bytes left over)");
    CifarRecords out;
    out.count = size / recordBytes;
    out.pixels.resize(static_cast<size_t>(out.count * kCifarPixelBytes));
    out.labels.resize(static_cast<size_t>(out.count));
    for (int64_t i = 0; i < out.count; ++i) {
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
        out.labels[static_cast<size_t>(i)] = label;
        std::memcpy(out.pixels.data() + i * kCifarPixelBytes, record + layout.labelBytes, kCifarPixelBytes);
    }
    return out;
}

} // namespace dpu::data
