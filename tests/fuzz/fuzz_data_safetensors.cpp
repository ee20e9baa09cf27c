// SPDX-License-Identifier: MIT
// libFuzzer target: safetensors data files (any dtype) from memory: the header and every tensor it lists.
#include "data/SafetensorsArrays.h"
#include "dpu/Error.h"
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        const auto index = dpu::data::parseSafetensorsHeader(data, size, "fuzz.safetensors");
        for (const auto& [name, entry] : index.tensors) {
            try {
                const auto a = dpu::data::safetensorsArray(data, size, index, name, "fuzz.safetensors");
                if (a.bytes.size() != entry.end - entry.begin)
                    std::abort();
                (void)a.toFloat();
            } catch (const dpu::Error&) {
            }
        }
    } catch (const dpu::Error&) {
    }
    return 0;
}
