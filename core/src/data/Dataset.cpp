// SPDX-License-Identifier: MIT
// loadData: pick the reader for the spec's kind, apply the sample limits, count classes, normalise.
#include "data/Dataset.h"
#include "data/ArrayDataset.h"
#include "data/CifarReader.h"
#include "data/IdxReader.h"
#include "data/ImageFolder.h"
#include "data/Normalise.h"
#include "dpu/Error.h"
#include <algorithm>
#include <cctype>
#include <filesystem>

namespace dpu {

TensorDataset TensorDataset::select(const torch::Tensor& indices) const
{
    if (!labels.defined())
        return {};
    const auto idx = indices.to(torch::kInt64);
    return {images.index_select(0, idx).contiguous(), labels.index_select(0, idx).contiguous(), augment};
}

namespace {

data::RawSplit firstSamples(data::RawSplit split, int64_t limit)
{
    if (limit > 0 && limit < split.size()) {
        // contiguous() copies, so the rest of the file's bytes are freed with `split`.
        split.pixels = split.pixels.narrow(0, 0, limit).contiguous();
        split.labels = split.labels.narrow(0, 0, limit).contiguous();
    }
    return split;
}

/// A readable name for an IDX folder; the format itself does not say what it holds.
std::string idxDatasetName(const std::string& folder)
{
    auto base = std::filesystem::path(folder).lexically_normal().filename().string();
    if (base.empty())
        base = std::filesystem::path(folder).lexically_normal().parent_path().filename().string();
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

void checkLimit(int64_t limit, const char* path)
{
    if (limit < 0)
        throw PlanError(path, "expected 0 (all samples) or a positive count, found " + std::to_string(limit));
}

} // namespace

RawDataset readRawData(const DatasetSpec& spec, const RunControl* control, DataReadObserver* observer)
{
    checkLimit(spec.trainLimit, "dataset.train_limit");
    checkLimit(spec.testLimit, "dataset.test_limit");

    RawDataset out;
    data::RawData& raw = out.raw;
    std::string& name = out.name;
    if (spec.kind == DataKind::Idx) {
        raw = data::readIdxFolder(spec.path);
        // IDX files do not store the class count. Take the largest label in either split of
        // the whole files (before limits, so the model's output size does not depend on them)
        // plus one, and at least 10, so that a small MNIST-like subset missing the top
        // classes still gets the usual 10 outputs.
        const int64_t maxLabel = std::max(raw.train.labels.max().item<int64_t>(),
                                          raw.test.labels.max().item<int64_t>());
        out.classes = static_cast<int>(std::max<int64_t>(10, maxLabel + 1));
        name = idxDatasetName(spec.path);
    } else if (spec.kind == DataKind::Cifar10 || spec.kind == DataKind::Cifar100) {
        const bool c100 = spec.kind == DataKind::Cifar100;
        raw = data::readCifarFolder(spec.path, c100 ? data::CifarKind::Cifar100 : data::CifarKind::Cifar10);
        out.classes = c100 ? 100 : 10; // the readers reject labels outside this range
        name = c100 ? "CIFAR-100" : "CIFAR-10";
    } else if (spec.kind == DataKind::Npy || spec.kind == DataKind::Npz || spec.kind == DataKind::Safetensors) {
        raw = data::readArrayData(spec, &out.heldOut, &out.layout);
        out.classes = data::countClasses(raw, spec.classes, spec.path);
        name = std::filesystem::path(spec.path).lexically_normal().filename().string();
        if (name.empty())
            name = std::filesystem::path(spec.path).lexically_normal().parent_path().filename().string();
    } else { // DataKind::Images
        data::ImageFolderData images = data::readImageFolder(spec, control, observer);
        raw = std::move(images.raw);
        out.classes = static_cast<int>(images.classes.size());
        out.classNames = std::move(images.classes);
        out.heldOut = images.heldOut;
        name = std::filesystem::path(spec.path).lexically_normal().filename().string();
        if (name.empty())
            name = std::filesystem::path(spec.path).lexically_normal().parent_path().filename().string();
    }
    raw.train = firstSamples(std::move(raw.train), spec.trainLimit);
    raw.test = firstSamples(std::move(raw.test), spec.testLimit);
    return out;
}

LoadedData loadData(const DatasetSpec& spec, const RunControl* control, DataReadObserver* observer)
{
    RawDataset r = readRawData(spec, control, observer);
    data::RawData& raw = r.raw;
    LoadedData out;
    out.classes = r.classes;
    const std::string& name = r.name;

    // Both splits are normalised with the statistics of the training samples actually loaded
    // (after trainLimit): the test split must never inform preprocessing, and the loaded
    // training set is what the model is fitted to, so it comes out with mean 0 and std 1.
    const auto stats = data::statsFor(spec, raw.train.pixels);
    out.train = {data::normalise(raw.train.pixels, stats), raw.train.labels};
    out.test = {data::normalise(raw.test.pixels, stats), raw.test.labels};
    out.normalisation = stats;
    out.train.augment = spec.augment;
    out.shape = {static_cast<int>(raw.train.pixels.size(1)), static_cast<int>(raw.train.pixels.size(2)),
                 static_cast<int>(raw.train.pixels.size(3))};
    out.description = name + " (" + nameOf(spec.kind) + ") " + std::to_string(out.train.size()) + " train / " +
                      std::to_string(out.test.size()) + " test";
    return out;
}

} // namespace dpu
