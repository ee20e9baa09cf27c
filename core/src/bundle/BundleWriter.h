// SPDX-License-Identifier: MIT
// Builds update bundles (docs/bundle-format.md) from plain tensors; no LibTorch.
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

class BundleWriter {
public:
    /// Writes the bundle for `in` and computes the exact device file it produces. Throws
    /// dpu::Error for inconsistent input (tensor/mask/init counts, shapes, base file layout,
    /// string lengths, a secret key without libsodium).
    static BundleOutput write(const BundleInput& in);

    /// The seeded model's values of tensor `t` under `spec` (the device's regeneration).
    static std::vector<float> initialValues(const TensorData& t, const InitSpec& spec, uint64_t seed);

    /// A fresh Ed25519 key pair (secret 64 bytes, public 32 bytes). Throws without libsodium.
    static void generateKeyPair(std::vector<uint8_t>& secretKey, std::vector<uint8_t>& publicKey);
};

} // namespace dpu::bundle
