// SPDX-License-Identifier: MIT
// libFuzzer target: IDX images and labels files (raw or gzip); byte 0 picks which reader.
#include "FuzzFile.h"
#include "data/IdxArray.h"
#include "dpu/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    const std::string path = dpu::fuzz::asFile(data + 1, size - 1);
    try {
        const dpu::data::IdxArray a = (data[0] & 1) ? dpu::data::readIdxLabelArray(path) : dpu::data::readIdxImageArray(path);
        uint64_t expected = 1;
        for (uint32_t d : a.dims)
            expected *= d;
        if (a.bytes.size() != expected) // what was accepted must be what the header promised
            std::abort();
    } catch (const dpu::Error&) {
    }
    return 0;
}
