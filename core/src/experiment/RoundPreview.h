// SPDX-License-Identifier: MIT
// The bundle preview of one round: sizes and decodes candidates as the round's deployment would.
#pragma once
#include "experiment/DeviceUpdate.h"
#include "strategies/BundlePreview.h"

namespace dpu {

/// Writes (without applying) the bundle that DeviceUpdate::build() would deploy for this round:
/// same kind, base, seed and update version, so its size is the deployment's to the byte.
class RoundPreview : public BundlePreview {
public:
    /// Keeps references: `update` and `previous` must outlive the preview.
    RoundPreview(const DeviceUpdate& update, bundle::Kind kind, const Weights& previous, uint64_t seed,
                 uint64_t version)
        : update_(update), kind_(kind), previous_(previous), seed_(seed), version_(version) {}
    int64_t bytes(const Weights& candidate) const override;
    Weights decoded(const Weights& candidate) const override;

private:
    const DeviceUpdate& update_;
    bundle::Kind kind_;
    const Weights& previous_;
    uint64_t seed_;
    uint64_t version_;
};

} // namespace dpu
