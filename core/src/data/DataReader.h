// SPDX-License-Identifier: MIT
// One reader per data format behind one interface: detect, sample counts from headers, the whole read.
#pragma once
#include "data/Dataset.h"
#include "dpu/DataFormats.h"
#include "dpu/DataReadObserver.h"
#include "dpu/DatasetSize.h"
#include "dpu/Plan.h"
#include "dpu/RunControl.h"
#include <cstdint>
#include <string>

namespace dpu::data {

/// Reads one data format (one DataKind). Its facts (label, the files a folder must hold, where
/// to get the data) are its entry of dpu/DataFormats.h; format() points there. Readers are
/// stateless singletons, listed once in the registry (data/DataReaders.h); a new format is a
/// new reader, its DataKind and its facts-table entry.
class DataReader {
public:
    virtual ~DataReader() = default;
    /// The kind it reads (the plan's dataset.kind).
    virtual DataKind kind() const = 0;
    /// Its facts: dpu/DataFormats.h's entry for kind(); isFile says whether it reads one file.
    const DataFormat& format() const { return dataFormat(kind()); }
    /// True when `path` holds this format, judged from names and at most a file's first bytes:
    /// a file for a one-file format, a folder otherwise (anything else: false).
    virtual bool detect(const std::string& path) const = 0;
    /// Train and test sample counts, read from headers where the format has them (else read as a
    /// run would), with the seeded hold-out when the data has no test split; before the spec's
    /// limits. Throws DataError naming the file.
    virtual DatasetSize size(const DatasetSpec& spec) const = 0;
    /// Reads every sample (before the spec's limits): both splits, the class count, a name.
    /// Throws DataError naming the file and the problem; a reader that takes long checks
    /// `control` (may be null) at its safe points and tells `observer` (may be null).
    virtual RawDataset read(const DatasetSpec& spec, const RunControl* control, DataReadObserver* observer) const = 0;
};

/// The name a file or folder gives its data: its last path component ("data.npz", "my-images").
std::string pathDatasetName(const std::string& path);

/// Train and test counts of `samples` split by the seeded hold-out of `testFraction` (what
/// holdOut() makes: round(n * fraction) test samples, at least 1 and at most n).
DatasetSize heldOutSize(int64_t samples, double testFraction);

/// What the three array readers (npy, npz, safetensors) share: readArrayData(), the class count
/// (countClasses) and the path's name. Throws DataError.
RawDataset readArrayDataset(const DatasetSpec& spec);

} // namespace dpu::data
