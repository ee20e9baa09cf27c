// SPDX-License-Identifier: MIT
// estimateRound: the calibrated cost model where the plan's family has run, the coding's nominal bits where it has not.
#include "dpu/RoundEstimate.h"
#include "dpu/DeployedForms.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/Recommend.h"
#include "dpu/StrategyId.h"
#include "planning/FamilyFitter.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dpu {
namespace {

std::string firstPartialStrategy(const Plan& plan)
{
    for (const std::string& s : plan.strategies)
        if (!isBaseline(s))
            return s;
    return {};
}

const FrontierFamily* familyOf(const FrontierGroup& group, const std::string& strategy, const FamilyValues& values)
{
    for (const FrontierFamily& f : group.families)
        if (f.strategy == strategy && f.values == values)
            return &f;
    return nullptr;
}

/// Deployed rounds with a measured bundle: what planning::calibration() pools (0: it has none).
int calibrationRounds(const FrontierFamily& family)
{
    int rounds = 0;
    for (const FrontierPoint& p : family.points)
        if (p.realToAnalytic > 0)
            rounds += p.deployedRounds;
    return rounds;
}

std::string ratioText(double r)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", r);
    return buf;
}

/// Bundle bytes depend on the model and the coding far more than on the training, so runs of
/// the same model and data in another setting beat the nominal figure: the family among them
/// with the most calibrated rounds (nullptr: none), its ratio and the first plan difference.
const FrontierFamily* familyElsewhere(const std::vector<FrontierGroup>& groups, const Plan& plan, const std::string& strategy,
                                      const FamilyValues& values, double& ratio, std::string& elsewhere)
{
    const FrontierFamily* family = nullptr;
    int best = 0;
    for (const FrontierGroup& other : groups) {
        // The deployed form changes what a value and a position cost (8-bit codes, positions
        // among nonzeros): fp32 q4 runs once "calibrated" an INT8 plan's estimate.
        if (other.plan.model != plan.model || other.plan.widthMultiplier != plan.widthMultiplier ||
            other.plan.dataset.kind != plan.dataset.kind || other.plan.dataset.path != plan.dataset.path ||
            other.plan.deployed != plan.deployed || other.plan.deployedSparsity != plan.deployedSparsity)
            continue;
        const FrontierFamily* f = familyOf(other, strategy, values);
        const int rounds = f ? calibrationRounds(*f) : 0;
        if (rounds > best) {
            best = rounds;
            family = f;
            ratio = planning::calibration(*f);
            const std::vector<std::string> diff = planDifferences(other.plan, plan, frontierFreeKeys());
            elsewhere = diff.empty() ? std::string("another setting") : diff.front();
        }
    }
    return family;
}

/// The weights a round can change out of `pool` (the partial weights, with the dense tensors when
/// they join it): all of them, or on a sparse model its nonzeros (and those dense tensors).
double changeablePool(const CostModel& cost, double pool)
{
    return cost.nonzeroWeights > 0 ? static_cast<double>(cost.nonzeroWeights) + (pool - static_cast<double>(cost.partialWeights))
                                   : pool;
}

/// Bytes of the values alone where the coding ships them raw (fp32, fp16): what no coding of
/// the positions can save. 0 for the entropy-coded codings, whose values shrink too.
double rawValuesBytes(const CostModel& cost, const Plan& plan)
{
    if (plan.bundle.values != Coding::Fp32 && plan.bundle.values != Coding::Fp16)
        return 0;
    const double v = cost.valueBits != 32 ? cost.valueBits : plan.bundle.values == Coding::Fp32 ? 32 : 16;
    double pool = static_cast<double>(cost.partialWeights);
    double denseBits = denseRoundBits(cost);
    if (plan.bundle.denseTensors == DenseTensors::Partial) {
        pool += static_cast<double>(cost.denseWeights);
        denseBits = 0;
    }
    const double changed = std::min(std::round(std::clamp(plan.k, 0.0, 1.0) * pool), changeablePool(cost, pool));
    return (v * changed + denseBits) / 8;
}

} // namespace

namespace {

/// q8c is q8's grid with context-coded values and positions. Measured over the default run's four
/// DPU delta rounds (docs/benchmarks.md section 9, "Where the bytes go"): its values took 0.765
/// and its positions 0.662 of q8's bytes (0.79-0.82 of q8 in all on GCPU and the short run; 0.94
/// on RPU's random masks, where no context helps). Without them q8 and q8c read the same.
constexpr double kQ8cValueShare = 0.765;
constexpr double kQ8cPositionShare = 0.662;

} // namespace

double nominalValueBits(Coding coding)
{
    switch (coding) {
    case Coding::Fp32: return 32;
    case Coding::Fp16: return 16;
    case Coding::Q8: return 8;
    case Coding::Q8c: return 8 * kQ8cValueShare;
    case Coding::Q4: return 4;
    case Coding::Ternary: return std::log2(3.0);
    }
    DPU_UNREACHABLE("nominalValueBits: coding " + std::to_string(static_cast<int>(coding)) + " is not listed");
}

double nominalRoundBits(const CostModel& cost, const Plan& plan)
{
    const double v = cost.valueBits != 32 ? cost.valueBits : nominalValueBits(plan.bundle.values);
    double pool = static_cast<double>(cost.partialWeights);
    const double dense = static_cast<double>(cost.denseWeights);
    double denseBits = denseRoundBits(cost); // exact, or an INT8 model's biases as codes (int8_biases)
    if (plan.bundle.denseTensors == DenseTensors::Partial) {
        pool += dense; // biases compete for the same top-k
        denseBits = 0;
    } else if (plan.bundle.denseTensors == DenseTensors::Coded && isLossy(plan.bundle.values)) {
        denseBits = v * dense;
    }
    // A sparse model changes only its nonzeros: the positions are coded among them, as
    // partialRoundBits() prices it (on a dense model the pool is all weights and the share k).
    const double positionPool = changeablePool(cost, pool);
    const double changed = std::min(std::round(std::clamp(plan.k, 0.0, 1.0) * pool), positionPool);
    const double share = cost.nonzeroWeights > 0 ? (positionPool > 0 ? changed / positionPool : 0) : plan.k;
    const double positions = plan.bundle.values == Coding::Q8c ? kQ8cPositionShare : 1.0;
    return v * changed + positions * indexEntropyBits(share) * positionPool + denseBits;
}

RoundEstimate estimateRound(const Plan& plan, const CostModel& modelCost, const std::vector<FrontierGroup>& groups)
{
    RoundEstimate e;
    // A form with its own value codes (INT8's 8-bit codes) sends them whatever bundle.values says:
    // its records' analytic bits, which calibrate the estimate, count them so, and so must the
    // analytic figure the calibration scales.
    const DeployedFormInfo& form = deployedFormInfo(plan.deployed);
    CostModel cost = modelCost;
    if (form.ownValueCodes)
        cost.valueBits = form.valueBits;
    const std::string modelWords = cost.valueBits == 8 ? "the INT8 model" : "the fp32 model";
    const std::string strategy = firstPartialStrategy(plan);
    if (cost.partialWeights <= 0) {
        e.why = "the model's size is unknown";
        return e;
    }
    e.fullBytes = fullRoundBits(cost) / 8.0;
    if (strategy.empty()) {
        e.why = "the plan has no partial-updating strategy: every round ships the full model";
        return e;
    }
    if (!(plan.k > 0 && plan.k <= 1)) {
        e.why = "k must lie in (0, 1]";
        return e;
    }
    const FamilyValues values = familyValuesOf(strategy, plan);
    e.family = familyLabel(strategy, values);
    const double analytic = partialRoundBits(cost, plan.k) / 8.0;
    try {
        const int g = frontierGroupOf(groups, plan);
        const FrontierFamily* family = g >= 0 ? familyOf(groups[static_cast<size_t>(g)], strategy, values) : nullptr;
        double ratio = family ? planning::calibration(*family) : 0;
        std::string elsewhere;
        if (!(ratio > 0))
            family = familyElsewhere(groups, plan, strategy, values, ratio, elsewhere);
        if (ratio > 0) {
            e.basis = RoundEstimate::Basis::Calibrated;
            e.realToAnalytic = ratio;
            e.bytes = ratio * analytic;
            e.calibrationRounds = calibrationRounds(*family);
            e.why = "calibrated on " + std::to_string(e.calibrationRounds) + " deployed rounds of " + e.family +
                    " (real bytes " + ratioText(ratio) + " x " + modelWords + ")";
            if (!elsewhere.empty())
                e.why += " from runs of the same model and data in another setting (" + elsewhere + ")";
            // The ratio was measured where positions dominate (small k); fp32 and fp16 values
            // travel as they are, so near k = 1 a bundle cannot be smaller than its values (the
            // ratio alone put k = 1 at 2.27 MB for a 2.68 MB model).
            const double floor = rawValuesBytes(cost, plan);
            if (e.bytes < floor) {
                e.bytes = floor;
                e.why += "; at least the changed values themselves (" + humanBytes(floor) + ")";
            }
        } else {
            const bool exact = !isLossy(plan.bundle.values) && plan.bundle.denseTensors != DenseTensors::Partial;
            e.basis = exact ? RoundEstimate::Basis::Analytic : RoundEstimate::Basis::Nominal;
            e.bytes = nominalRoundBits(cost, plan) / 8.0;
            e.realToAnalytic = analytic > 0 ? e.bytes / analytic : 0;
            e.why = exact ? "the paper's model: " + std::to_string(cost.valueBits)
                                + " bits per changed weight and H(k) bits of positions per weight"
                          : plan.bundle.values == Coding::Q8c
                                ? "nominal for q8c: q8's 8 bits per changed value and H(k) bits of positions per weight, "
                                  "times the context coding's measured shares (0.765 of the values, 0.662 of the positions; run " +
                                      e.family + " to calibrate it)"
                                : "nominal for " + nameOf(plan.bundle.values) + ": " + ratioText(nominalValueBits(plan.bundle.values)) +
                                      " bits per changed value and H(k) bits of positions per weight (run " + e.family +
                                      " to calibrate it; context coding usually does better)";
            // A grown scale re-codes its whole channel, as many as training lets outgrow their
            // scales: no formula knows that count before a run (benchmarks.md section 21 measured
            // 0.0247 of FU's bytes with `output` against 0.0222 without).
            if (form.owns("int8_rescale") && plan.int8Rescale != Int8Rescale::Never)
                e.why += "; without the channels int8_rescale re-codes (more: run the plan to calibrate it)";
        }
    } catch (const std::exception& ex) {
        e = RoundEstimate{};
        e.why = ex.what();
        return e;
    }
    if (plan.budget.bytesPerRound > 0 && e.bytes > static_cast<double>(plan.budget.bytesPerRound)) {
        e.bytes = static_cast<double>(plan.budget.bytesPerRound);
        e.cappedByBudget = true;
        e.why += "; capped by the per-round budget of " + humanBytes(e.bytes);
    }
    return e;
}

double largestKForEstimate(Plan plan, const CostModel& cost, const std::vector<FrontierGroup>& groups, double budgetBytes)
{
    plan.budget = {}; // the search is the budget's own; the plan's would cap every estimate
    auto bytesAt = [&](double k) {
        plan.k = k;
        const RoundEstimate e = estimateRound(plan, cost, groups);
        return e.basis == RoundEstimate::Basis::None ? std::nan("") : e.bytes;
    };
    const double top = cost.nonzeroWeights > 0 && cost.partialWeights > 0
                           ? std::min(1.0, static_cast<double>(cost.nonzeroWeights) / static_cast<double>(cost.partialWeights))
                           : 1.0;
    constexpr double kSmallest = 1e-9;
    const double atSmallest = bytesAt(kSmallest);
    if (std::isnan(atSmallest))
        return largestKForBudget(cost, 8.0 * budgetBytes);
    if (!(atSmallest <= budgetBytes))
        return 0.0;
    if (bytesAt(top) <= budgetBytes)
        return top;
    // Rising in k where a budget binds (positions and values both grow below k = 1/2, and the
    // values outweigh the falling H(k) above it), as largestKForBudget's bisection assumes.
    double lo = 0.0, hi = top; // from 0 as largestKForBudget: the same k where the estimate is the paper's
    while (hi - lo > 1e-9) {
        const double mid = 0.5 * (lo + hi);
        if (bytesAt(mid) <= budgetBytes)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double roundKDown(double k)
{
    if (!(k > 0))
        return k;
    // Four significant digits, rounded down; the epsilon keeps 0.29 at 0.29.
    const double scale = std::pow(10.0, 3 - std::floor(std::log10(k)));
    const double down = std::floor(k * scale + 1e-7) / scale;
    return down > 0 ? down : k;
}

} // namespace dpu
