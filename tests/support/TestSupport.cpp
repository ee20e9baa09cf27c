// SPDX-License-Identifier: MIT
// Shared test helpers: fixture locations, tolerances, file and IDX builders.
#include "TestSupport.h"
#include <zlib.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace dpu::test {

std::string dataDir()
{
    if (const char* env = std::getenv("DPU_TEST_DATA"))
        return env;
    return DPU_TEST_DATA_DIR;
}

std::string fashionMnistDir()
{
    const std::string dir = "/usr/share/datasets/fashion-mnist";
    return std::filesystem::exists(dir + "/train-images-idx3-ubyte.gz") ? dir : std::string();
}

bool near(double a, double b, double abs, double rel)
{
    return std::abs(a - b) <= abs + rel * std::max(std::abs(a), std::abs(b));
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes)
{
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
        std::filesystem::create_directories(parent);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

std::vector<uint8_t> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> idxBytes(uint8_t typeCode, const std::vector<uint32_t>& dims,
                              const std::vector<uint8_t>& data)
{
    std::vector<uint8_t> out{0, 0, typeCode, static_cast<uint8_t>(dims.size())};
    for (uint32_t d : dims)
        for (int shift = 24; shift >= 0; shift -= 8)
            out.push_back(static_cast<uint8_t>(d >> shift));
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::vector<uint8_t> gzip(const std::vector<uint8_t>& bytes)
{
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    std::vector<uint8_t> out(deflateBound(&zs, static_cast<uLong>(bytes.size())) + 32);
    zs.next_in = const_cast<Bytef*>(bytes.data());
    zs.avail_in = static_cast<uInt>(bytes.size());
    zs.next_out = out.data();
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("deflate failed");
    out.resize(zs.total_out);
    return out;
}

} // namespace dpu::test
