// SPDX-License-Identifier: MIT
// libFuzzer target: IDX images and labels files (raw or gzip) read from memory; byte 0 picks which reader.
#include "data/FileReader.h"
#include "data/IdxArray.h"
#include "dpu/Error.h"
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    try {
        // The memory source runs the same detection, inflation and parsing as a file does.
        dpu::data::FileReader in("fuzz.idx", data + 1, size - 1);
        const dpu::data::IdxArray a = (data[0] & 1) ? dpu::data::readIdxLabelArray(in) : dpu::data::readIdxImageArray(in);
        uint64_t expected = 1;
        for (uint32_t d : a.dims)
            expected *= d;
        if (a.bytes.size() != expected) // what was accepted must be what the header promised
            std::abort();
    } catch (const dpu::Error&) {
    }
    return 0;
}
