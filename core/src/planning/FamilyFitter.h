// SPDX-License-Identifier: MIT
// One family against a budget: its finished points, the segments between them, and its calibration.
#pragma once
#include "dpu/Recommend.h"

namespace dpu::planning {

/// A configuration of one family: a finished point, or a k between two of them.
struct Candidate {
    double k = 0;
    double accuracy = 0;
    double accuracyToFu = 0; ///< NaN when the family's points have none
    double bytesPerRound = 0;
    double bytesPerRun = 0;
};

/// Bytes of a point in the budget's scope: per update round (never the initial deployment) or
/// per run; NaN for a point without an update round in a budget per round.
double scopedBytes(const FrontierPoint& point, const Budget& budget);
/// scopedBytes() is a number: points without one are no candidates and no family's cheapest.
bool hasScopedBytes(const FrontierPoint& point, const Budget& budget);

/// The most accurate configuration of `family` whose bytes fit: finished points that fit, and
/// where the budget falls between two neighbouring points (by k), the k at which bytes,
/// linear in k between them, reach the budget (accuracy interpolated in log k). Ties go to
/// fewer bytes. False when none fits.
bool bestWithin(const FrontierFamily& family, const Budget& budget, Candidate& out);

/// The family's label, cheapest point and most accurate point (fits stays false).
FamilyFit describeFamily(const FrontierFamily& family, const Budget& budget);

/// Accuracy of the family's cheapest point in the budget's scope.
double cheapestAccuracy(const FrontierFamily& family, const Budget& budget);

/// Real over analytic bytes of the family's partial rounds, weighted by deployed rounds; 0 when
/// it has none (FU, or nothing deployed).
double calibration(const FrontierFamily& family);

} // namespace dpu::planning
