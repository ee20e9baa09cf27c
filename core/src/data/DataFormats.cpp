// SPDX-License-Identifier: MIT
// The data formats' facts (labels, expected files, where to get them) and the check of a path by names alone.
#include "dpu/DataFormats.h"
#include "dpu/InternalCheck.h"
#include <filesystem>

namespace dpu {
namespace {

namespace fs = std::filesystem;

bool pathThere(const fs::path& p)
{
    std::error_code ec;
    return fs::exists(p, ec);
}

/// Anything under the name counts (the reader then says what is wrong with it), gzipped too.
bool present(const fs::path& dir, const std::string& name)
{
    return pathThere(dir / name) || pathThere(dir / (name + ".gz"));
}

/// The IDX reader also accepts "train-images.idx3-ubyte" for "train-images-idx3-ubyte".
std::string otherIdxSpelling(const std::string& name)
{
    const size_t pos = name.rfind("-idx");
    return pos == std::string::npos ? std::string() : name.substr(0, pos) + "." + name.substr(pos + 1);
}

std::vector<DataFormat> makeFormats()
{
    std::vector<DataFormat> f(7);
    f[0] = {DataKind::Idx, "IDX", "MNIST format (IDX), raw or .gz", false, true,
            {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}, "",
            "An MNIST-format folder holds train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and "
            "t10k-labels-idx1-ubyte (each may be .gz). Fashion-MNIST: Debian's dataset-fashion-mnist package installs it "
            "in /usr/share/datasets/fashion-mnist."};
    f[1] = {DataKind::Cifar10, "CIFAR-10", "CIFAR-10, binary version", false, true,
            {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin",
             "test_batch.bin"},
            "cifar-10-batches-bin",
            "Get the CIFAR-10 binary version (cifar-10-binary.tar.gz, https://www.cs.toronto.edu/~kriz/cifar.html) and "
            "unpack it: the folder is the one holding data_batch_1.bin … data_batch_5.bin and test_batch.bin, or its "
            "parent with cifar-10-batches-bin/ in it."};
    f[2] = {DataKind::Cifar100, "CIFAR-100", "CIFAR-100, binary version", false, true, {"train.bin", "test.bin"},
            "cifar-100-binary",
            "Get the CIFAR-100 binary version (cifar-100-binary.tar.gz, https://www.cs.toronto.edu/~kriz/cifar.html) and "
            "unpack it: the folder is the one holding train.bin and test.bin, or its parent with cifar-100-binary/ in it."};
    f[3] = {DataKind::Npy, ".npy", "A folder of NumPy .npy files (x.npy, y.npy, ...)", false, false, {}, "",
            "A .npy folder holds x.npy and y.npy (or x_train.npy and y_train.npy), and x_test.npy and y_test.npy when it "
            "has a test split (docs/own-data.md)."};
    f[4] = {DataKind::Npz, ".npz", "A NumPy .npz archive, stored or deflated", true, false, {}, "",
            "An .npz archive (numpy.savez or savez_compressed) with x and y (or x_train and y_train), and x_test and "
            "y_test when it has a test split (docs/own-data.md)."};
    f[5] = {DataKind::Safetensors, "safetensors", "A safetensors file with x and y tensors", true, false, {}, "",
            "A .safetensors file with x and y tensors (the plan may name others) (docs/own-data.md)."};
    f[6] = {DataKind::Images, "images", "Image folders, one per class (PNG or JPEG)", false, false, {}, "",
            "An image folder holds one subfolder of PNG or JPEG images per class, and optionally test/ with the same "
            "subfolders (docs/own-data.md)."};
    f[0].fixedShape = {1, 28, 28};
    f[0].fixedClasses = 10;
    f[1].fixedShape = f[2].fixedShape = {3, 32, 32};
    f[1].fixedClasses = 10;
    f[2].fixedClasses = 100;
    return f;
}

/// quickDataCheck() without the advice.
std::string missingData(const DataFormat& f, const std::string& path)
{
    std::error_code ec;
    const bool there = fs::exists(path, ec), folder = fs::is_directory(path, ec);
    if (f.isFile) // the rest (magic, arrays, labels) is the probe's to say: it reads every byte
        return !there ? "file not found" : folder ? "a folder: this kind is one file" : "";
    if (!there)
        return "folder not found";
    if (!folder)
        return "not a folder";
    if (f.expectedFiles.empty())
        return ""; // npy and images: the probe reads what is there
    fs::path dir(path);
    // The CIFAR archives unpack into a subfolder; the readers descend into it (as here).
    if (!f.nestedFolder.empty() && !pathThere(dir / f.expectedFiles.front()) && fs::is_directory(dir / f.nestedFolder, ec))
        dir /= f.nestedFolder;
    std::string missing;
    for (const std::string& name : f.expectedFiles) {
        const std::string other = f.kind == DataKind::Idx ? otherIdxSpelling(name) : std::string();
        if (!present(dir, name) && (other.empty() || !present(dir, other)))
            missing += (missing.empty() ? "" : ", ") + name;
    }
    if (missing.empty())
        return "";
    const std::string what = f.kind == DataKind::Idx ? "MNIST-format (IDX)" : f.label + " binary";
    return "no " + what + " data here: missing " + missing + " (.gz also accepted)";
}

} // namespace

const std::vector<DataFormat>& dataFormats()
{
    static const std::vector<DataFormat> formats = makeFormats();
    return formats;
}

const DataFormat& dataFormat(DataKind kind)
{
    for (const DataFormat& f : dataFormats())
        if (f.kind == kind)
            return f;
    DPU_UNREACHABLE("dataFormat: data kind " + std::to_string(static_cast<int>(kind)) + " has no entry");
}

std::string quickDataCheck(DataKind kind, const std::string& path)
{
    const DataFormat& f = dataFormat(kind);
    const std::string found = missingData(f, path);
    // The IDX message already lists the files it misses; CIFAR users mostly lack the download.
    std::error_code ec;
    const bool advise = !found.empty() && (kind != DataKind::Idx || !fs::is_directory(path, ec));
    return advise ? found + ". " + f.whereToGet : found;
}

} // namespace dpu
