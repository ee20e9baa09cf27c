// SPDX-License-Identifier: MIT
// libFuzzer target: .npy files parsed from memory (header dictionary, dtypes, byte order, sizes).
#include "data/NpyFormat.h"
#include "dpu/Error.h"
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        const dpu::data::NumArray a = dpu::data::parseNpy(data, size, "fuzz.npy");
        int64_t expected = 1;
        for (int64_t d : a.shape)
            expected *= d;
        if (a.numel() != expected) // what was accepted must be what the header promised
            std::abort();
        if (!a.toFloat().empty() && dpu::data::dtypeIsInteger(a.dtype))
            (void)a.toInt64("fuzz.npy");
    } catch (const dpu::Error&) {
    }
    return 0;
}
