// SPDX-License-Identifier: MIT
// Places a chart's legend where its labels stay readable: one row below while they fit, a column on the right otherwise.
#pragma once
#include <QtGlobal>

class QChart;

namespace dpu::ui {

class LegendFit {
public:
    /// Puts the legend below the plot when every visible entry's label fits in one row of a
    /// chart `width` wide, else in a column on the right at most `kColumnShare` of the width.
    /// Qt's bottom legend shrinks every label to fit one row, so with a few dozen series (runs
    /// opened at 1366x768) no label was left at all. Returns true when it chose the column.
    static bool place(QChart* chart, qreal width);

    static constexpr qreal kColumnShare = 0.32;
};

} // namespace dpu::ui
