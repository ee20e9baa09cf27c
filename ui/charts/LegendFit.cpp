// SPDX-License-Identifier: MIT
// LegendFit: a legend below the chart while its labels fit in one row, else a column on the right, shrunk or cut to the chart's height.
#include "charts/LegendFit.h"
#include <QAbstractSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace dpu::ui {
namespace {

const char* const kBaseFont = "dpuLegendBaseFont";
const char* const kHidden = "dpuLegendHidden";
const char* const kCut = "dpuLegendCut"; // a marker this class hid (not one the user toggled)

/// The entries a legend shows: seed bands' areas are hidden by the charts (their line's entry
/// toggles both). A marker reads as hidden until the legend is laid out, so visibility cannot tell.
QList<QLegendMarker*> entries(QLegend* legend)
{
    QList<QLegendMarker*> out;
    for (QLegendMarker* m : legend->markers())
        if (!(m->series() && m->series()->type() == QAbstractSeries::SeriesTypeArea))
            out.append(m);
    return out;
}

/// Height of one column entry in `font`: Qt lays out a marker (about a line high) with spacing
/// around it (measured with Qt 6.4: 22 px at 9 pt, 16.4 px at 6.3 pt; this errs high).
qreal rowHeight(const QFont& font)
{
    return QFontMetricsF(font).height() + 8;
}

} // namespace

bool LegendFit::place(QChart* chart, QSizeF size)
{
    if (!chart || size.width() <= 0)
        return false;
    QLegend* legend = chart->legend();
    // Start from the font the legend had before any shrinking.
    QVariant base = legend->property(kBaseFont);
    if (!base.isValid()) {
        base = legend->font();
        legend->setProperty(kBaseFont, base);
    }
    QFont font = base.value<QFont>();
    legend->setFont(font);
    const QList<QLegendMarker*> all = entries(legend);
    for (QLegendMarker* m : all)
        if (m->property(kCut).toBool()) {
            m->setVisible(true);
            m->setProperty(kCut, false);
        }
    legend->setProperty(kHidden, 0);
    legend->setToolTip(QString());

    const QFontMetricsF fm(font);
    // An entry is its marker (about a line high), a gap, the label and the space to the next.
    const qreal overhead = fm.height() + 3 * fm.averageCharWidth();
    qreal row = 0;
    qreal widest = 0;
    for (QLegendMarker* m : all) {
        const qreal label = fm.horizontalAdvance(m->label());
        row += label + overhead;
        widest = std::max(widest, label + overhead);
    }
    const QMarginsF margins = chart->margins();
    const qreal available = size.width() - margins.left() - margins.right() - 2 * fm.averageCharWidth();
    const bool column = row > available;
    if (!column) {
        legend->setAlignment(Qt::AlignBottom);
        legend->setMaximumWidth(QWIDGETSIZE_MAX);
        return false;
    }
    legend->setAlignment(Qt::AlignRight);
    legend->setMaximumWidth(std::min(widest + 4 * fm.averageCharWidth(), kColumnShare * size.width()));
    if (size.height() <= 0 || all.isEmpty())
        return true;
    // The column beside the plot: the chart's height less its margins and the title's band
    // (which Qt keeps whether or not a title is set; measured 2.5 title lines).
    const qreal height = size.height() - margins.top() - margins.bottom() - 2.5 * QFontMetricsF(chart->titleFont()).height();
    const int n = static_cast<int>(all.size());
    if (n * rowHeight(font) > height) {
        // Smaller type first: a 0.7 size label still reads, a clipped one does not.
        const qreal pt = font.pointSizeF() > 0 ? font.pointSizeF() : 9;
        qreal scaled = pt;
        for (; scaled > kMinFontShare * pt; scaled -= 0.25) {
            QFont f = font;
            f.setPointSizeF(scaled);
            if (n * rowHeight(f) <= height)
                break;
        }
        font.setPointSizeF(std::max(scaled, kMinFontShare * pt));
        legend->setFont(font);
    }
    const int fits = std::max(1, static_cast<int>(std::floor(height / rowHeight(font))));
    if (n > fits) {
        // Keep the first entries (the runs' order) and say how many the context menu holds.
        const int hidden = n - (fits - 1);
        for (int i = fits - 1; i < n; ++i) {
            all[i]->setVisible(false);
            all[i]->setProperty(kCut, true);
        }
        legend->setProperty(kHidden, hidden);
        legend->setToolTip(QObject::tr("%1 more series not listed here: right-click the chart to show or hide them").arg(hidden));
    }
    return true;
}

int LegendFit::hiddenEntries(const QChart* chart)
{
    return chart ? chart->legend()->property(kHidden).toInt() : 0;
}

} // namespace dpu::ui
