// SPDX-License-Identifier: MIT
// Named arrays in one container: a folder of .npy files, an .npz archive or a safetensors file.
#pragma once
#include "data/NumArray.h"
#include "dpu/Plan.h"
#include <memory>
#include <string>

namespace dpu::data {

/// Named arrays of one container, opened once (archives and safetensors files are read whole).
class ArrayContainer {
public:
    virtual ~ArrayContainer() = default;
    /// Whether an array of that name is there ("x" finds x.npy in folders and archives).
    virtual bool has(const std::string& name) const = 0;
    /// The array, parsed and checked; throws DataError naming where() and the problem.
    virtual NumArray get(const std::string& name) const = 0;
    /// How errors name the array: "/d/x.npy", "/d/a.npz:x.npy", "/d/f.safetensors:x".
    virtual std::string where(const std::string& name) const = 0;
    /// The names present, comma-separated (for messages).
    virtual std::string listing() const = 0;
};

/// The container `spec.path` is for spec.kind "npy" (a folder), "npz" or "safetensors" (a file).
/// Throws DataError naming the path when it is missing or not of that kind.
std::unique_ptr<ArrayContainer> openArrayContainer(const DatasetSpec& spec);

} // namespace dpu::data
