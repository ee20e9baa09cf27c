// SPDX-License-Identifier: MIT
// The safetensors reader: one file with x and y tensors (the plan may name others), x_test and y_test when it has a test split.
#include "data/DataReaders.h"
#include "data/FileReader.h"
#include "data/SafetensorsArrays.h"
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <vector>

namespace dpu::data {
namespace {

class SafetensorsDataReader : public DataReader {
public:
    DataKind kind() const override { return DataKind::Safetensors; }

    /// A file named .safetensors, or whose 8-byte header length is followed by JSON's "{"; a
    /// ZIP archive (an .npz) is not one, whatever its name.
    bool detect(const std::string& path) const override
    {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec))
            return false;
        std::ifstream in(path, std::ios::binary);
        std::string magic(9, '\0');
        in.read(magic.data(), 9);
        magic.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
        if (magic.compare(0, 2, "PK") == 0)
            return false;
        return std::filesystem::path(path).extension() == ".safetensors" || (magic.size() == 9 && magic[8] == '{');
    }

    DatasetSize size(const DatasetSpec& spec) const override
    {
        const int64_t train = samples(spec, spec.x, {"x", "x_train"}, false);
        const int64_t test = samples(spec, spec.xTest, {"x_test"}, true);
        if (test < 0)
            return heldOutSize(train, spec.testFraction);
        return {train, test};
    }

    RawDataset read(const DatasetSpec& spec, const RunControl*, DataReadObserver*) const override
    {
        return readArrayDataset(spec);
    }

private:
    /// The leading dimension of a tensor, from the header only; -1 when `optional` and absent.
    static int64_t samples(const DatasetSpec& spec, const std::string& given, std::initializer_list<const char*> names,
                           bool optional)
    {
        FileReader in(spec.path);
        std::vector<uint8_t> head;
        in.readAppend(head, 8);
        uint64_t n = 0;
        for (size_t i = 0; i < head.size() && i < 8; ++i)
            n |= uint64_t{head[i]} << (8 * i);
        in.readAppend(head, std::min<uint64_t>(n, uint64_t{100} << 20));
        const auto index = parseSafetensorsHeader(head.data(), head.size(), spec.path);
        std::vector<std::string> tried = given.empty() ? std::vector<std::string>(names.begin(), names.end())
                                                       : std::vector<std::string>{given};
        for (const auto& name : tried) {
            const auto it = index.tensors.find(name);
            if (it != index.tensors.end())
                return it->second.shape.empty() ? 0 : it->second.shape[0];
        }
        if (optional && given.empty())
            return -1;
        failFile(spec.path, "missing tensor \"" + tried.front() + "\" (the file holds: " + safetensorsNames(index) + ")");
    }
};

} // namespace

const DataReader& safetensorsDataReader()
{
    static const SafetensorsDataReader reader;
    return reader;
}

} // namespace dpu::data
