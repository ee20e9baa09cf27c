// SPDX-License-Identifier: MIT
// LegendFit: a legend below the chart while its labels fit in one row, else inside the plot's empty corner or a column on the right.
#include "charts/LegendFit.h"
#include <QAbstractSeries>
#include <QChart>
#include <QColor>
#include <QPen>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QStringList>
#include <QWidget>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

namespace dpu::ui {
namespace {

const char* const kBaseFont = "dpuLegendBaseFont";
const char* const kHidden = "dpuLegendHidden";
const char* const kCut = "dpuLegendCut"; // a marker this class hid (not one the user toggled)
const char* const kCorner = "dpuLegendCorner"; // the chart's empty corner (setInsideCorner), +1; 0: none
const char* const kInside = "dpuLegendInside"; // the legend is in that corner now
const char* const kInsideSize = "dpuLegendInsideSize"; // its box: a detached legend's size hint is Qt's guess

/// The entries a legend shows: seed bands' areas are hidden by the charts (their line's entry
/// toggles both); areas that are entries of their own say so (kAreaEntry). A marker reads as hidden until the legend is laid out, so visibility cannot tell.
QList<QLegendMarker*> entries(QLegend* legend)
{
    QList<QLegendMarker*> out;
    for (QLegendMarker* m : legend->markers())
        if (!(m->series() && m->series()->type() == QAbstractSeries::SeriesTypeArea)
            || m->series()->property(LegendFit::kAreaEntry).toBool())
            out.append(m);
    return out;
}

/// Height of one column entry in `font`: Qt lays out a marker (about a line high) with spacing
/// around it (measured with Qt 6.4: 22 px at 9 pt, 16.4 px at 6.3 pt; this errs high).
qreal rowHeight(const QFont& font)
{
    return QFontMetricsF(font).height() + 8;
}

/// Whether the legend's entries fit inside the plot as a box of at most half its width and two
/// thirds of its height (the plot being the chart less its margins, title band and axes, about
/// 7 lines of text across and 5 down), so that the points it covers stay few.
bool insideFits(const QChart* chart, qsizetype entries, qreal widest, QSizeF size, const QFont& font)
{
    const QFontMetricsF fm(font);
    const QMarginsF m = chart->margins();
    const qreal plotWidth = size.width() - m.left() - m.right() - 7 * fm.height();
    const qreal plotHeight = size.height() - m.top() - m.bottom() - 5 * fm.height();
    return widest + 2 * fm.averageCharWidth() <= 0.5 * plotWidth && entries * rowHeight(font) <= 0.67 * plotHeight;
}

/// Data points of the chart's visible series (lines and scatters) inside `box` (chart coordinates).
int pointsIn(QChart* chart, const QRectF& box)
{
    int n = 0;
    for (QAbstractSeries* series : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy || !xy->isVisible())
            continue;
        // A marker's half sticks out of its point: count those near the box too.
        const qreal r = std::max<qreal>(4, xy->markerSize() / 2);
        const QRectF near = box.adjusted(-r, -r, r, r);
        for (const QPointF& p : xy->points())
            n += near.contains(chart->mapToPosition(p, xy));
    }
    return n;
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
    if (legend->property(kInside).toBool()) { // back in the layout; placed inside again below if it fits there
        legend->setProperty(kInside, false);
        legend->setBackgroundVisible(false);
        legend->attachToChart();
    }
    if (!column) {
        legend->setAlignment(Qt::AlignBottom);
        legend->setMaximumWidth(QWIDGETSIZE_MAX);
        return false;
    }
    legend->setAlignment(Qt::AlignRight);
    if (legend->property(kCorner).toInt() > 0 && insideFits(chart, all.size(), widest, size, font)) {
        // A column beside a narrow chart (the Budget tab at 1366x768) left the plot a third
        // of it; the plot's empty corner costs the plot nothing.
        legend->setMaximumWidth(QWIDGETSIZE_MAX);
        legend->setProperty(kInside, true);
        // Qt's detached layout pads the box more than an attached column: a line above and below.
        legend->setProperty(kInsideSize, QSizeF(widest + 2 * fm.averageCharWidth(),
                                                all.size() * rowHeight(font) + 2 * fm.height() + 8));
        legend->detachFromChart();
        legend->setAlignment(Qt::AlignLeft); // detached, it only orders the entries: top down, left aligned
        // A nearly opaque box: points it covers show faintly through it.
        legend->setBrush(QColor(255, 255, 255, 225));
        legend->setPen(Qt::NoPen);
        legend->setBackgroundVisible(true);
        placeInside(chart);
        return true;
    }
    const qreal columnWidth = kColumnShare * size.width();
    legend->setMaximumWidth(std::min(widest + 4 * fm.averageCharWidth(), columnWidth));
    if (size.height() <= 0 || all.isEmpty())
        return true;
    // The column beside the plot: the chart's height less its margins and the title's band
    // (which Qt keeps whether or not a title is set; measured 2.5 title lines).
    const qreal height = size.height() - margins.top() - margins.bottom() - 2.5 * QFontMetricsF(chart->titleFont()).height();
    const int n = static_cast<int>(all.size());
    // Qt elides a label wider than the column ("dpu · fp32 · deployed=sp..."), and clips rows
    // below the column: smaller type first, down to kMinFontShare (a 0.7 size label still reads).
    auto fitsAt = [&](const QFont& f) {
        const QFontMetricsF m(f);
        qreal wide = 0;
        for (QLegendMarker* marker : all)
            wide = std::max(wide, m.horizontalAdvance(marker->label()) + m.height() + 7 * m.averageCharWidth());
        return n * rowHeight(f) <= height && wide <= columnWidth;
    };
    if (!fitsAt(font)) {
        const qreal pt = font.pointSizeF() > 0 ? font.pointSizeF() : 9;
        qreal scaled = pt;
        for (; scaled > kMinFontShare * pt; scaled -= 0.25) {
            QFont f = font;
            f.setPointSizeF(scaled);
            if (fitsAt(f))
                break;
        }
        font.setPointSizeF(std::max(scaled, kMinFontShare * pt));
        legend->setFont(font);
        const QFontMetricsF small(font);
        qreal wide = 0;
        for (QLegendMarker* marker : all)
            wide = std::max(wide, small.horizontalAdvance(marker->label()) + small.height() + 3 * small.averageCharWidth());
        legend->setMaximumWidth(std::min(wide + 4 * small.averageCharWidth(), columnWidth));
        if (wide + 4 * small.averageCharWidth() > columnWidth) { // still elided: the tooltip names them whole
            QStringList labels;
            for (QLegendMarker* marker : all)
                labels << marker->label();
            legend->setToolTip(labels.join(QLatin1Char('\n')));
        }
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
        const QString more = QObject::tr("%1 more series not listed here: right-click the chart to show or hide them").arg(hidden);
        legend->setToolTip(legend->toolTip().isEmpty() ? more : legend->toolTip() + QStringLiteral("\n\n") + more);
    }
    return true;
}

void LegendFit::setInsideCorner(QChart* chart, Qt::Corner corner)
{
    chart->legend()->setProperty(kCorner, static_cast<int>(corner) + 1);
}

bool LegendFit::isInside(const QChart* chart)
{
    return chart && chart->legend()->property(kInside).toBool();
}

void LegendFit::placeInside(QChart* chart)
{
    QLegend* legend = chart ? chart->legend() : nullptr;
    if (!legend || !legend->property(kInside).toBool())
        return;
    const auto preferred = static_cast<Qt::Corner>(legend->property(kCorner).toInt() - 1);
    const QSizeF want = legend->property(kInsideSize).toSizeF();
    const QRectF plot = chart->plotArea();
    const qreal pad = QFontMetricsF(legend->font()).averageCharWidth();
    const QSizeF size(std::min(want.width(), plot.width() - 2 * pad), std::min(want.height(), plot.height() - 2 * pad));
    const auto boxAt = [&](Qt::Corner corner) {
        const bool right = corner == Qt::TopRightCorner || corner == Qt::BottomRightCorner;
        const bool bottom = corner == Qt::BottomLeftCorner || corner == Qt::BottomRightCorner;
        const qreal x = right ? plot.right() - pad - size.width() : plot.left() + pad;
        const qreal y = bottom ? plot.bottom() - pad - size.height() : plot.top() + pad;
        return QRectF(QPointF(x, y), size);
    };
    // The chart's empty corner first; another one when the data is there after all (the box
    // would hide points): the corner whose box covers the fewest.
    Qt::Corner best = preferred;
    int fewest = pointsIn(chart, boxAt(preferred));
    for (Qt::Corner c : {Qt::BottomRightCorner, Qt::TopLeftCorner, Qt::BottomLeftCorner, Qt::TopRightCorner}) {
        const int n = fewest == 0 ? 0 : pointsIn(chart, boxAt(c));
        if (n < fewest) {
            fewest = n;
            best = c;
        }
    }
    legend->setGeometry(boxAt(best));
    legend->update();
}

int LegendFit::hiddenEntries(const QChart* chart)
{
    return chart ? chart->legend()->property(kHidden).toInt() : 0;
}

} // namespace dpu::ui
