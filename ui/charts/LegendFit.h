// SPDX-License-Identifier: MIT
// Places a chart's legend where its labels stay readable: one row below while they fit, else inside an empty corner or a column on the right.
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

    /// Charts with a corner their data rarely reaches (the frontier's: many bytes for little
    /// accuracy) get the legend there, inside the plot, instead of a column beside it, when
    /// one row below does not fit and the entries fit in half the plot's width and two thirds
    /// of its height. The legend is then detached from the chart's layout: placeInside() puts
    /// it in the corner again whenever the plot area moves.
    static void setInsideCorner(QChart* chart, Qt::Corner corner);
    /// Moves a legend that place() put inside the plot to its corner of the current plot area
    /// (nothing when it is not inside).
    static void placeInside(QChart* chart);
    /// Whether the last place() put the legend inside the plot.
    static bool isInside(const QChart* chart);

    /// Entries the column could not show at the last place() (0: all shown).
    static int hiddenEntries(const QChart* chart);

    /// A property set true on an area series that is a legend entry of its own (the version
    /// spread's areas); other areas are seed bands, which the legend does not list.
    static constexpr const char* kAreaEntry = "dpuLegendAreaEntry";

    static constexpr qreal kColumnShare = 0.32;
    static constexpr qreal kMinFontShare = 0.7;
};

} // namespace dpu::ui
