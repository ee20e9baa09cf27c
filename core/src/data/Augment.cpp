// SPDX-License-Identifier: MIT
// Random crop and flip as two gathers over the padded batch: one pass on any device, draws from our own Rng.
#include "data/Augment.h"
#include "util/Rng.h"
#include <vector>

namespace dpu::data {

torch::Tensor augmentBatch(const torch::Tensor& images, const AugmentSpec& spec, uint64_t seed)
{
    if (!spec.enabled())
        return images;
    const int64_t b = images.size(0), c = images.size(1), h = images.size(2), w = images.size(3);
    const int64_t padH = h > 1 ? spec.cropPadding : 0, padW = spec.cropPadding;
    Rng rng(seed);
    std::vector<int64_t> rows(static_cast<size_t>(b * h)), cols(static_cast<size_t>(b * w));
    for (int64_t i = 0; i < b; ++i) {
        // Drawn in a fixed order per sample whatever is enabled, so turning one on keeps the other's draws.
        const auto dy = static_cast<int64_t>(rng.below(static_cast<uint64_t>(2 * padH + 1)));
        const auto dx = static_cast<int64_t>(rng.below(static_cast<uint64_t>(2 * padW + 1)));
        const bool flip = (rng.next() >> 63) != 0;
        for (int64_t y = 0; y < h; ++y)
            rows[static_cast<size_t>(i * h + y)] = dy + y;
        for (int64_t x = 0; x < w; ++x)
            cols[static_cast<size_t>(i * w + x)] = dx + (spec.flip && flip ? w - 1 - x : x);
    }
    const auto device = images.device();
    const auto rowIndex = torch::from_blob(rows.data(), {b, 1, h, 1}, torch::kInt64).to(device).expand({b, c, h, w + 2 * padW});
    const auto colIndex = torch::from_blob(cols.data(), {b, 1, 1, w}, torch::kInt64).to(device).expand({b, c, h, w});
    const auto padded = torch::constant_pad_nd(images, {padW, padW, padH, padH}, 0);
    return padded.gather(2, rowIndex).gather(3, colIndex);
}

} // namespace dpu::data
