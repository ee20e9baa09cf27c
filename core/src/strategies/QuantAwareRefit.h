// SPDX-License-Identifier: MIT
// Quantisation-aware partial updating: quantise the changed weights in steps, re-fit the rest.
#pragma once
#include "data/Dataset.h"
#include "strategies/BundlePreview.h"
#include "train/TrainContext.h"
#include "train/Weights.h"

namespace dpu {

/// After a sparse fine-tune under `masks`: in stages, the changed weights whose coding error
/// is largest are set to the values the devices would decode (the bundle's own coding, through
/// `preview`) and frozen, and the still-unquantised ones are fine-tuned around them (a shorter,
/// lower-rate fine-tune that keeps its best epoch), half of what is left per stage, so that the
/// shipped weights' quantisation error is partly absorbed by training instead of all of it
/// arriving after training. The network ends with its latent (re-fitted) weights; the bundle
/// quantises them once more. Returns the last stage's validation accuracy.
/// Throws Cancelled when the context asks to stop.
double quantAwareRefit(Network& network, const MaskSet& masks, const BundlePreview& preview,
                       const TensorDataset& train, const TensorDataset& validation, const TrainSpec& spec,
                       uint64_t seed, const TrainContext& ctx);

} // namespace dpu
