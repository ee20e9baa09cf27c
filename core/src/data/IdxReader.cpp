// SPDX-License-Identifier: MIT
// MNIST-format IDX folders as tensors: the files parsed by IdxArray, train and test checked against each other.
#include "data/IdxReader.h"
#include "data/DataFolder.h"
#include "data/FileReader.h"
#include "data/IdxArray.h"
#include "dpu/Error.h"
#include <vector>

namespace dpu::data {

torch::Tensor readIdxImages(const std::string& path)
{
    IdxArray a = readIdxImageArray(path);
    return torch::from_blob(a.bytes.data(), {int64_t{a.dims[0]}, 1, int64_t{a.dims[1]}, int64_t{a.dims[2]}}, torch::kUInt8)
        .clone();
}

torch::Tensor readIdxLabels(const std::string& path)
{
    IdxArray a = readIdxLabelArray(path);
    return torch::from_blob(a.bytes.data(), {int64_t{a.dims[0]}}, torch::kUInt8).to(torch::kInt64);
}

std::string findIdxFile(const std::string& folder, const std::string& base)
{
    // Some mirrors spell the names "train-images.idx3-ubyte"; accept both spellings.
    std::vector<std::string> names{base};
    if (const auto pos = base.rfind("-idx"); pos != std::string::npos)
        names.push_back(base.substr(0, pos) + "." + base.substr(pos + 1));
    return findFile(folder, names, true);
}

RawData readIdxFolder(const std::string& folder)
{
    requireFolder(folder);
    RawData out;
    std::string trainImagesPath;
    for (const char* prefix : {"train", "t10k"}) {
        const auto imagesPath = findIdxFile(folder, std::string(prefix) + "-images-idx3-ubyte");
        const auto labelsPath = findIdxFile(folder, std::string(prefix) + "-labels-idx1-ubyte");
        RawSplit split{readIdxImages(imagesPath), readIdxLabels(labelsPath)};
        if (split.pixels.size(0) != split.labels.size(0))
            failFile(imagesPath, "wrong count: " + std::to_string(split.pixels.size(0)) + " images, but " +
                                     labelsPath + " holds " + std::to_string(split.labels.size(0)) +
                                     " labels");
        if (out.train.pixels.defined() &&
            (split.pixels.size(2) != out.train.pixels.size(2) || split.pixels.size(3) != out.train.pixels.size(3)))
            failFile(imagesPath, "image size mismatch: " + std::to_string(split.pixels.size(2)) + "x" +
                                     std::to_string(split.pixels.size(3)) + ", but " + trainImagesPath +
                                     " has " + std::to_string(out.train.pixels.size(2)) + "x" +
                                     std::to_string(out.train.pixels.size(3)));
        if (!out.train.pixels.defined()) {
            out.train = std::move(split);
            trainImagesPath = imagesPath;
        } else {
            out.test = std::move(split);
        }
    }
    return out;
}

} // namespace dpu::data
