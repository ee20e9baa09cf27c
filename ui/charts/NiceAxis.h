// SPDX-License-Identifier: MIT
// Value axes on round numbers: ranges and ticks on steps of 1, 2 or 5 times a power of ten.
#pragma once

class QValueAxis;

namespace dpu::ui {

class NiceAxis {
public:
    /// The 1-2-5 step that divides `span` into at most `maxTicks` intervals (at least 1 when
    /// `integer`).
    static double step(double span, int maxTicks, bool integer = false);
    /// Decimals a label needs to show multiples of `step` exactly (0 for whole steps).
    static int decimals(double step);
    /// Widens [lo, hi] outwards to whole steps, clamped to [floor, ceiling], and puts ticks and
    /// labels on the steps (no 53.8 / 62.5 / 71.3 ticks).
    static void fit(QValueAxis* axis, double lo, double hi, int maxTicks, double floor, double ceiling,
                    bool integer = false);
    /// Integer ticks on [lo, hi] with half a step of room at both ends, so a point at either
    /// end (or a single round) is drawn whole.
    static void fitIndices(QValueAxis* axis, double lo, double hi, int maxTicks);
};

} // namespace dpu::ui
