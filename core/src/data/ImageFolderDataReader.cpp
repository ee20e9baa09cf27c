// SPDX-License-Identifier: MIT
// The image-folder reader: one subfolder of PNG or JPEG images per class, and optionally test/ with the same subfolders.
#include "data/DataFolder.h"
#include "data/DataReaders.h"
#include "data/ImageFolder.h"
#include <filesystem>
#include <utility>

namespace dpu::data {
namespace {

class ImageFolderDataReader : public DataReader {
public:
    DataKind kind() const override { return DataKind::Images; }

    bool detect(const std::string& path) const override
    {
        std::error_code ec;
        return std::filesystem::is_directory(path, ec) && looksLikeImageFolder(path);
    }

    /// The image files the class folders list (nothing is decoded), with the hold-out when there
    /// is no test/ folder.
    DatasetSize size(const DatasetSpec& spec) const override
    {
        namespace fs = std::filesystem;
        requireFolder(spec.path);
        fs::path root(spec.path);
        const auto classes = classFolders(spec.path);
        if (classes.size() == 1 && classes[0] == "train" && !classFolders((root / "train").string()).empty())
            root /= "train";
        const int64_t train = imagesIn(root);
        std::error_code ec;
        const fs::path testRoot = root.filename() == "train" ? root.parent_path() / "test" : root / "test";
        if (!fs::is_directory(testRoot, ec))
            return heldOutSize(train, spec.testFraction);
        return {train, imagesIn(testRoot)};
    }

    RawDataset read(const DatasetSpec& spec, const RunControl* control, DataReadObserver* observer) const override
    {
        ImageFolderData images = readImageFolder(spec, control, observer);
        RawDataset out;
        out.raw = std::move(images.raw);
        out.classes = static_cast<int>(images.classes.size());
        out.classNames = std::move(images.classes);
        out.heldOut = images.heldOut;
        out.name = pathDatasetName(spec.path);
        return out;
    }

private:
    /// The image files of every class folder under `root`.
    static int64_t imagesIn(const std::filesystem::path& root)
    {
        int64_t n = 0;
        for (const auto& c : classFolders(root.string()))
            n += static_cast<int64_t>(imageFiles((root / c).string()).size());
        return n;
    }
};

} // namespace

const DataReader& imageFolderDataReader()
{
    static const ImageFolderDataReader reader;
    return reader;
}

} // namespace dpu::data
