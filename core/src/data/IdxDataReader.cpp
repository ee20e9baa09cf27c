// SPDX-License-Identifier: MIT
// The IDX reader (MNIST format): a folder of train-/t10k- images and labels, raw or gzip.
#include "data/DataFolder.h"
#include "data/DataReaders.h"
#include "data/FileReader.h"
#include "data/IdxReader.h"
#include <algorithm>
#include <cctype>
#include <filesystem>

namespace dpu::data {
namespace {

class IdxDataReader : public DataReader {
public:
    DataKind kind() const override { return DataKind::Idx; }

    bool detect(const std::string& path) const override
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        if (!fs::is_directory(path, ec))
            return false;
        for (const char* name : {"train-images-idx3-ubyte", "train-images.idx3-ubyte"})
            for (const char* ext : {"", ".gz"})
                if (fs::exists(fs::path(path) / (std::string(name) + ext), ec))
                    return true;
        return false;
    }

    DatasetSize size(const DatasetSpec& spec) const override
    {
        requireFolder(spec.path);
        return {labelCount(findIdxFile(spec.path, "train-labels-idx1-ubyte")),
                labelCount(findIdxFile(spec.path, "t10k-labels-idx1-ubyte"))};
    }

    RawDataset read(const DatasetSpec& spec, const RunControl*, DataReadObserver*) const override
    {
        RawDataset out;
        out.raw = readIdxFolder(spec.path);
        // IDX files do not store the class count. Take the largest label in either split of
        // the whole files (before limits, so the model's output size does not depend on them)
        // plus one, and at least 10, so that a small MNIST-like subset missing the top
        // classes still gets the usual 10 outputs.
        const int64_t maxLabel = std::max(out.raw.train.labels.max().item<int64_t>(),
                                          out.raw.test.labels.max().item<int64_t>());
        out.classes = static_cast<int>(std::max<int64_t>(10, maxLabel + 1));
        out.name = datasetName(spec.path);
        return out;
    }

private:
    /// The sample count in an IDX labels file's 8-byte header.
    static int64_t labelCount(const std::string& path)
    {
        constexpr uint32_t kLabelsMagic = 0x00000801;
        FileReader in(path);
        uint8_t header[8];
        if (in.read(header, sizeof header) < sizeof header)
            in.fail("truncated: the file ends inside the 8-byte IDX labels header");
        const uint32_t magic = (uint32_t{header[0]} << 24) | (uint32_t{header[1]} << 16) | (uint32_t{header[2]} << 8) | header[3];
        if (magic != kLabelsMagic)
            in.fail("bad magic: expected 0x00000801 (unsigned-byte labels, 1 dimension)");
        return (int64_t{header[4]} << 24) | (int64_t{header[5]} << 16) | (int64_t{header[6]} << 8) | header[7];
    }

    /// A readable name for an IDX folder; the format itself does not say what it holds.
    static std::string datasetName(const std::string& folder)
    {
        const std::string base = pathDatasetName(folder);
        std::string lower = base;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower.find("fashion") != std::string::npos)
            return "Fashion-MNIST";
        if (lower.find("kmnist") != std::string::npos)
            return "Kuzushiji-MNIST";
        if (lower.find("mnist") != std::string::npos)
            return "MNIST";
        return base.empty() ? std::string("IDX data") : base;
    }
};

} // namespace

const DataReader& idxDataReader()
{
    static const IdxDataReader reader;
    return reader;
}

} // namespace dpu::data
