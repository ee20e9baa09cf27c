// SPDX-License-Identifier: MIT
// The plan fields of the update bundles and the byte budgets.
#include "plan/PlanFieldBuilders.h"
#include "plan/PlanFieldParts.h"
#include "dpu/DeployedForms.h"

namespace dpu::plan {

namespace {

bool lossy(const Plan& p)
{
    return isLossy(p.bundle.values);
}

std::string foundValues(const Plan& p)
{
    return "bundle.values \"" + nameOf(p.bundle.values) + "\"";
}

/// bundle.values codes the values unless the deployed form carries codes of its own (INT8's).
bool codedByPlan(const Plan& p)
{
    return !deployedFormInfo(p.deployed).ownValueCodes;
}

/// A byte budget applies where the deployed form takes one (not yet INT8's).
bool formTakesBudget(const Plan& p)
{
    return deployedFormInfo(p.deployed).takesBudget;
}

/// The biases are the plan's to ship (exact, ranked or coded) unless the deployed form holds them
/// as codes of its own, re-coded every round (an INT8 model under int8_biases codes).
bool biasesShippedByPlan(const Plan& p)
{
    return !biasesAsCodes(p.deployed, p.int8Biases);
}

std::string foundBiasCodes(const Plan& p)
{
    return foundDeployed(p) + " with int8_biases \"" + nameOf(p.int8Biases) + "\"";
}

} // namespace

std::vector<FieldBinding> bundleAndBudget()
{
    std::vector<FieldBinding> t;
    t.push_back(appliesWhen(choice<Coding>(
        "bundle.values", [](Plan& p) -> Coding& { return p.bundle.values; }, Write::Always,
        "coding of the changed weights in the update bundles: `fp32` (exact), `fp16`, `q8` (256 k-means centroids per "
        "tensor, Huffman-coded), `q8c` (at most `q8`'s squared error, on one uniform grid per bundle, arithmetic-coded "
        "with context models: about 0.8x `q8`'s bytes), `q4` (16 k-means centroids per tensor, context-coded), "
        "`ternary` (each change's sign times the tensor's mean change magnitude, context-coded; docs/bundle-format.md "
        "4.1); with a lossy coding the devices, and the recorded accuracies, use the decoded values"),
        {codedByPlan, "an INT8 model's bundles carry its int8 codes", "a deployed model other than \"int8\"", foundDeployed}));
    t.push_back(advanced(flag("bundle.write", [](Plan& p) -> bool& { return p.bundle.write; }, Write::Always,
                     "keep every round's bundle in `OUT/bundles/` (sizes are measured either way)")));
    t.push_back(advanced(text("bundle.secret_key", [](Plan& p) -> std::string& { return p.bundle.secretKey; }, Write::Set,
                     "a file path",
                     "Ed25519 secret key file (64 bytes, from `dpu-cli bundle keygen`) to sign the bundles")));
    t.push_back(appliesWhen(
        flag("bundle.quant_aware", [](Plan& p) -> bool& { return p.bundle.quantAware; }, Write::Set,
             "lossy codings only: the sparse fine-tune quantises the changed weights with the bundle's coding "
             "in stages and re-fits the rest around them (docs/engine.md) instead of quantising after training"),
        {lossy, "quantisation-aware training needs a lossy coding (fp32 is exact, nothing to be aware of)",
         "a lossy bundle.values", foundValues}));
    t.push_back(appliesWhen(
        choiceWhen(choice<DenseTensors>(
                       "bundle.dense_tensors", [](Plan& p) -> DenseTensors& { return p.bundle.denseTensors; }, Write::Set,
                       "always-shipped 1-D parameters (biases): `exact` dense and exact; `partial` they join the top-k "
                       "(or budget) selection; `coded` (lossy `bundle.values` only) their changes travel under that "
                       "coding"),
                   "coded",
                   {lossy, "\"coded\" needs a lossy coding (under fp32 the exact dense edit is already the smallest)",
                    "a lossy bundle.values", foundValues}),
        {biasesShippedByPlan, "an INT8 model's biases are int8 codes of its own, re-coded every round (int8_biases)",
         "a deployed model other than \"int8\", or int8_biases \"float\"", foundBiasCodes}));
    // A budget fits its k with previews of float candidates; an INT8 candidate is quantised after.
    const FieldCondition budgeted{formTakesBudget, "a byte budget is not yet supported with deployed \"int8\"",
                                  "a deployed model other than \"int8\"", foundDeployed};
    t.push_back(appliesWhen(integer<int64_t>(
        "budget.bytes_per_round", [](Plan& p) -> int64_t& { return p.budget.bytesPerRound; }, 0, INT64_MAX,
        "bytes >= 0 (0: off)", Write::Set,
        "every round's bundle fits in this many bytes; the partial strategies then ignore `k` and ship the most "
        "valuable weights that fit (real bundle bytes). FU and Pruning are not budgeted"), budgeted));
    t.push_back(appliesWhen(integer<int64_t>(
        "budget.bytes_total", [](Plan& p) -> int64_t& { return p.budget.bytesTotal; }, 0, INT64_MAX,
        "bytes >= 0 (0: off)", Write::Set,
        "the run's bundles (per strategy and seed) fit in this many bytes: each round gets what is left over the rounds "
        "left, so unused bytes carry over. At most one of the two budgets"), budgeted));
    t.back().check = [range = t.back().check](const Plan& p) {
        range(p);
        require(p.budget.bytesPerRound == 0 || p.budget.bytesTotal == 0, "budget.bytes_total",
                "give either budget.bytes_per_round or budget.bytes_total, not both");
    };
    return t;
}

} // namespace dpu::plan
