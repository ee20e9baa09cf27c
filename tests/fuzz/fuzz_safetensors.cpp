// SPDX-License-Identifier: MIT
// libFuzzer target: the safetensors reader; a file it accepts, written back, reads back the same.
#include "bundle/SafetensorsFile.h"
#include "dpu/Error.h"
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using dpu::bundle::SafetensorsFile;
using dpu::bundle::TensorData;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<uint8_t> file(data, data + size);
    std::vector<TensorData> tensors;
    std::map<std::string, std::string> metadata;
    try {
        tensors = SafetensorsFile::read(file, nullptr, &metadata);
    } catch (const dpu::Error&) {
        return 0;
    }
    const std::vector<TensorData> again = SafetensorsFile::read(SafetensorsFile::write(tensors, metadata));
    if (again.size() != tensors.size())
        std::abort();
    for (size_t i = 0; i < again.size(); ++i) {
        const TensorData& a = tensors[i];
        const TensorData& b = again[i];
        // Bit patterns, not float equality: a NaN must survive too.
        if (a.name != b.name || a.shape != b.shape || a.dtype != b.dtype || a.codes != b.codes ||
            a.values.size() != b.values.size() ||
            (!a.values.empty() && std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) != 0))
            std::abort();
    }
    return 0;
}
