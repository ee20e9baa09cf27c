// SPDX-License-Identifier: MIT
// The .npy reader: a folder of NumPy arrays (x.npy and y.npy, or x_train/y_train, and x_test/y_test).
#include "data/DataFolder.h"
#include "data/DataReaders.h"
#include "data/FileReader.h"
#include "data/NpyFormat.h"
#include <filesystem>
#include <initializer_list>
#include <vector>

namespace dpu::data {
namespace {

class NpyDataReader : public DataReader {
public:
    DataKind kind() const override { return DataKind::Npy; }

    bool detect(const std::string& path) const override
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        return fs::is_directory(path, ec)
               && (fs::exists(fs::path(path) / "x.npy", ec) || fs::exists(fs::path(path) / "x_train.npy", ec));
    }

    DatasetSize size(const DatasetSpec& spec) const override
    {
        requireFolder(spec.path);
        const auto x = arrayPath(spec, spec.x, {"x", "x_train"});
        if (x.empty())
            failFile(spec.path, "no array named \"x\" or \"x_train\" (x.npy, x_train.npy); name it with dataset.x");
        const auto xt = arrayPath(spec, spec.xTest, {"x_test"});
        if (xt.empty())
            return heldOutSize(samples(x), spec.testFraction);
        return {samples(x), samples(xt)};
    }

    RawDataset read(const DatasetSpec& spec, const RunControl*, DataReadObserver*) const override
    {
        return readArrayDataset(spec);
    }

private:
    /// The leading dimension of an .npy file, from its header only.
    static int64_t samples(const std::string& path)
    {
        FileReader in(path);
        std::vector<uint8_t> head;
        in.readAppend(head, uint64_t{1} << 20);
        const auto h = parseNpyHeader(head.data(), head.size(), path);
        if (h.shape.empty())
            failFile(path, "a 0-dimensional array: expected samples along the first dimension");
        return h.shape[0];
    }

    /// The file of the array `given` names (relative to the folder unless absolute, ".npy"
    /// added), or else of the first of `names` that exists; "" when none does.
    static std::string arrayPath(const DatasetSpec& spec, const std::string& given, std::initializer_list<const char*> names)
    {
        namespace fs = std::filesystem;
        const auto full = [&](const std::string& n) {
            std::string file = n.size() >= 4 && n.compare(n.size() - 4, 4, ".npy") == 0 ? n : n + ".npy";
            return fs::path(file).is_absolute() ? file : (fs::path(spec.path) / file).string();
        };
        if (!given.empty())
            return full(given);
        std::error_code ec;
        for (const char* n : names)
            if (fs::exists(full(n), ec))
                return full(n);
        return {};
    }
};

} // namespace

const DataReader& npyDataReader()
{
    static const NpyDataReader reader;
    return reader;
}

} // namespace dpu::data
