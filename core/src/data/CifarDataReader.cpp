// SPDX-License-Identifier: MIT
// The CIFAR-10 and CIFAR-100 readers (binary versions): fixed-size records in a folder, raw or gzip.
#include "data/CifarReader.h"
#include "data/DataFolder.h"
#include "data/DataReaders.h"
#include "data/FileReader.h"
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace dpu::data {
namespace {

/// One reader class for both CIFAR formats: they differ in file names, label bytes and classes.
class CifarDataReader : public DataReader {
public:
    explicit CifarDataReader(bool hundred) : hundred_(hundred) {}

    DataKind kind() const override { return hundred_ ? DataKind::Cifar100 : DataKind::Cifar10; }

    bool detect(const std::string& path) const override
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        if (!fs::is_directory(path, ec))
            return false;
        const fs::path p(path);
        const std::string& first = format().expectedFiles.front(); // data_batch_1.bin, train.bin
        return fs::exists(p / first, ec) || fs::exists(p / (first + ".gz"), ec) || fs::exists(p / format().nestedFolder, ec);
    }

    /// The expected files (dpu/DataFormats.h) are the training files, then the test file.
    DatasetSize size(const DatasetSpec& spec) const override
    {
        requireFolder(spec.path);
        const std::vector<std::string>& files = format().expectedFiles;
        const auto dir = descendIfPresent(spec.path, format().nestedFolder, files.front());
        const int labelBytes = hundred_ ? 2 : 1; // CIFAR-100: coarse and fine label
        DatasetSize size;
        for (size_t i = 0; i + 1 < files.size(); ++i)
            size.train += records(findFile(dir, {files[i]}, true), labelBytes);
        size.test = records(findFile(dir, {files.back()}, true), labelBytes);
        return size;
    }

    RawDataset read(const DatasetSpec& spec, const RunControl*, DataReadObserver*) const override
    {
        RawDataset out;
        out.raw = readCifarFolder(spec.path, hundred_ ? CifarKind::Cifar100 : CifarKind::Cifar10);
        out.classes = hundred_ ? 100 : 10; // the readers reject labels outside this range
        out.name = hundred_ ? "CIFAR-100" : "CIFAR-10";
        return out;
    }

private:
    /// Bytes of the file's content: its size, or for gzip the size the trailer records (modulo
    /// 2^32, ample for CIFAR's 30 MB files).
    static uint64_t contentBytes(const std::string& path)
    {
        FileReader probe(path);
        if (!probe.compressed())
            return probe.diskSize();
        std::ifstream in(path, std::ios::binary);
        in.seekg(-4, std::ios::end);
        unsigned char t[4] = {0, 0, 0, 0};
        if (!in.read(reinterpret_cast<char*>(t), 4))
            failFile(path, "truncated: no gzip trailer");
        return uint64_t{t[0]} | (uint64_t{t[1]} << 8) | (uint64_t{t[2]} << 16) | (uint64_t{t[3]} << 24);
    }

    /// The records in one file, from its size alone.
    static int64_t records(const std::string& path, int labelBytes)
    {
        constexpr int64_t kPixels = 3 * 32 * 32;
        const uint64_t record = static_cast<uint64_t>(labelBytes + kPixels);
        const uint64_t bytes = contentBytes(path);
        if (bytes == 0 || bytes % record != 0)
            failFile(path, "size mismatch: " + std::to_string(bytes) + " bytes is not a whole number of "
                               + std::to_string(record) + "-byte records");
        return static_cast<int64_t>(bytes / record);
    }

    bool hundred_;
};

} // namespace

const DataReader& cifar10DataReader()
{
    static const CifarDataReader reader(false);
    return reader;
}

const DataReader& cifar100DataReader()
{
    static const CifarDataReader reader(true);
    return reader;
}

} // namespace dpu::data
