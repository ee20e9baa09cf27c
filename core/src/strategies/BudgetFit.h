// SPDX-License-Identifier: MIT
// Byte-budgeted selection: the most weights whose real bundle fits, searched over their count.
#pragma once
#include "strategies/BundlePreview.h"
#include "train/Weights.h"
#include <functional>

namespace dpu {

/// Masks of the n most valuable selectable weights; for n < m the masks should lie inside those
/// of m (a ranking), so that shrinking a candidate only drops weights. A global top-k nests
/// exactly. Under plan k_share the tensors' parts are rounded by largest remainder, which can
/// move a weight from one tensor to another between n and n + 1; every n tried is still
/// measured, and the strategies rank within the trained masks, so nothing untrained ships.
using RankedMasks = std::function<MaskSet(int64_t n)>;

/// `current` with every masked tensor's unselected weights put back to `start` (bit-identical);
/// unmasked tensors and the buffers are kept as they are.
Weights selectFrom(const Weights& current, const Weights& start, const MaskSet& masks);

/// The largest n in [0, hi] whose candidate (selectFrom(trained, start, masksFor(n))) has a
/// bundle of at most `budget` bytes: a bracket search (interpolating, as sizes grow almost
/// linearly with n; never strictly assumed: the n returned was measured to fit, and n + 1 was
/// measured not to, unless n = hi). -1 when not even n = 0 fits.
int64_t largestFitting(int64_t hi, int64_t budget, const Weights& trained, const Weights& start,
                       const RankedMasks& masksFor, const BundlePreview& preview);

/// Drops the lowest-ranked of the `selected` weights of the network's state until its bundle
/// fits `budget`; the masks then hold what is left. Returns false (state unchanged) when not
/// even an update of no selected weight fits.
bool shrinkToBudget(Network& network, const Weights& start, int64_t selected, int64_t budget,
                    const RankedMasks& masksFor, const BundlePreview& preview, MaskSet& masks);

/// Selectable parameters: tensors with dim() > 1, and 1-D ones too when `withDense`; the
/// others are undefined.
std::vector<torch::Tensor> selectableParams(Network& network, bool withDense);

} // namespace dpu
