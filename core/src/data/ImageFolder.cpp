// SPDX-License-Identifier: MIT
// Image folders: class subfolders, decoding, one size per data set, the optional test/ folder or a hold-out.
#include "data/ImageFolder.h"
#include "data/ArrayDataset.h"
#include "data/DataFolder.h"
#include "data/FileReader.h"
#include "data/ImageDecode.h"
#include "data/NpyFormat.h"
#include "util/RunControlWait.h"
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace dpu::data {

namespace fs = std::filesystem;

namespace {

bool isImageFile(const fs::path& p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

/// The folder holding the class folders and the test/ folder (or "" when there is none).
std::pair<std::string, std::string> roots(const std::string& path)
{
    const fs::path p(path);
    const auto classes = classFolders(path);
    // root/train/<class>/... (+ root/test/<class>/...): the train folder is the class root.
    if (classes.size() == 1 && classes[0] == "train" && !classFolders((p / "train").string()).empty())
        return {(p / "train").string(), isDir(p / "test") ? (p / "test").string() : std::string()};
    return {path, isDir(p / "test") ? (p / "test").string() : std::string()};
}

struct Reader {
    Reader(const DatasetSpec& s, const RunControl* c, DataReadObserver* o) : spec(s), control(c), observer(o) {}
    const DatasetSpec& spec;
    const RunControl* control;
    DataReadObserver* observer;
    int channels = 0, height = 0, width = 0; // fixed by the first image unless the spec sets them
    std::string firstImage;

    void readClass(const std::string& folder, int64_t label, std::vector<uint8_t>& pixels, std::vector<int64_t>& labels)
    {
        for (const auto& file : imageFiles(folder)) {
            // A folder of 100,000 photos decodes for minutes: a stop need not wait.
            checkRunControl(control, [this](bool paused) {
                if (observer)
                    observer->readPaused(paused);
            });
            const auto bytes = readArrayFileBytes(file);
            if (channels == 0)
                channels = spec.channels > 0 ? spec.channels : imageChannels(bytes.data(), bytes.size(), file);
            DecodedImage img = decodeImage(bytes.data(), bytes.size(), channels, file);
            if (height == 0) {
                height = spec.imageHeight > 0 ? spec.imageHeight : img.height;
                width = spec.imageWidth > 0 ? spec.imageWidth : img.width;
                firstImage = file;
            }
            if (spec.imageHeight > 0)
                img = resizeImage(img, width, height);
            else if (img.height != height || img.width != width)
                failFile(file, "image size mismatch: " + std::to_string(img.width) + "x" + std::to_string(img.height) +
                                   " pixels, but " + firstImage + " has " + std::to_string(width) + "x" +
                                   std::to_string(height) + " (set dataset.image_size to resize them all)");
            // HWC -> CHW, the layout the models read.
            const size_t plane = static_cast<size_t>(height) * static_cast<size_t>(width);
            const size_t at = pixels.size();
            pixels.resize(at + plane * static_cast<size_t>(channels));
            for (size_t i = 0; i < plane; ++i)
                for (int c = 0; c < channels; ++c)
                    pixels[at + static_cast<size_t>(c) * plane + i] = img.pixels[i * static_cast<size_t>(channels) + static_cast<size_t>(c)];
            labels.push_back(label);
            if (observer)
                observer->imageRead();
        }
    }

    RawSplit split(const std::vector<uint8_t>& pixels, std::vector<int64_t>& labels) const
    {
        const auto n = static_cast<int64_t>(labels.size());
        RawSplit out;
        out.pixels = torch::from_blob(const_cast<uint8_t*>(pixels.data()), {n, channels, height, width}, torch::kUInt8).clone();
        out.labels = torch::from_blob(labels.data(), {n}, torch::kInt64).clone();
        return out;
    }
};

} // namespace

std::vector<std::string> imageFiles(const std::string& classFolder)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(classFolder, ec))
        if (e.path().filename().string().rfind('.', 0) != 0 && isImageFile(e.path()) && !isDir(e.path()))
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> classFolders(const std::string& root)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root, ec)) {
        const std::string name = e.path().filename().string();
        if (name != "test" && name.rfind('.', 0) != 0 && isDir(e.path()))
            out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool looksLikeImageFolder(const std::string& folder)
{
    const auto [root, test] = roots(folder);
    for (const auto& c : classFolders(root))
        if (!imageFiles((fs::path(root) / c).string()).empty())
            return true;
    return false;
}

ImageFolderData readImageFolder(const DatasetSpec& spec, const RunControl* control, DataReadObserver* observer)
{
    requireFolder(spec.path);
    const auto [root, testRoot] = roots(spec.path);
    ImageFolderData out;
    out.classes = classFolders(root);
    if (out.classes.empty())
        failFile(root, "no class folders: expected one subfolder of PNG or JPEG images per class");
    if (spec.classes != 0 && spec.classes != static_cast<int>(out.classes.size()))
        failFile(root, std::to_string(out.classes.size()) + " class folders, but dataset.classes is " + std::to_string(spec.classes));
    Reader reader(spec, control, observer);
    std::vector<uint8_t> pixels;
    std::vector<int64_t> labels;
    for (size_t c = 0; c < out.classes.size(); ++c) {
        const std::string folder = (fs::path(root) / out.classes[c]).string();
        const size_t before = labels.size();
        reader.readClass(folder, static_cast<int64_t>(c), pixels, labels);
        if (labels.size() == before)
            failFile(folder, "class \"" + out.classes[c] + "\" has no samples: no .png, .jpg or .jpeg files");
    }
    RawSplit train = reader.split(pixels, labels);
    if (testRoot.empty()) {
        out.heldOut = true;
        out.raw = holdOut(train, spec.testFraction, spec.path);
        return out;
    }
    pixels.clear();
    labels.clear();
    for (const auto& name : classFolders(testRoot)) {
        const auto it = std::find(out.classes.begin(), out.classes.end(), name);
        const std::string folder = (fs::path(testRoot) / name).string();
        if (it == out.classes.end())
            failFile(folder, "test class \"" + name + "\" has no training folder in " + root);
        reader.readClass(folder, it - out.classes.begin(), pixels, labels);
    }
    if (labels.empty())
        failFile(testRoot, "no test samples: expected class subfolders of PNG or JPEG images");
    out.raw = {std::move(train), reader.split(pixels, labels)};
    return out;
}

} // namespace dpu::data
