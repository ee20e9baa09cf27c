// SPDX-License-Identifier: MIT
// PNG (libpng) and JPEG (TurboJPEG) decoding from memory, and resizing (stb_image_resize), without LibTorch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

/// Images larger than this on a side are refused before decoding.
constexpr int kMaxImageSide = 4096;

/// 8-bit pixels, row-major, channels interleaved (height x width x channels).
struct DecodedImage {
    int width = 0, height = 0, channels = 0;
    std::vector<uint8_t> pixels;
};

/// Decodes a PNG or JPEG image to `channels` (1 gray, 3 RGB; 0: 1 for gray and gray+alpha
/// images, 3 for colour ones; alpha is composited onto black). Throws DataError "<where>: does not
/// decode as PNG or JPEG (<reason>)" for anything else and for truncated or corrupt data (a JPEG
/// decoder warning counts), or "<where>: image of WxH pixels" for a side over kMaxImageSide.
DecodedImage decodeImage(const uint8_t* data, size_t size, int channels, const std::string& where);

/// The channel count decodeImage(..., 0, ...) would give, from the header alone; throws as decodeImage.
int imageChannels(const uint8_t* data, size_t size, const std::string& where);

/// `image` resized to width x height with stb_image_resize's default filters (deterministic:
/// the same input gives the same bytes).
DecodedImage resizeImage(const DecodedImage& image, int width, int height);

} // namespace dpu::data
