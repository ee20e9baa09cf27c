// SPDX-License-Identifier: MIT
// The deployed model's forms described once, one entry each (as OBS's obs_source_info): runs, cost, fleet and views ask it.
#pragma once
#include "dpu/PlanEnums.h"
#include <string>
#include <vector>

namespace dpu {

/// What round 1 deploys on the devices.
enum class FirstDeployment {
    /// Each strategy's own round 1 from the seeded random model the devices regenerate (DPU's
    /// reinit+delta, FU's full model); a later round may re-initialise to it.
    SeededModel,
    /// One fully trained model, pruned per partial tensor to `deployed_sparsity` by magnitude with
    /// a masked fine-tune, shared by every strategy and shipped full (its zeros coded).
    PrunedBase,
    /// One fully trained model as the quantiser's codes and scales, shared by every strategy and
    /// shipped full.
    QuantisedBase,
};

/// What every round keeps of the deployed model's pattern.
enum class KeptMask {
    None,  ///< any weight may change
    Zeros, ///< the zeros stay zero: a round changes only nonzeros, FU prunes to the same sparsity
};

/// The quantiser between the trained weights and the devices' values (experiment code picks its
/// LibTorch implementation by this value).
enum class Quantiser {
    None,           ///< the devices hold floats
    Int8PerChannel, ///< int8 codes, one float scale per output channel (max |w| / 127)
};

/// One form of the deployed model (`deployed` in a plan): what it is called, what it stores,
/// what round 1 and later rounds deploy and what the cost model charges for it. The code that
/// depends on the form asks these fields; a new form is one new entry in deployedForms()
/// (core/src/plan/DeployedForms.cpp) and, where it needs one, its LibTorch code (docs/architecture.md).
struct DeployedFormInfo {
    DeployedForm form = DeployedForm::Fp32;
    /// Its plan-file name ("int8"): enumNames<DeployedForm>() is this table's names, in its order.
    std::string name;
    /// In a sentence and a table's column: "FP32", "sparse", "INT8".
    std::string shortName;
    /// The Method dialog's choice ("INT8: int8 codes, per-channel scales").
    std::string choiceLabel;
    /// What the choice means, one paragraph of the choice's tooltip ("" for the reference form).
    std::string choiceHelp;
    /// Appended to the Method dialog's summary (", an INT8 deployed model"); "" says nothing.
    /// In this and the next two, %1 stands for `deployed_sparsity` in percent where the form keeps
    /// zeros (KeptMask::Zeros), for QString::arg.
    std::string summaryWords;
    /// What a chart's title names when every shown run shares the form ("INT8 model"); "" nothing.
    std::string contextWords;
    /// The report's sentence on the deployed model; "" says nothing.
    std::string reportWords;
    /// What the form's own full update ships ("its codes and scales").
    std::string fullUpdateWords;
    /// The paper's reference form (dense FP32): every ratio is to its full update, and views name
    /// only the forms that are not it.
    bool reference = false;
    /// Bytes a partial weight takes in the devices' weight file (a dense value always takes 4).
    int storedBytesPerWeight = 4;
    /// Bits the analytic cost charges per changed partial weight value (CostModel::valueBits).
    int valueBits = 32;
    /// The bundles carry the form's own value codes whatever `bundle.values` says.
    bool ownValueCodes = false;
    /// Float scales the devices keep per output channel of each partial tensor: a full update
    /// ships them (32 bits each), a partial one keeps them (CostModel::scaleValues).
    int scalesPerChannel = 0;
    FirstDeployment firstDeployment = FirstDeployment::SeededModel;
    KeptMask keptMask = KeptMask::None;
    Quantiser quantiser = Quantiser::None;
    /// FU's rounds after round 1 ship a delta from the deployed model, coded as the plan codes,
    /// instead of a full bundle (a sparse model's: the positions its new pattern changes).
    bool fullUpdateIsDelta = false;
    /// A byte budget may choose a round's k (false: not yet supported with this form).
    bool takesBudget = true;
    /// The plan fields that mean something only with this form ("deployed_sparsity").
    std::vector<std::string> fields;

    /// Every update keeps the form: round 1 deploys a trained base that every strategy shares,
    /// nothing re-initialises it (a seeded random model is not in the form) and no strategy may
    /// ship a form of its own (pruning).
    bool keepsItsForm() const { return firstDeployment != FirstDeployment::SeededModel; }

    /// True when the plan field `path` belongs to this form (one of `fields`).
    bool owns(const std::string& path) const;
};

/// Every deployed form, one entry each, in the order forms, errors and docs list them.
const std::vector<DeployedFormInfo>& deployedForms();

/// The description of `form`; an enumerator the table lacks is an engine defect (InternalError).
const DeployedFormInfo& deployedFormInfo(DeployedForm form);

/// Whether a model deployed as `form` holds its 1-D parameters (biases) as codes under plan
/// int8_biases `biases`: a form with value codes of its own (INT8) under `codes`. The one
/// answer the engine, the cost model and the plan's rules ask.
bool biasesAsCodes(DeployedForm form, Int8Biases biases);

} // namespace dpu
