// SPDX-License-Identifier: MIT
// RunSession, part two: what a deployed round ships and costs (the cost model, its kind, an INT8 candidate's codes, the bundle, the layer counts).
#include "runs/BundlePaths.h"
#include "experiment/RunSession.h"
#include "experiment/FuTraining.h"
#include "train/Evaluator.h"
#include "train/Int8Quantiser.h"
#include "util/AtomicFile.h"
#include "util/Sha256Hex.h"
#include <algorithm>
#include <filesystem>

namespace dpu {

namespace {

/// The partial tensors' scale values (one per output channel) `a` and `b` hold differently: the
/// channels int8_rescale grew. A bias's scale (int8_biases codes) is set anew every round.
int64_t changedScaleCount(const Weights& a, const Weights& b)
{
    int64_t n = 0;
    for (size_t i = 0; i < a.scales.size() && i < b.scales.size(); ++i)
        if (a.scales[i].defined() && b.scales[i].defined() && a.params[i].dim() > 1)
            n += a.scales[i].ne(b.scales[i]).sum().item<int64_t>();
    return n;
}

} // namespace

void RunSession::priceTheModel()
{
    const auto params = network_->parameters();
    int8Grid_.unclamped.assign(params.size(), false);
    int8Grid_.biases = int8BiasCodes(plan_);
    std::vector<std::vector<int64_t>> partialShapes;
    int64_t denseWeights = 0;
    std::vector<int64_t> biasSizes;
    for (size_t i = 0; i < params.size(); ++i) {
        const auto& p = params[i];
        if (p.tensor.dim() > 1) {
            partialNames_.push_back(p.name);
            partialSizes_.push_back(p.tensor.numel());
            partialShapes.push_back(p.tensor.sizes().vec());
            if (form().quantiser == Quantiser::Int8PerChannel) {
                // int8_rescale output: the last partial tensor wins, as the loop goes on.
                if (plan_.int8Rescale == Int8Rescale::Output)
                    int8Grid_.unclamped.assign(params.size(), false);
                int8Grid_.unclamped[i] = plan_.int8Rescale != Int8Rescale::Never;
            }
        } else {
            denseWeights += p.tensor.numel();
            if (p.tensor.dim() == 1 && p.tensor.numel() > 0)
                biasSizes.push_back(p.tensor.numel());
        }
    }
    for (auto& b : network_->buffers())
        if (b.tensor.is_floating_point())
            denseWeights += b.tensor.numel();
    cost_ = deployedCostModel(partialShapes, denseWeights, plan_.deployed, plan_.deployedSparsity, plan_.int8Biases,
                              biasSizes);
}

void RunSession::deployUnit(RoundRecord& r, StrategyState& st, const UnitStart& start, const RoundOutput& out,
                            double candidateTest, int64_t budget)
{
    const int64_t grown = start.full ? 0 : changedScaleCount(out.weights, st.deployed);
    deployBundle(r, st, shippedKind(start, st), out.weights, start.full);
    if (budget >= 0 && r.bundleBytes > budget) // the preview wrote this very bundle
        throw InternalError("round " + std::to_string(r.round) + " of " + r.strategy + ": its bundle of "
                            + std::to_string(r.bundleBytes) + " bytes exceeds the round's budget of "
                            + std::to_string(budget));
    st.deployedVal = out.valAccuracy;
    st.deployedTest = candidateTest;
    if (isLossy(plan_.bundle.values)) { // lossy values: measure what the devices really run
        restore(*network_, st.deployed);
        st.deployedVal = accuracy(*network_, split_.validation);
        st.deployedTest = accuracy(*network_, split_.test);
    }
    if (start.reinit)
        st.lastReinitSamples = r.samples;
    r.layers = layerUpdates(start.full ? MaskSet{} : out.masks, true);
    for (const auto& l : r.layers)
        r.updatedWeights += l.updated;
    r.analyticBits = start.full ? deployedFullRoundBits(cost_) : partialRoundBits(cost_, r.k);
    if (grown > 0) { // int8_rescale: a grown channel's re-coded weights ship too, and its scale
        const double changed = static_cast<double>(r.updatedWeights) / static_cast<double>(cost_.partialWeights);
        r.analyticBits = partialRoundBits(cost_, std::max(r.k, changed)) + 32.0 * static_cast<double>(grown);
    }
}

void RunSession::quantiseCandidate(RoundOutput& out, const StrategyState& st, const UnitStart& start)
{
    // A full update brings its own scales; a partial one keeps the devices' scales and changes
    // codes, so what differs is what it ships. With int8_rescale, a channel whose weights outgrew
    // its scale (trained unclamped, int8GridOf()) gets a larger one and all of its codes anew.
    // A bias held as codes (int8_biases) gets the scale of its new values in every round.
    out.weights.scales = start.full ? int8Scales(out.weights.params, int8Grid_.biases)
                                    : st.deployed.scales; // tensors never written in place
    for (size_t i = 0; !start.full && i < out.weights.scales.size(); ++i) {
        if (int8Grid_.isUnclamped(i) && out.weights.scales[i].defined())
            out.weights.scales[i] = grownScale(out.weights.params[i], out.weights.scales[i]);
        if (int8Grid_.biases && out.weights.params[i].dim() == 1 && out.weights.scales[i].defined())
            out.weights.scales[i] = int8ScaleOf(out.weights.params[i]);
    }
    quantiseInPlace(out.weights);
    restore(*network_, out.weights);
    out.valAccuracy = accuracy(*network_, split_.validation); // the gate judges the INT8 model
    if (start.full)
        return;
    out.masks.assign(out.weights.params.size(), torch::Tensor());
    for (size_t i = 0; i < out.weights.params.size(); ++i) // the partial tensors' changed codes; biases ship unmasked
        if (out.weights.scales[i].defined() && out.weights.params[i].dim() > 1)
            out.masks[i] = out.weights.params[i].ne(st.deployed.params[i]).to(torch::kFloat);
}

void RunSession::judgeDecoded(RoundOutput& out, const StrategyState& st, const UnitStart& start, uint64_t seed)
{
    // The devices' current model is the decoded one (deployUnit() measures it so), and a
    // candidate's float weights can pass the gate while what its coding leaves of them would not.
    // The same bundle as deployBundle() would write (kind, base, seed, version): kept for it.
    judged_ = deviceUpdate_->write(shippedKind(start, st), st.deployed, out.weights, seed, st.deviceVersion + 1,
                                   start.full);
    restore(*network_, deviceUpdate_->decoded(*judged_, out.weights, device_));
    out.valAccuracy = accuracy(*network_, split_.validation);
}

bundle::Kind RunSession::shippedKind(const UnitStart& start, const StrategyState& st) const
{
    if (start.full && (start.singleBase || !form().fullUpdateIsDelta)) // INT8: codes and scales
        return bundle::Kind::Full;
    if (start.full) // a sparse model's vanilla update: the positions its new pattern changes
        return bundle::Kind::Delta;
    // The first deployment regenerates the seeded model too: it is what the devices start from.
    return start.reinit || st.deviceVersion == 0 ? bundle::Kind::ReinitDelta : bundle::Kind::Delta;
}

void RunSession::deployBundle(RoundRecord& r, StrategyState& st, bundle::Kind kind, const Weights& target,
                              bool wholeModel)
{
    const uint64_t version = st.deviceVersion + 1;
    DeviceUpdate::Result u = deviceUpdate_->build(kind, st.deployed, target, r.seed, version, device_,
                                                  judged_ ? &*judged_ : nullptr, wholeModel);
    judged_.reset();
    st.deployed = std::move(u.weights);
    st.deviceVersion = version;
    st.cumulativeBundleBytes += static_cast<int64_t>(u.bundle.size());
    r.bundleBytes = static_cast<int64_t>(u.bundle.size());
    r.bundleKind = kind == bundle::Kind::Full ? "full" : kind == bundle::Kind::Delta ? "delta" : "reinit+delta";
    // Hash the engine's own serialisation of its new deployed state (not the decoder's output):
    // whoever applies the bundles in order must arrive at exactly this file.
    r.deviceSha256 = sha256Hex(deviceUpdate_->deviceFile(st.deployed, version));
    if (plan_.bundle.write && !options_.outDir.empty()) {
        const std::string path = bundlepaths::roundFile(options_.outDir, r.seed, r.strategy, r.round);
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        writeFileAtomic(path, std::string(u.bundle.begin(), u.bundle.end()));
    }
}

std::vector<LayerUpdate> RunSession::layerUpdates(const MaskSet& masks, bool deployed) const
{
    std::vector<LayerUpdate> out;
    size_t k = 0;
    auto params = network_->parameters();
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].tensor.dim() <= 1)
            continue;
        LayerUpdate l{partialNames_[k], partialSizes_[k], partialSizes_[k]};
        if (!deployed)
            l.updated = 0;
        else if (i < masks.size() && masks[i].defined())
            l.updated = maskCount({masks[i]});
        out.push_back(l);
        ++k;
    }
    return out;
}

} // namespace dpu
