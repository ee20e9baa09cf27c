// SPDX-License-Identifier: MIT
// Dataset kind detection, the probe the plan form shows, and the one-forward-pass model fit check.
#include "dpu/DataProbe.h"
#include "data/ArrayDataset.h"
#include "data/Dataset.h"
#include "data/FileReader.h"
#include "data/ImageFolder.h"
#include "dpu/Error.h"
#include "models/Network.h"
#include <filesystem>
#include <fstream>

namespace dpu {

namespace fs = std::filesystem;

namespace {

bool pathExists(const fs::path& p)
{
    std::error_code ec;
    return fs::exists(p, ec);
}

bool existsRawOrGz(const fs::path& folder, const std::string& name)
{
    return pathExists(folder / name) || pathExists(folder / (name + ".gz"));
}

/// The first bytes of a file (fewer when it is shorter).
std::string head(const fs::path& p, size_t n)
{
    std::ifstream in(p, std::ios::binary);
    std::string out(n, '\0');
    in.read(out.data(), static_cast<std::streamsize>(n));
    out.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return out;
}

DataKind detectFile(const fs::path& p)
{
    const std::string ext = p.extension().string();
    const std::string magic = head(p, 9);
    if (magic.compare(0, 2, "PK") == 0)
        return DataKind::Npz;
    if (ext == ".safetensors" || (magic.size() == 9 && magic[8] == '{'))
        return DataKind::Safetensors;
    if (magic.size() >= 6 && static_cast<unsigned char>(magic[0]) == 0x93 && magic.compare(1, 5, "NUMPY") == 0)
        data::failFile(p.string(), "a single .npy file: choose the folder holding x.npy and y.npy (dataset kind npy)");
    data::failFile(p.string(), "not a dataset file: expected an .npz archive or a .safetensors file (or a folder)");
}

} // namespace

DataKind detectDatasetKind(const std::string& path)
{
    std::error_code ec;
    const fs::path p(path);
    const auto status = fs::status(p, ec);
    if (ec || !fs::exists(status))
        data::failFile(path, "does not exist");
    if (fs::is_regular_file(status))
        return detectFile(p);
    if (!fs::is_directory(status))
        data::failFile(path, "not a file or folder");
    if (existsRawOrGz(p, "train-images-idx3-ubyte") || existsRawOrGz(p, "train-images.idx3-ubyte"))
        return DataKind::Idx;
    if (pathExists(p / "data_batch_1.bin") || pathExists(p / "data_batch_1.bin.gz") || pathExists(p / "cifar-10-batches-bin"))
        return DataKind::Cifar10;
    if (pathExists(p / "train.bin") || pathExists(p / "train.bin.gz") || pathExists(p / "cifar-100-binary"))
        return DataKind::Cifar100;
    if (pathExists(p / "x.npy") || pathExists(p / "x_train.npy"))
        return DataKind::Npy;
    if (data::looksLikeImageFolder(path))
        return DataKind::Images;
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

std::string modelFitProblem(const std::string& model, const InputShape& shape, int classes, double widthMultiplier)
{
    try {
        torch::NoGradGuard noGrad;
        auto network = createNetwork({model, shape, classes, widthMultiplier});
        network->setTraining(false);
        const auto out = network->forward(torch::zeros({2, shape.channels, shape.height, shape.width}));
        if (out.dim() != 2 || out.size(0) != 2 || out.size(1) != classes) {
            std::string got;
            for (int64_t d : out.sizes())
                got += (got.empty() ? "" : ", ") + std::to_string(d);
            return model + ": its output has shape [" + got + "] for 2 samples, expected [2, " + std::to_string(classes) + "] (" +
                   std::to_string(classes) + " classes)";
        }
        return {};
    } catch (const std::exception& e) {
        std::string what = e.what();
        // LibTorch's messages carry a C++ backtrace after the first line: the first line says it.
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what = what.substr(0, nl);
        return model + " does not fit samples of " + std::to_string(shape.channels) + "x" + std::to_string(shape.height) + "x" +
               std::to_string(shape.width) + ": " + what;
    }
}

} // namespace dpu
