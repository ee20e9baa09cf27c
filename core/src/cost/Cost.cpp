// SPDX-License-Identifier: MIT
// Analytic communication cost (paper Sec. 5 "Indexing") and the budget inversion.
#include "dpu/Cost.h"
#include "dpu/DeployedForms.h"
#include <algorithm>
#include <cmath>

namespace dpu {

double indexEntropyBits(double k)
{
    k = std::clamp(k, 0.0, 1.0);
    if (k <= 0.0 || k >= 1.0)
        return 0.0;
    return -k * std::log2(k) - (1.0 - k) * std::log2(1.0 - k);
}

int64_t updatedCount(int64_t partialWeights, double k)
{
    k = std::clamp(k, 0.0, 1.0);
    return static_cast<int64_t>(std::llround(k * static_cast<double>(partialWeights)));
}

int64_t keptAtSparsity(int64_t numel, double sparsity)
{
    sparsity = std::clamp(sparsity, 0.0, 1.0);
    return numel - static_cast<int64_t>(std::llround(sparsity * static_cast<double>(numel)));
}

double denseRoundBits(const CostModel& model)
{
    const auto coded = static_cast<double>(model.codedDenseWeights);
    return 32.0 * (static_cast<double>(model.denseWeights) - coded) + model.valueBits * coded
           + 32.0 * static_cast<double>(model.codedDenseScales);
}

double partialRoundBits(const CostModel& model, double k)
{
    const double dense = denseRoundBits(model);
    if (model.nonzeroWeights > 0) { // a position among N nonzeros: the device knows the pattern
        const int64_t n = std::min(updatedCount(model.partialWeights, k), model.nonzeroWeights);
        const double N = static_cast<double>(model.nonzeroWeights);
        return 32.0 * static_cast<double>(n) + indexEntropyBits(static_cast<double>(n) / N) * N + dense;
    }
    const double I = static_cast<double>(model.partialWeights);
    return model.valueBits * static_cast<double>(updatedCount(model.partialWeights, k)) + indexEntropyBits(k) * I
           + dense;
}

CostModel deployedCostModel(const std::vector<std::vector<int64_t>>& partialShapes, int64_t denseWeights,
                            DeployedForm form, double sparsity, Int8Biases biases,
                            const std::vector<int64_t>& biasSizes)
{
    const DeployedFormInfo& info = deployedFormInfo(form);
    CostModel model;
    model.denseWeights = denseWeights;
    model.valueBits = info.valueBits;
    for (const std::vector<int64_t>& shape : partialShapes) {
        int64_t numel = 1;
        for (const int64_t d : shape)
            numel *= d;
        model.partialWeights += numel;
        if (info.keptMask == KeptMask::Zeros)
            model.nonzeroWeights += keptAtSparsity(numel, sparsity);
        if (!shape.empty())
            model.scaleValues += info.scalesPerChannel * shape[0];
    }
    if (biasesAsCodes(form, biases))
        for (const int64_t n : biasSizes) {
            model.codedDenseWeights += n;
            model.codedDenseScales += 1;
        }
    return model;
}

double fullRoundBits(const CostModel& model)
{
    return 32.0 * static_cast<double>(model.partialWeights + model.denseWeights);
}

double deployedFullRoundBits(const CostModel& model)
{
    if (model.valueBits != 32 && model.nonzeroWeights <= 0)
        return model.valueBits * static_cast<double>(model.partialWeights) + 32.0 * static_cast<double>(model.scaleValues)
               + denseRoundBits(model);
    if (model.nonzeroWeights <= 0)
        return fullRoundBits(model);
    return 32.0 * static_cast<double>(model.nonzeroWeights + model.denseWeights)
           + static_cast<double>(model.partialWeights);
}

double largestKForBudget(const CostModel& model, double budgetBits)
{
    if (!(budgetBits >= partialRoundBits(model, 0.0)))
        return 0.0;
    // A sparse model changes at most its N nonzeros: k = N / I is the most a round can use.
    const double top = model.nonzeroWeights > 0 && model.partialWeights > 0
                           ? std::min(1.0, static_cast<double>(model.nonzeroWeights) / static_cast<double>(model.partialWeights))
                           : 1.0;
    if (budgetBits >= partialRoundBits(model, top))
        return top;
    // The cost rises monotonically on [0, 1/2] where H(k) rises too; past 1/2 the 32 bits per
    // changed weight outweigh the falling H(k) for any model with I >= 1, so bisection holds.
    double lo = 0.0, hi = top;
    while (hi - lo > 1e-9) {
        const double mid = 0.5 * (lo + hi);
        if (partialRoundBits(model, mid) <= budgetBits)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

} // namespace dpu
