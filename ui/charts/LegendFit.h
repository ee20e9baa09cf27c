// SPDX-License-Identifier: MIT
// Places a chart's legend where its labels stay readable: one row below while they fit, a column on the right otherwise.
#pragma once
#include <QSizeF>
#include <QtGlobal>

class QChart;

namespace dpu::ui {

class LegendFit {
public:
    /// Puts the legend below the plot when every visible entry's label fits in one row of a
    /// chart `size.width()` wide, else in a column on the right at most `kColumnShare` of the
    /// width. Qt's bottom legend shrinks every label to fit one row, so with a few dozen series
    /// (runs opened at 1366x768) no label was left at all. A column taller than the chart gets
    /// a smaller font (down to kMinFontShare of the chart's) and, past that, shows the entries
    /// that fit and says in its tooltip how many more the chart's context menu lists (Qt clips a
    /// column's overflow silently). Returns true when it chose the column.
    static bool place(QChart* chart, QSizeF size);

    /// Entries the column could not show at the last place() (0: all shown).
    static int hiddenEntries(const QChart* chart);

    static constexpr qreal kColumnShare = 0.32;
    static constexpr qreal kMinFontShare = 0.7;
};

} // namespace dpu::ui
