// SPDX-License-Identifier: MIT
// AccuracyChart: x = round, y = test accuracy (%) of what the devices run after that round.
#include "charts/AccuracyChart.h"
#include <QValueAxis>
#include <cmath>

namespace dpu::ui {

AccuracyChart::AccuracyChart(QWidget* parent) : ChartView(tr("Test accuracy per round"), parent)
{
    x_ = new QValueAxis(this);
    x_->setTitleText(tr("Round"));
    x_->setLabelFormat(QStringLiteral("%d"));
    x_->setTickType(QValueAxis::TicksDynamic);
    x_->setTickAnchor(1);
    x_->setTickInterval(1);
    x_->setRange(1, 2);
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Test accuracy (%)"));
    y_->setLabelFormat(QStringLiteral("%.1f"));
    y_->setRange(0, 100);
    setAxes(x_, y_);
}

void AccuracyChart::addRecord(const QString& key, const dpu::RoundRecord& record, bool seedBand)
{
    const QPointF p(record.round, 100.0 * record.testAccuracy);
    if (seedBand)
        addBandPoint(key, record.round, record.seed, p);
    else
        addPoint(key, p);
}

void AccuracyChart::fitAxes(const QRectF& b)
{
    const double rounds = std::max(2.0, b.right());
    x_->setRange(1, rounds);
    // About ten labelled rounds at most, on whole numbers.
    x_->setTickInterval(std::max(1.0, std::ceil((rounds - 1) / 10.0)));
    const double lo = std::max(0.0, std::floor(b.top() / 5.0) * 5.0 - 5.0);
    const double hi = std::min(100.0, std::ceil(b.bottom() / 5.0) * 5.0 + 5.0);
    y_->setRange(lo, std::max(hi, lo + 5.0));
}

QString AccuracyChart::describePoint(const QString& key, const QPointF& p) const
{
    return tr("%1\nround %2: %3 % test accuracy").arg(key).arg(std::lround(p.x())).arg(p.y(), 0, 'f', 2);
}

} // namespace dpu::ui
