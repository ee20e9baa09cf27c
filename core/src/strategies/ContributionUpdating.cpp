// SPDX-License-Identifier: MIT
// Deep Partial Updating (Alg. 1) and its global/local-only variants, one-shot or iterative.
#include "strategies/ContributionUpdating.h"
#include "dpu/Cost.h"
#include "strategies/BudgetFit.h"
#include "strategies/QuantAwareRefit.h"
#include "train/Evaluator.h"
#include "train/MaskSelection.h"
#include "train/Schedule.h"
#include "train/ShareSelection.h"
#include "train/Trainer.h"
#include "util/Rng.h"
#include <limits>

namespace dpu {
namespace {

std::vector<torch::Tensor> zerosLike(const std::vector<torch::Tensor>& like)
{
    std::vector<torch::Tensor> out(like.size());
    for (size_t i = 0; i < like.size(); ++i)
        if (like[i].defined())
            out[i] = torch::zeros_like(like[i], torch::MemoryFormat::Contiguous);
    return out;
}

/// Scores outside `masks` (where defined) ranked below every weight inside.
std::vector<torch::Tensor> within(std::vector<torch::Tensor> scores, const MaskSet& masks)
{
    for (size_t i = 0; i < scores.size(); ++i)
        if (scores[i].defined() && i < masks.size() && masks[i].defined())
            scores[i] = scores[i].masked_fill(masks[i] == 0, -std::numeric_limits<float>::infinity());
    return scores;
}

/// Weights in the tensors of more than one dimension (those a sparse model's pattern covers).
int64_t partialCount(const std::vector<torch::Tensor>& selectable)
{
    int64_t n = 0;
    for (const auto& t : selectable)
        if (t.defined() && t.dim() > 1)
            n += t.numel();
    return n;
}

/// c_global of Alg. 1: each selectable weight's squared move from the round's start.
std::vector<torch::Tensor> globalContribution(const std::vector<torch::Tensor>& partial, const std::vector<torch::Tensor>& start)
{
    torch::NoGradGuard guard;
    std::vector<torch::Tensor> global(partial.size());
    for (size_t i = 0; i < partial.size(); ++i)
        if (partial[i].defined())
            global[i] = (partial[i] - start[i]).square();
    return global;
}

/// The budget cannot hold even the always-shipped weights: nothing changes, and the candidate
/// never passes the deploy gate.
RoundOutput nothingFits(RoundOutput out, const std::vector<torch::Tensor>& scores, const Weights& start)
{
    out.fitsBudget = false;
    out.masks = topKMask(scores, 0);
    out.selected = 0;
    out.weights = cloneWeights(start);
    out.valAccuracy = -1;
    return out;
}

/// Every weight outside `masks` back to its start value (Alg. 1's rewind), in place.
void rewindTo(Network& net, const Weights& start, const MaskSet& masks)
{
    std::vector<torch::Tensor> params;
    for (auto& p : net.parameters())
        params.push_back(p.tensor);
    rewindInPlace(params, start.params, masks);
}

/// A sparse fine-tune step: the masks applied, its own shuffle per iteration, c_local collected
/// when another iteration follows, the best epoch kept on the last.
TrainOptions fineTuneOptions(const RoundInput& in, int iteration, const MaskSet& masks, std::vector<torch::Tensor>* local,
                             bool last)
{
    const uint64_t unitSeed = in.unitSeed;
    TrainOptions fine;
    fine.int8 = in.int8;
    fine.distill = in.distill;
    fine.phase = Phase::FineTune;
    fine.shuffleSeed = deriveSeed(unitSeed, 2, static_cast<uint64_t>(iteration));
    fine.masks = &masks;
    fine.localContribution = local;
    fine.selectBest = last;
    return fine;
}

} // namespace

RoundOutput ContributionUpdating::runRound(const RoundInput& in)
{
    Network& net = in.network;
    const bool fromServer = memory_ && in.server && !in.server->params.empty();
    restore(net, fromServer ? *in.server : in.start);
    const auto partial = selectableParams(net, in.selectDense);
    int64_t total = 0;
    for (const auto& p : partial)
        if (p.defined())
            total += p.numel();
    const bool budgeted = in.preview && in.budgetBytes >= 0;
    int64_t target = updatedCount(total, in.k);
    const bool needLocal = lambda_ < 1.0;

    // Step 1: train every weight from the start, collecting c_local along the path.
    std::vector<torch::Tensor> local = needLocal ? zerosLike(partial) : std::vector<torch::Tensor>{};
    TrainOptions full;
    full.phase = Phase::Full;
    full.shuffleSeed = deriveSeed(in.unitSeed, 1);
    full.localContribution = needLocal ? &local : nullptr;
    full.selectBest = false;
    full.masks = in.pattern; // a sparse model's zeros do not train
    full.int8 = in.int8;
    full.distill = in.distill;
    trainNetwork(net, in.train, in.validation, in.spec, full, in.ctx);

    RoundOutput out;
    out.selectable = total;
    if (memory_)
        out.server = snapshot(net);
    // A sparse model's zeros are never selected: the rounds choose among its nonzeros.
    int64_t remaining = in.pattern ? total - (partialCount(partial) - maskCount(*in.pattern)) : total;
    target = std::min(target, remaining);
    int iteration = 0;
    std::vector<torch::Tensor> scores;
    // Rewinding's steps before the last only choose what to keep; plan rewind_epochs shortens them.
    const TrainSpec stepSpec = shortenedSpec(in.spec, in.rewindEpochs);
    while (true) {
        scores = combineContributions(globalContribution(partial, in.start.params), local, lambda_);
        if (in.pattern)
            scores = within(std::move(scores), *in.pattern);
        if (!out.masks.empty()) // weights already rewound may not come back
            scores = within(std::move(scores), out.masks);
        if (budgeted && iteration == 0) {
            // The most valuable weights whose bundle fits, sized with the full step's values
            // (the fine-tune moves them a little; the final candidate is checked again below).
            const auto ranked = [&](int64_t n) { return sharedTopKMask(scores, n, in.kShare); };
            target = largestFitting(remaining, in.budgetBytes, snapshot(net), in.start, ranked, *in.preview);
            if (target < 0)
                return nothingFits(std::move(out), scores, in.start);
        }
        // The next share to keep: all at once (multi-round), or 80 % of what remains.
        const int64_t keep = iterative_ ? std::max<int64_t>(target, std::llround(0.8 * static_cast<double>(remaining)))
                                        : target;
        out.masks = sharedTopKMask(scores, keep, in.kShare);

        rewindTo(net, in.start, out.masks);

        const bool last = keep <= target;
        if (needLocal)
            local = zerosLike(partial);
        const TrainOptions fine = fineTuneOptions(in, iteration, out.masks, (!last && needLocal) ? &local : nullptr, last);
        const TrainResult r = trainNetwork(net, in.train, in.validation, last ? in.spec : stepSpec, fine, in.ctx);
        remaining = keep;
        ++iteration;
        if (last) {
            out.valAccuracy = r.bestValAccuracy;
            break;
        }
    }
    if (in.preview && in.quantAware)
        out.valAccuracy = quantAwareRefit(net, out.masks, *in.preview, in.train, in.validation, in.spec,
                                          deriveSeed(in.unitSeed, 4), in.ctx);
    if (budgeted) {
        const auto ranked = [&, kept = within(scores, out.masks)](int64_t n) { return sharedTopKMask(kept, n, in.kShare); };
        const int64_t before = maskCount(out.masks);
        out.fitsBudget = shrinkToBudget(net, in.start, before, in.budgetBytes, ranked, *in.preview, out.masks);
        if (maskCount(out.masks) != before) // the deploy gate must judge what ships
            out.valAccuracy = accuracy(net, in.validation);
    }
    out.selected = maskCount(out.masks);
    out.weights = snapshot(net);
    return out;
}

} // namespace dpu
