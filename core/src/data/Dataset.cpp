// SPDX-License-Identifier: MIT
// loadData: the reader of the spec's kind, the sample limits, normalisation.
#include "data/Dataset.h"
#include "data/DataReaders.h"
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

    // The reader of the spec's kind (data/DataReaders.h) reads every sample; the limits apply here.
    RawDataset out = data::dataReader(spec.kind).read(spec, control, observer);
    data::RawData& raw = out.raw;
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
