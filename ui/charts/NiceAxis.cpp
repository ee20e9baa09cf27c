// SPDX-License-Identifier: MIT
// NiceAxis: the usual 1-2-5 tick rule, applied to Qt Charts' dynamic ticks.
#include "charts/NiceAxis.h"
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

double NiceAxis::step(double span, int maxTicks, bool integer)
{
    if (!(span > 0))
        return 1;
    const double raw = span / std::max(1, maxTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double s = 10 * magnitude;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= raw - 1e-12 * raw) {
            s = m * magnitude;
            break;
        }
    }
    return integer ? std::max(1.0, std::round(s)) : s;
}

int NiceAxis::decimals(double step)
{
    if (step >= 1)
        return 0;
    return std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 6);
}

void NiceAxis::fit(QValueAxis* axis, double lo, double hi, int maxTicks, double floor, double ceiling, bool integer)
{
    if (hi < lo)
        std::swap(lo, hi);
    if (hi - lo < 1e-12)
        hi = lo + 1;
    const double s = step(hi - lo, maxTicks, integer);
    const double a = std::max(floor, std::floor(lo / s + 1e-9) * s);
    double b = std::min(ceiling, std::ceil(hi / s - 1e-9) * s);
    if (b <= a)
        b = std::min(ceiling, a + s);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(s);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals(s)));
    axis->setRange(a, b);
}

void NiceAxis::fitIndices(QValueAxis* axis, double lo, double hi, int maxTicks)
{
    const double s = step(std::max(1.0, hi - lo), maxTicks, true);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(s);
    axis->setLabelFormat(QStringLiteral("%d"));
    axis->setRange(lo - 0.5, hi + 0.5);
}

} // namespace dpu::ui
