// SPDX-License-Identifier: MIT
// Small valid bundles for the rejection tests (test_bundle_reject, test_bundle_reseal): one delta or reinit+delta, and one whose shared dense stream pools eight normalisation layers.
#pragma once
#include "BundleTestUtil.h"

#include <random>

namespace dpu::test {

using namespace dpu::bundle;

struct Fixture {
    std::vector<uint8_t> base;
    BundleOutput out;
};

inline Fixture smallBundle(ValueCoding coding, const std::vector<uint8_t>& secretKey, Kind kind = Kind::Delta)
{
    Fixture f;
    const auto old = modelState("tiny", 1);
    f.base = deviceFile(old, 1);
    BundleInput in = deltaInput(f.base, perturbed(old, 2), randomMasks(old, 0.3, 3), coding, 2);
    in.secretKey = secretKey;
    if (kind == Kind::ReinitDelta)
        makeReinit(in, old, 99);
    f.out = BundleWriter::write(in);
    return f;
}

/// A bundle whose shared dense stream (eight normalisation layers pooled) rides on entry 1, bn0;
/// `base` the device file of version 1 (what a delta applies to).
inline Fixture denseStreamBundle(Kind kind)
{
    std::vector<TensorData> bn = withNormLayers({"w", {8, 4}, {}}, 8);
    std::mt19937 rng(9);
    fillNormal(bn, rng, 0.05f);
    const auto masks = randomMasks(bn, 0.1, 10);
    const auto base = deviceFile(bn, 1);
    BundleInput in = deltaInput(base, perturbed(bn, 11), masks, ValueCoding::Fp32, 2);
    if (kind == Kind::ReinitDelta)
        makeReinit(in, bn, 3);
    return {base, BundleWriter::write(in)};
}

} // namespace dpu::test
