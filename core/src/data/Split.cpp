// SPDX-License-Identifier: MIT
// The seeded validation/test split, the arrival order of training samples and the round schedule.
#include "data/Dataset.h"
#include "dpu/Error.h"
#include "util/Rng.h"
#include <algorithm>
#include <limits>

namespace dpu {

namespace {

torch::Tensor indexTensor(const std::vector<int64_t>& v)
{
    return torch::from_blob(const_cast<int64_t*>(v.data()), {static_cast<int64_t>(v.size())}, torch::kInt64)
        .clone();
}

} // namespace

DataSplit splitData(const LoadedData& data, const SplitSpec& split, uint64_t seed)
{
    const int64_t testSize = data.test.size();
    if (split.validation < 0)
        throw PlanError("split.validation", "expected 0 or more samples, found " + std::to_string(split.validation));
    if (split.validation >= testSize)
        throw PlanError("split.validation", "expected fewer than " + std::to_string(testSize) +
                                                " (the size of the test split, so that test samples remain), found " +
                                                std::to_string(split.validation));

    // Stream 1 picks the validation samples, stream 2 the arrival order: independent, so
    // changing one size never reshuffles the other.
    const auto perm = Rng(deriveSeed(seed, 1)).permutation(testSize);
    std::vector<int64_t> validation(perm.begin(), perm.begin() + split.validation);
    std::vector<int64_t> test(perm.begin() + split.validation, perm.end());
    // Subsets keep the original order of the test split: evaluation does not depend on
    // order, and a sorted gather reads memory front to back.
    std::sort(validation.begin(), validation.end());
    std::sort(test.begin(), test.end());

    DataSplit out;
    out.validation = data.test.select(indexTensor(validation));
    out.test = data.test.select(indexTensor(test));
    out.arrivalOrder = arrivalOrder(data.train.size(), seed);
    return out;
}

torch::Tensor arrivalOrder(int64_t trainSize, uint64_t seed)
{
    return indexTensor(Rng(deriveSeed(seed, 2)).permutation(trainSize));
}

data::ChannelStats firstRoundStats(const LoadedData& data, const SplitSpec& split, uint64_t seed)
{
    const int64_t n = std::min(split.initial, data.train.size());
    const auto first = arrivalOrder(data.train.size(), seed).narrow(0, 0, n).to(data.train.images.device());
    return data::channelStats(data.train.images.index_select(0, first));
}

TensorDataset normalisedWith(const TensorDataset& d, const data::ChannelStats& stats)
{
    return {data::normalise(d.images, stats), d.labels, d.augment};
}

int64_t roundSamples(const SplitSpec& split, int round)
{
    if (round < 1)
        return 0;
    const int64_t later = round - 1;
    // Saturate instead of overflowing, so an absurd plan is "does not fit" rather than UB.
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    if (split.perRound > 0 && later > (kMax - std::max<int64_t>(split.initial, 0)) / split.perRound)
        return kMax;
    return split.initial + later * split.perRound;
}

int scheduledRounds(const SplitSpec& split, int64_t trainSize)
{
    int rounds = 0;
    while (rounds < split.rounds && roundSamples(split, rounds + 1) <= trainSize)
        ++rounds;
    return rounds;
}

} // namespace dpu
