// SPDX-License-Identifier: MIT
// The data-reader registry, and what several readers share (a path's name, the hold-out's counts, the array read).
#include "data/DataReaders.h"
#include "data/ArrayDataset.h"
#include "dpu/InternalCheck.h"
#include "dpu/Error.h"
#include <algorithm>
#include <cmath>
#include <filesystem>

namespace dpu::data {

const std::vector<const DataReader*>& dataReaders()
{
    static const std::vector<const DataReader*> readers{&idxDataReader(),         &cifar10DataReader(),
                                                        &cifar100DataReader(),    &npyDataReader(),
                                                        &npzDataReader(),         &safetensorsDataReader(),
                                                        &imageFolderDataReader()};
    return readers;
}

const DataReader& dataReader(DataKind kind)
{
    for (const DataReader* r : dataReaders())
        if (r->kind() == kind)
            return *r;
    // Every DataKind has a reader (test_data_readers walks the registry); a value outside the
    // enum can only come from a defect.
    DPU_UNREACHABLE("dataReader: no reader for data kind " + std::to_string(static_cast<int>(kind)));
}

std::string pathDatasetName(const std::string& path)
{
    const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
    const std::string name = p.filename().string();
    return name.empty() ? p.parent_path().filename().string() : name; // "dir/" names dir
}

DatasetSize heldOutSize(int64_t samples, double testFraction)
{
    const int64_t held = std::max<int64_t>(1, std::llround(static_cast<double>(samples) * testFraction));
    return {std::max<int64_t>(samples - held, 0), std::min(held, samples)};
}

RawDataset readArrayDataset(const DatasetSpec& spec)
{
    RawDataset out;
    out.raw = readArrayData(spec, &out.heldOut, &out.layout);
    out.classes = countClasses(out.raw, spec.classes, spec.path);
    out.name = pathDatasetName(spec.path);
    return out;
}

} // namespace dpu::data
