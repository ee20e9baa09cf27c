// SPDX-License-Identifier: MIT
// stb_image and stb_image_resize compiled here, PNG and JPEG only, reading from memory.
#include "data/ImageDecode.h"
#include "data/FileReader.h"
#include <climits>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS 4096
#define STBI_FAILURE_USERMSG
// stb is third-party code: its warnings are not ours to fix.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#endif
#include <stb_image.h>
#include <stb_image_resize.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace dpu::data {

namespace {

int checkedSize(size_t size, const std::string& where)
{
    if (size > static_cast<size_t>(INT_MAX))
        failFile(where, "too large for an image file: " + std::to_string(size) + " bytes");
    if (size == 0)
        failFile(where, "does not decode as PNG or JPEG: the file is empty");
    return static_cast<int>(size);
}

[[noreturn]] void failDecode(const std::string& where)
{
    const char* why = stbi_failure_reason();
    failFile(where, std::string("does not decode as PNG or JPEG (") + (why ? why : "unknown reason") + ")");
}

} // namespace

int imageChannels(const uint8_t* data, size_t size, const std::string& where)
{
    int w = 0, h = 0, c = 0;
    if (!stbi_info_from_memory(data, checkedSize(size, where), &w, &h, &c))
        failDecode(where);
    return c <= 2 ? 1 : 3;
}

DecodedImage decodeImage(const uint8_t* data, size_t size, int channels, const std::string& where)
{
    const int n = checkedSize(size, where);
    int w = 0, h = 0, c = 0;
    if (!stbi_info_from_memory(data, n, &w, &h, &c))
        failDecode(where);
    if (w <= 0 || h <= 0 || w > kMaxImageSide || h > kMaxImageSide)
        failFile(where, "image of " + std::to_string(w) + "x" + std::to_string(h) + " pixels: expected each side in 1.." +
                            std::to_string(kMaxImageSide));
    const int want = channels > 0 ? channels : (c <= 2 ? 1 : 3);
    unsigned char* p = stbi_load_from_memory(data, n, &w, &h, &c, want);
    if (!p)
        failDecode(where);
    DecodedImage out;
    out.width = w;
    out.height = h;
    out.channels = want;
    out.pixels.assign(p, p + static_cast<size_t>(w) * static_cast<size_t>(h) * static_cast<size_t>(want));
    stbi_image_free(p);
    return out;
}

DecodedImage resizeImage(const DecodedImage& image, int width, int height)
{
    if (image.width == width && image.height == height)
        return image;
    DecodedImage out;
    out.width = width;
    out.height = height;
    out.channels = image.channels;
    out.pixels.resize(static_cast<size_t>(width) * static_cast<size_t>(height) * static_cast<size_t>(image.channels));
    stbir_resize_uint8(image.pixels.data(), image.width, image.height, 0, out.pixels.data(), width, height, 0,
                       image.channels);
    return out;
}

} // namespace dpu::data
