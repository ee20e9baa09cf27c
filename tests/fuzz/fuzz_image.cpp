// SPDX-License-Identifier: MIT
// libFuzzer target: PNG and JPEG images decoded from memory by stb (byte 0 picks 0, 1 or 3 channels), and resized.
#include "data/ImageDecode.h"
#include "dpu/Error.h"
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    const int channels = data[0] % 3 == 2 ? 3 : data[0] % 3;
    try {
        const auto img = dpu::data::decodeImage(data + 1, size - 1, channels, "fuzz.img");
        if (img.pixels.size() != size_t(img.width) * size_t(img.height) * size_t(img.channels) ||
            (channels && img.channels != channels))
            std::abort();
        if (img.width * img.height <= 4096) // keep each run fast: resizing is not what is fuzzed
            (void)dpu::data::resizeImage(img, 5, 7);
    } catch (const dpu::Error&) {
    }
    return 0;
}
