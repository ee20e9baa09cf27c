// SPDX-License-Identifier: MIT
// A full bundle's zeros: the masks of the nonzeros over the constant-0 rule (docs/bundle-format.md 2.6).
#include "bundle/FullZeros.h"
#include "dpu/InternalCheck.h"

#include <cstring>

namespace dpu::bundle {

namespace {

bool isPlusZero(float v)
{
    uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    return bits == 0; // the constant rule's 0.0f; -0.0 differs in its bits and must travel
}

} // namespace

bool FullZeros::worthCoding(uint64_t zeros, uint64_t numel)
{
    return numel > 0 && 32 * zeros > numel;
}

std::optional<BundleInput> FullZeros::asZeroSeeded(const BundleInput& full)
{
    DPU_INTERNAL_CHECK(full.kind == Kind::Full, "FullZeros: asked to recode a bundle that is not full");
    const size_t n = full.target.size();
    std::vector<std::vector<uint8_t>> masks(n);
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        const TensorData& t = full.target[i];
        if (t.dtype != DType::F32) // I8 codes have no initialiser (2.3): they stay dense
            continue;
        uint64_t zeros = 0;
        for (float v : t.values)
            zeros += isPlusZero(v);
        if (!worthCoding(zeros, t.values.size()))
            continue;
        masks[i].resize(t.values.size());
        for (size_t j = 0; j < t.values.size(); ++j)
            masks[i][j] = !isPlusZero(t.values[j]);
        any = true;
    }
    if (!any)
        return std::nullopt; // checked before copying the tensors: a dense model pays nothing
    BundleInput in = full;
    in.kind = Kind::ReinitDelta;
    in.coding = ValueCoding::Fp32; // a full bundle is exact whatever the plan's coding
    in.exactValues = true;         // ... so each section is the smallest exact one (4.2)
    in.quantiseDense = false;
    in.seed = 0; // the constant rule draws no random numbers
    in.init.assign(n, InitSpec{});
    for (size_t i = 0; i < n; ++i)
        if (!masks[i].empty()) {
            in.init[i].rule = InitSpec::Rule::Constant;
            in.init[i].constant = 0.f;
        }
    in.masks = std::move(masks);
    return in;
}

} // namespace dpu::bundle
