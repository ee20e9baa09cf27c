// SPDX-License-Identifier: MIT
// How FU's own trainings run: their epochs (plan fu_epochs) and an INT8 model's quantiser (plan fu_int8_training).
#pragma once
#include "dpu/DeployedForms.h"
#include "dpu/Plan.h"
#include "dpu/StrategyId.h"
#include "train/Int8Grid.h"
#include <string>

namespace dpu {

/// The training spec of `strategy`'s own rounds: FU's steps train plan fu_epochs where it is
/// set, every other strategy's (and single mode's shared round-1 base, which is not asked
/// here) train.epochs. The step schedule follows the epochs (step_epochs 0: every epochs / 3).
inline TrainSpec roundSpecOf(const Plan& plan, const std::string& strategy)
{
    TrainSpec spec = plan.train;
    if (plan.fuEpochs > 0 && isBaseline(strategy))
        spec.epochs = plan.fuEpochs;
    return spec;
}

/// The quantiser of an INT8 model's trainings that bring their own scales (FU's rounds and
/// round 1's base): scales of the weights being trained (Int8Grid::ownScales) under plan
/// fu_int8_training quant_aware, the biases among them under int8_biases codes; null (float
/// training, quantised afterwards) under `post` or for another deployed form.
inline const Int8Grid* ownScalesGrid(const Plan& plan)
{
    static const Int8Grid own{nullptr, {}, true, false};
    static const Int8Grid ownWithBiases{nullptr, {}, true, true};
    const bool quantAware = deployedFormInfo(plan.deployed).quantiser == Quantiser::Int8PerChannel
                            && plan.fuInt8Training == FuInt8Training::QuantAware;
    if (!quantAware)
        return nullptr;
    return plan.int8Biases == Int8Biases::Codes ? &ownWithBiases : &own;
}

/// Whether an INT8 deployed model of `plan` holds its biases as codes (plan int8_biases).
inline bool int8BiasCodes(const Plan& plan)
{
    return biasesAsCodes(plan.deployed, plan.int8Biases);
}

} // namespace dpu
