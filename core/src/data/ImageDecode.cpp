// SPDX-License-Identifier: MIT
// PNG through libpng's simplified reader, JPEG through TurboJPEG (both hardened by years of fuzzing), resizing with stb.
#include "data/ImageDecode.h"
#include "data/FileReader.h"
#include <png.h>
#include <turbojpeg.h>
#include <climits>
#include <cstring>

// stb_image_resize only does arithmetic on buffers decoded and checked above; stb_image's own
// decoders are not used: fuzz_image found an out-of-bounds write in Debian's (2022-09) JPEG
// Huffman table setup (tests/data/fuzz/image/stb-jpeg-huffman-overflow.jpg).
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb_image_resize.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace dpu::data {

namespace {

constexpr uint8_t kPngMagic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

bool isPng(const uint8_t* data, size_t size)
{
    return size >= 8 && std::memcmp(data, kPngMagic, 8) == 0;
}

bool isJpeg(const uint8_t* data, size_t size)
{
    return size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF;
}

[[noreturn]] void failDecode(const std::string& where, const std::string& why)
{
    failFile(where, "does not decode as PNG or JPEG (" + why + ")");
}

void checkSides(int w, int h, const std::string& where)
{
    if (w <= 0 || h <= 0 || w > kMaxImageSide || h > kMaxImageSide)
        failFile(where, "image of " + std::to_string(w) + "x" + std::to_string(h) + " pixels: expected each side in 1.." +
                            std::to_string(kMaxImageSide));
}

void checkKind(const uint8_t* data, size_t size, const std::string& where)
{
    if (size == 0)
        failDecode(where, "the file is empty");
    if (size > static_cast<size_t>(INT_MAX))
        failFile(where, "too large for an image file: " + std::to_string(size) + " bytes");
    if (!isPng(data, size) && !isJpeg(data, size))
        failDecode(where, "neither the PNG nor the JPEG signature");
}

/// libpng's simplified reader; frees its state on every path.
class PngReader {
public:
    PngReader(const uint8_t* data, size_t size, const std::string& where) : where_(where)
    {
        std::memset(&image_, 0, sizeof image_);
        image_.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_memory(&image_, data, size))
            failDecode(where, image_.message);
    }
    ~PngReader() { png_image_free(&image_); }
    PngReader(const PngReader&) = delete;
    PngReader& operator=(const PngReader&) = delete;

    int nativeChannels() const { return (image_.format & PNG_FORMAT_FLAG_COLOR) ? 3 : 1; }
    DecodedImage read(int channels)
    {
        checkSides(static_cast<int>(image_.width), static_cast<int>(image_.height), where_);
        image_.format = channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
        DecodedImage out;
        out.width = static_cast<int>(image_.width);
        out.height = static_cast<int>(image_.height);
        out.channels = channels;
        out.pixels.assign(PNG_IMAGE_SIZE(image_), 0);
        const png_color black{0, 0, 0}; // alpha is composited onto black
        if (!png_image_finish_read(&image_, &black, out.pixels.data(), 0, nullptr))
            failDecode(where_, image_.message);
        return out;
    }

private:
    png_image image_;
    const std::string& where_;
};

/// TurboJPEG; warnings (a truncated or corrupt stream) stop decoding instead of leaving gray blocks.
class JpegReader {
public:
    JpegReader(const uint8_t* data, size_t size, const std::string& where) : data_(data), size_(size), where_(where)
    {
        if (!handle_)
            failFile(where, "cannot start the JPEG decoder");
        int subsampling = 0;
        if (tjDecompressHeader3(handle_, data_, static_cast<unsigned long>(size_), &width_, &height_, &subsampling,
                                &colorspace_) != 0)
            failDecode(where, tjGetErrorStr2(handle_));
    }
    JpegReader(const JpegReader&) = delete;
    JpegReader& operator=(const JpegReader&) = delete;

    int nativeChannels() const { return colorspace_ == TJCS_GRAY ? 1 : 3; }
    DecodedImage read(int channels)
    {
        checkSides(width_, height_, where_);
        DecodedImage out;
        out.width = width_;
        out.height = height_;
        out.channels = channels;
        out.pixels.assign(static_cast<size_t>(width_) * static_cast<size_t>(height_) * static_cast<size_t>(channels), 0);
        const int flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS;
        if (tjDecompress2(handle_, data_, static_cast<unsigned long>(size_), out.pixels.data(), width_, 0, height_,
                          channels == 1 ? TJPF_GRAY : TJPF_RGB, flags) != 0)
            failDecode(where_, tjGetErrorStr2(handle_));
        return out;
    }

private:
    const uint8_t* data_;
    size_t size_;
    const std::string& where_;
    /// Owns the decoder apart from the reader: a constructor that throws (a corrupt header) runs
    /// no destructor of its own, and the fuzzer ran out of memory on the handles it leaked.
    struct Handle {
        tjhandle h = tjInitDecompress();
        Handle() = default;
        Handle(const Handle&) = delete;
        Handle& operator=(const Handle&) = delete;
        ~Handle()
        {
            if (h)
                tjDestroy(h);
        }
        operator tjhandle() const { return h; }
    } handle_;
    int width_ = 0, height_ = 0, colorspace_ = 0;
};

} // namespace

int imageChannels(const uint8_t* data, size_t size, const std::string& where)
{
    checkKind(data, size, where);
    if (isPng(data, size))
        return PngReader(data, size, where).nativeChannels();
    return JpegReader(data, size, where).nativeChannels();
}

DecodedImage decodeImage(const uint8_t* data, size_t size, int channels, const std::string& where)
{
    checkKind(data, size, where);
    if (isPng(data, size)) {
        PngReader r(data, size, where);
        return r.read(channels > 0 ? channels : r.nativeChannels());
    }
    JpegReader r(data, size, where);
    return r.read(channels > 0 ? channels : r.nativeChannels());
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
