// SPDX-License-Identifier: MIT
// FrontierChart: what each strategy bought per byte, and where the budget cuts the curve.
#include "charts/FrontierChart.h"
#include "panels/CostReadout.h"
#include <QLineSeries>
#include "charts/ByteAxis.h"
#include <QCategoryAxis>
#include "charts/NiceAxis.h"
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

FrontierChart::FrontierChart(QWidget* parent) : ChartView(tr("Accuracy against bytes per round (finished runs)"), parent)
{
    setObjectName(QStringLiteral("frontierChart"));
    bytesAxis_ = new ByteAxis(tr("Mean server-to-device bytes per round per device"), this);
    x_ = bytesAxis_->logAxis();
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Mean test accuracy (%)"));
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
    setAxes(x_, y_);
    chart()->addAxis(bytesAxis_->labelAxis(), Qt::AlignBottom);
}

QString FrontierChart::budgetKey()
{
    return tr("budget");
}

void FrontierChart::setFrontier(const std::vector<FrontierPoint>& points, double budgetBytes, const QList<QPointF>& expected)
{
    clearSeries(); // also deletes the expected-points series
    expected_ = nullptr;
    points_ = points;
    std::vector<FrontierPoint> sorted = points;
    std::stable_sort(sorted.begin(), sorted.end(), [](const FrontierPoint& a, const FrontierPoint& b) {
        return a.strategy != b.strategy ? a.strategy < b.strategy : a.meanBytesPerRound < b.meanBytesPerRound;
    });
    double lo = 100, hi = 0;
    for (const FrontierPoint& p : sorted) {
        // A log axis cannot show 0 bytes (a run whose rounds never deployed): drawn at 1 byte.
        addPoint(QString::fromStdString(p.strategy), QPointF(std::max(1.0, p.meanBytesPerRound), 100.0 * p.meanAccuracy));
        lo = std::min(lo, 100.0 * p.meanAccuracy);
        hi = std::max(hi, 100.0 * p.meanAccuracy);
    }
    for (const QPointF& e : expected) {
        lo = std::min(lo, e.y());
        hi = std::max(hi, e.y());
    }
    for (const QString& key : seriesKeys())
        series(key)->setMarkerSize(9); // few points, each a finished run: make them visible
    if (lo > hi) {
        lo = 0;
        hi = 100;
    }
    if (budgetBytes > 0) {
        // The budget as a vertical line across the data's accuracy range.
        const QString key = budgetKey();
        addPoint(key, QPointF(budgetBytes, std::max(0.0, lo - 2)));
        addPoint(key, QPointF(budgetBytes, std::min(100.0, hi + 2)));
        QLineSeries* line = series(key);
        line->setPointsVisible(false);
        QPen pen(colorFor(key), 1.5, Qt::DashLine);
        line->setPen(pen);
    }
    if (!expected.isEmpty()) {
        expected_ = new QScatterSeries;
        expected_->setName(tr("expected at the budget's k"));
        expected_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        expected_->setMarkerSize(11);
        expected_->setColor(Qt::black);
        chart()->addSeries(expected_);
        expected_->attachAxis(axisX());
        expected_->attachAxis(axisY());
        QRectF all = QRectF(QPointF(budgetBytes > 0 ? budgetBytes : 1e3, lo), QSizeF(0, hi - lo));
        for (const FrontierPoint& p : points)
            all |= QRectF(QPointF(std::max(1.0, p.meanBytesPerRound), 100.0 * p.meanAccuracy), QSizeF(1e-9, 1e-9));
        for (const QPointF& e : expected) {
            expected_->append(QPointF(std::max(1.0, e.x()), e.y()));
            all |= QRectF(QPointF(std::max(1.0, e.x()), e.y()), QSizeF(1e-9, 1e-9));
        }
        fitAxes(all); // the markers are not in the base class's bounds
    }
}

void FrontierChart::fitAxes(const QRectF& b)
{
    // Whole decades keep the log grid readable.
    bytesAxis_->setRange(b.left(), b.right());
    NiceAxis::fit(y_, b.top() - 2, b.bottom() + 2, 6, 0, 100);
}

QString FrontierChart::describePoint(const QString& key, const QPointF& p) const
{
    if (key == budgetKey())
        return tr("budget: %1 per round").arg(CostReadout::formatBytes(p.x()));
    const FrontierPoint* best = nullptr;
    for (const FrontierPoint& f : points_)
        if (QString::fromStdString(f.strategy) == key
            && (!best || std::abs(f.meanBytesPerRound - p.x()) < std::abs(best->meanBytesPerRound - p.x())))
            best = &f;
    if (!best)
        return key;
    return tr("%1 at k = %2 (%3 runs, %4 rounds)\n%5 per round: %6 % mean test accuracy")
        .arg(key)
        .arg(best->k)
        .arg(best->runs)
        .arg(best->rounds)
        .arg(CostReadout::formatBytes(best->meanBytesPerRound))
        .arg(100.0 * best->meanAccuracy, 0, 'f', 2);
}

} // namespace dpu::ui
