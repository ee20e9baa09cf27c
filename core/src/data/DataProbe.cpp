// SPDX-License-Identifier: MIT
// Dataset kind detection through the readers' registry, and the probe the plan form shows.
#include "dpu/DataProbe.h"
#include "data/DataReaders.h"
#include "data/Dataset.h"
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <algorithm>
#include <filesystem>
#include <string>
#include <fstream>

namespace dpu {

namespace fs = std::filesystem;

namespace {

/// The first bytes of a file (fewer when it is shorter).
std::string head(const fs::path& p, size_t n)
{
    std::ifstream in(p, std::ios::binary);
    std::string out(n, '\0');
    in.read(out.data(), static_cast<std::streamsize>(n));
    out.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return out;
}

} // namespace

DataKind detectDatasetKind(const std::string& path)
{
    std::error_code ec;
    const fs::path p(path);
    const auto status = fs::status(p, ec);
    if (ec || !fs::exists(status))
        data::failFile(path, "does not exist");
    const bool isFile = fs::is_regular_file(status);
    if (!isFile && !fs::is_directory(status))
        data::failFile(path, "not a file or folder");
    // Each reader judges its own format, in DataKind order (an image folder, the loosest, last).
    for (const data::DataReader* reader : data::dataReaders())
        if (reader->format().isFile == isFile && reader->detect(path))
            return reader->kind();
    if (isFile) {
        const std::string magic = head(p, 6);
        if (magic.size() == 6 && static_cast<unsigned char>(magic[0]) == 0x93 && magic.compare(1, 5, "NUMPY") == 0)
            data::failFile(path, "a single .npy file: choose the folder holding x.npy and y.npy (dataset kind npy)");
        data::failFile(path, "not a dataset file: expected an .npz archive or a .safetensors file (or a folder)");
    }
    data::failFile(path, "no dataset found: expected MNIST-format IDX files (train-images-idx3-ubyte), CIFAR binary "
                         "batches, x.npy and y.npy, or one subfolder of PNG/JPEG images per class");
}

DataProbe probeDataset(const DatasetSpec& spec, const RunControl* control, DataReadObserver* observer)
{
    RawDataset r = readRawData(spec, control, observer);
    DataProbe out;
    out.kind = spec.kind;
    out.name = r.name;
    out.train = r.raw.train.size();
    out.test = r.raw.test.size();
    out.heldOut = r.heldOut;
    const auto& px = r.raw.train.pixels;
    out.shape = {static_cast<int>(px.size(1)), static_cast<int>(px.size(2)), static_cast<int>(px.size(3))};
    out.layout = r.layout.empty() ? std::string("nchw") : r.layout;
    out.dtype = px.scalar_type() == torch::kUInt8 ? "uint8" : "float32";
    out.classes = r.classes;
    const auto trainCounts = torch::bincount(r.raw.train.labels, {}, r.classes);
    const auto testCounts = torch::bincount(r.raw.test.labels, {}, r.classes);
    for (int c = 0; c < r.classes; ++c)
        out.perClass.push_back({c < static_cast<int>(r.classNames.size()) ? r.classNames[static_cast<size_t>(c)] : std::to_string(c),
                                trainCounts[c].item<int64_t>(), testCounts[c].item<int64_t>()});
    out.description = r.name + " (" + nameOf(spec.kind) + ") " + std::to_string(out.train) + " train / " + std::to_string(out.test) +
                      " test" + (r.heldOut ? " (held out)" : "");
    return out;
}

} // namespace dpu
