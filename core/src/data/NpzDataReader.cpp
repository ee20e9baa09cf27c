// SPDX-License-Identifier: MIT
// The .npz reader: a NumPy archive (stored or deflated) holding x and y, and x_test and y_test when it has a test split.
#include "data/DataReaders.h"
#include <filesystem>
#include <fstream>

namespace dpu::data {
namespace {

class NpzDataReader : public DataReader {
public:
    DataKind kind() const override { return DataKind::Npz; }

    /// A ZIP archive by its magic ("PK"), whatever its name.
    bool detect(const std::string& path) const override
    {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec))
            return false;
        std::ifstream in(path, std::ios::binary);
        char magic[2] = {0, 0};
        return in.read(magic, 2) && magic[0] == 'P' && magic[1] == 'K';
    }

    /// The members are compressed, so the archive is read as a run would (with its hold-out).
    DatasetSize size(const DatasetSpec& spec) const override
    {
        DatasetSpec all = spec;
        all.trainLimit = all.testLimit = 0;
        const RawDataset r = read(all, nullptr, nullptr);
        return {r.raw.train.size(), r.raw.test.size()};
    }

    RawDataset read(const DatasetSpec& spec, const RunControl*, DataReadObserver*) const override
    {
        return readArrayDataset(spec);
    }
};

} // namespace

const DataReader& npzDataReader()
{
    static const NpzDataReader reader;
    return reader;
}

} // namespace dpu::data
