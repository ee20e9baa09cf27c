// SPDX-License-Identifier: MIT
// LegendFit: a legend below the chart while its labels fit in one row, else a column on the right.
#include "charts/LegendFit.h"
#include <QAbstractSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QWidget>

namespace dpu::ui {

bool LegendFit::place(QChart* chart, qreal width)
{
    if (!chart || width <= 0)
        return false;
    QLegend* legend = chart->legend();
    const QFontMetricsF fm(legend->font());
    // An entry is its marker (about a line high), a gap, the label and the space to the next.
    const qreal overhead = fm.height() + 3 * fm.averageCharWidth();
    qreal row = 0;
    qreal widest = 0;
    for (QLegendMarker* m : legend->markers()) {
        // A marker reads as hidden until the legend is laid out, so visibility cannot tell;
        // the seed bands' areas are the entries the charts hide (their line's entry toggles both).
        if (m->series() && m->series()->type() == QAbstractSeries::SeriesTypeArea)
            continue;
        const qreal label = fm.horizontalAdvance(m->label());
        row += label + overhead;
        widest = std::max(widest, label + overhead);
    }
    const QMarginsF margins = chart->margins();
    const qreal available = width - margins.left() - margins.right() - 2 * fm.averageCharWidth();
    const bool column = row > available;
    if (column) {
        legend->setAlignment(Qt::AlignRight);
        legend->setMaximumWidth(std::min(widest + 4 * fm.averageCharWidth(), kColumnShare * width));
    } else {
        legend->setAlignment(Qt::AlignBottom);
        legend->setMaximumWidth(QWIDGETSIZE_MAX);
    }
    return column;
}

} // namespace dpu::ui
