// SPDX-License-Identifier: MIT
// A strategy's bundle bytes as every view names them: the initial deployment apart from the bytes per update round.
#pragma once
#include "dpu/Events.h"
#include <limits>
#include <vector>

namespace dpu {

/// A round's bytes: its bundle's size; the analytic figure where a deployed round measured none
/// (records from before bundles were measured); 0 when it did not deploy.
double roundBytes(const RoundRecord& record);

/// One strategy's bundle bytes over (run, seed) units, as the frontier, the Budget tab, the
/// report's tables and the fleet name them (docs/fleet.md "The figures"): a unit's first
/// deployed round is its **initial deployment** (what round 1 installs: an INT8 model's codes, a
/// sparse model's pattern, FU's full model; in single mode the trained model the update starts
/// from) and is never in a per-round figure; every deployed round after it is an **update
/// round**. A round that deployed nothing sent nothing and is no update round.
class UpdateBytes {
public:
    /// Adds one (run, seed) unit of one strategy: its records, in any order.
    void addUnit(const std::vector<const RoundRecord*>& records);

    int units() const { return units_; }
    int updateRounds() const { return updateRounds_; }
    /// The initial deployment's bytes, mean over the units that deployed; 0 when none did.
    double initialDeploymentBytes() const { return deployedUnits_ > 0 ? initialBytes_ / deployedUnits_ : 0; }
    /// The update rounds' bytes, mean over every update round of every unit; NaN without one.
    double bytesPerUpdateRound() const
    {
        return updateRounds_ > 0 ? updateBytes_ / updateRounds_ : std::numeric_limits<double>::quiet_NaN();
    }
    /// The largest update round's bytes; NaN without one.
    double maxBytesPerUpdateRound() const { return updateRounds_ > 0 ? maxUpdate_ : std::numeric_limits<double>::quiet_NaN(); }
    /// Every deployed round's bytes, the initial deployment's included, mean over the units (a
    /// run's total to one device).
    double totalBytesPerUnit() const { return units_ > 0 ? (initialBytes_ + updateBytes_) / units_ : 0; }
    /// Some deployed round measured no bundle: its analytic bytes stand in.
    bool analytic() const { return analytic_; }

private:
    int units_ = 0;
    int deployedUnits_ = 0;
    int updateRounds_ = 0;
    double initialBytes_ = 0;
    double updateBytes_ = 0;
    double maxUpdate_ = 0;
    bool analytic_ = false;
};

} // namespace dpu
