// SPDX-License-Identifier: MIT
// The device weight file: safetensors with F32 (and I8) tensors in a fixed order and a byte-exact header.
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dpu::bundle {

class SafetensorsFile {
public:
    /// Header bytes (8-byte little-endian length + compact JSON padded with spaces so the data
    /// starts at a multiple of 8): "__metadata__" first, then tensors in the given order, each
    /// {"dtype":"F32","shape":[...],"data_offsets":[begin,end]} with contiguous offsets ("I8" and
    /// one byte per element for an I8 tensor). Throws dpu::Error when a shape and its values disagree.
    static std::vector<uint8_t> header(const std::vector<TensorData>& tensors,
                                       const std::map<std::string, std::string>& metadata);
    /// The whole file: header() then every tensor's values as little-endian float32 (I8: its codes).
    static std::vector<uint8_t> write(const std::vector<TensorData>& tensors,
                                      const std::map<std::string, std::string>& metadata);
    /// The metadata the bundle writer puts in a device file.
    static std::map<std::string, std::string> deviceMetadata(const std::string& model,
                                                             const std::string& compat,
                                                             uint64_t updateVersion);
    /// Parses a file written by write() (any valid safetensors file with F32 and I8 tensors): tensors in
    /// data-offset order. `dataStart` receives the offset of the first data byte. Throws
    /// dpu::Error naming the problem for anything malformed.
    static std::vector<TensorData> read(const std::vector<uint8_t>& file, uint64_t* dataStart = nullptr,
                                        std::map<std::string, std::string>* metadata = nullptr);
};

} // namespace dpu::bundle
