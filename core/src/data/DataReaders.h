// SPDX-License-Identifier: MIT
// The registry of data readers: one per DataKind, in DataKind order.
#pragma once
#include "data/DataReader.h"
#include <vector>

namespace dpu::data {

/// Every reader, one per DataKind, in DataKind order (the order kind detection tries them:
/// an image folder, the loosest test, comes last).
const std::vector<const DataReader*>& dataReaders();

/// The reader of `kind`.
const DataReader& dataReader(DataKind kind);

/// Each reader's one instance, defined in its own file (IdxDataReader.cpp, ...).
const DataReader& idxDataReader();
const DataReader& cifar10DataReader();
const DataReader& cifar100DataReader();
const DataReader& npyDataReader();
const DataReader& npzDataReader();
const DataReader& safetensorsDataReader();
const DataReader& imageFolderDataReader();

} // namespace dpu::data
