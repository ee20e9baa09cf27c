// SPDX-License-Identifier: MIT
// The data formats the engine reads, described once: names, the files each needs, and a check that reads no byte.
#pragma once
#include "dpu/PlanEnums.h"
#include "dpu/Shape.h"
#include <string>
#include <vector>

namespace dpu {

/// What the engine knows of one data format before reading any of it. The form, the CLI and
/// the readers take these facts from here, so no caller mirrors a reader's file names.
struct DataFormat {
    DataKind kind = DataKind::Idx;
    std::string label;                      ///< short, for lists: "IDX", "CIFAR-10", ".npz"
    std::string summary;                    ///< one line: "MNIST format (IDX), raw or .gz"
    bool isFile = false;                    ///< one file (npz, safetensors), not a folder
    bool sizedFromHeaders = false;          ///< readDatasetSize() reads headers only: cheap on every edit
    std::vector<std::string> expectedFiles; ///< files a folder must hold (each may be .gz); none: read to know
    std::string nestedFolder;               ///< the subfolder its archive unpacks into, searched too
    std::string whereToGet;                 ///< where the data comes from and what its path holds
    /// Formats whose samples always have one shape and class count (CIFAR; IDX as MNIST has
    /// them, the probe says otherwise): what a model can be sized for before any byte is read.
    /// fixedClasses 0: known only once the data is read.
    InputShape fixedShape{};
    int fixedClasses = 0;
};

/// Every format, in the order of DataKind (the form lists them so).
const std::vector<DataFormat>& dataFormats();

/// The format of `kind`.
const DataFormat& dataFormat(DataKind kind);

/// Why `path` cannot hold data of `kind`, judged from names alone (no byte is read, so it can
/// run on every keystroke): "folder not found", "a folder: this kind is one file", or which of
/// the expected files are missing, followed by where to get the data. Empty when it may hold it;
/// the readers still have the last word. Never throws.
std::string quickDataCheck(DataKind kind, const std::string& path);

} // namespace dpu
