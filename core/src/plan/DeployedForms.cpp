// SPDX-License-Identifier: MIT
// The table of deployed forms (dpu/DeployedForms.h): one entry per form, the only place a form's facts and words are spelled.
#include "dpu/DeployedForms.h"
#include "dpu/InternalCheck.h"
#include <algorithm>

namespace dpu {
namespace {

/// Dense float32: the paper's reference, whose full update every ratio is taken against.
DeployedFormInfo fp32Form()
{
    DeployedFormInfo f;
    f.form = DeployedForm::Fp32;
    f.name = "fp32";
    f.shortName = "FP32";
    f.choiceLabel = "Dense FP32";
    f.fullUpdateWords = "all its weights in fp32";
    f.reference = true;
    return f;
}

/// Pruned to `deployed_sparsity`, whose zeros every update keeps (the paper's Table 3).
DeployedFormInfo sparseForm()
{
    DeployedFormInfo f;
    f.form = DeployedForm::Sparse;
    f.name = "sparse";
    f.shortName = "sparse";
    f.choiceLabel = "Sparse: pruned, its zeros kept";
    f.choiceHelp = "Sparse: round 1 deploys a fully trained model pruned per layer by magnitude (with a masked "
                   "fine-tune); later rounds change only its nonzeros, so the devices' inference cost stays, and FU "
                   "prunes what it trains to the same sparsity (the paper's Table 3).";
    f.summaryWords = ", a %1 %-sparse deployed model";
    f.contextWords = "%1 %-sparse model";
    f.reportWords = "The deployed model is sparse: round 1 deploys it pruned to %1 % zeros per layer; later rounds "
                    "change only its nonzeros and full updating prunes to the same sparsity (no re-initialisation).";
    f.fullUpdateWords = "its nonzeros and their bitmap";
    f.firstDeployment = FirstDeployment::PrunedBase;
    f.keptMask = KeptMask::Zeros;
    f.fullUpdateIsDelta = true;
    f.fields = {"deployed_sparsity"};
    return f;
}

/// Int8 codes with a float scale per output channel, which every update keeps INT8.
DeployedFormInfo int8Form()
{
    DeployedFormInfo f;
    f.form = DeployedForm::Int8;
    f.name = "int8";
    f.shortName = "INT8";
    f.choiceLabel = "INT8: int8 codes, per-channel scales";
    f.choiceHelp = "INT8: round 1 deploys a fully trained model as int8 codes with a float scale per output channel; "
                   "later rounds train through the quantiser and ship changed codes only (8 bits a value), FU ships "
                   "codes and scales of its own.";
    f.summaryWords = ", an INT8 deployed model";
    f.contextWords = "INT8 model";
    f.reportWords = "The deployed model is INT8: int8 codes with a float scale per output channel; round 1 deploys it "
                    "quantised, later rounds train through the quantiser and change codes only (8 bits a value), and "
                    "full updating ships codes and scales of its own (no re-initialisation).";
    f.fullUpdateWords = "its codes and scales";
    f.storedBytesPerWeight = 1;
    f.valueBits = 8; // the paper's Table 3 prices the codes so
    f.ownValueCodes = true;
    f.scalesPerChannel = 1;
    f.firstDeployment = FirstDeployment::QuantisedBase;
    f.quantiser = Quantiser::Int8PerChannel;
    f.takesBudget = false;
    f.fields = {"int8_rescale", "fu_int8_training", "int8_biases"};
    return f;
}

} // namespace

bool DeployedFormInfo::owns(const std::string& path) const
{
    return std::find(fields.begin(), fields.end(), path) != fields.end();
}

const std::vector<DeployedFormInfo>& deployedForms()
{
    // In enum order, which is also the order plan files, errors and docs list the names in.
    static const std::vector<DeployedFormInfo> forms{fp32Form(), sparseForm(), int8Form()};
    return forms;
}

bool biasesAsCodes(DeployedForm form, Int8Biases biases)
{
    return deployedFormInfo(form).ownValueCodes && biases == Int8Biases::Codes;
}

const DeployedFormInfo& deployedFormInfo(DeployedForm form)
{
    const auto& forms = deployedForms();
    const auto at = static_cast<size_t>(form);
    DPU_INTERNAL_CHECK(at < forms.size() && forms[at].form == form,
                       "deployed form " + std::to_string(at) + " has no entry in deployedForms()");
    return forms[at];
}

} // namespace dpu
