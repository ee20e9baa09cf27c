// SPDX-License-Identifier: MIT
// BytesChart: the trade-off the application exists for: accuracy bought per byte sent.
#include "charts/BytesChart.h"
#include "panels/CostReadout.h"
#include <QLogValueAxis>
#include <QValueAxis>
#include <cmath>

namespace dpu::ui {

BytesChart::BytesChart(QWidget* parent) : ChartView(tr("Accuracy against cumulative bytes"), parent)
{
    x_ = new QLogValueAxis(this);
    x_->setTitleText(tr("Cumulative server-to-device bytes per device"));
    x_->setBase(10);
    x_->setLabelFormat(QStringLiteral("%.0e"));
    x_->setMinorTickCount(8);
    x_->setRange(1e3, 1e7);
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Test accuracy (%)"));
    y_->setLabelFormat(QStringLiteral("%.1f"));
    y_->setRange(0, 100);
    setAxes(x_, y_);
}

void BytesChart::addRecord(const QString& key, const dpu::RoundRecord& record, bool seedBand)
{
    // A log axis cannot show 0; a first round that sent nothing is drawn at 1 byte.
    const double bytes = std::max(1.0, record.cumulativeBits / 8.0);
    const QPointF p(bytes, 100.0 * record.testAccuracy);
    if (seedBand)
        addBandPoint(key, record.round, record.seed, p); // seeds deploy differently: x is their mean too
    else
        addPoint(key, p);
}

void BytesChart::fitAxes(const QRectF& b)
{
    // Whole decades keep the log grid readable.
    const double lo = std::pow(10.0, std::floor(std::log10(std::max(1.0, b.left()))));
    double hi = std::pow(10.0, std::ceil(std::log10(std::max(1.0, b.right()))));
    if (hi <= lo)
        hi = lo * 10;
    x_->setRange(lo, hi);
    const double ylo = std::max(0.0, std::floor(b.top() / 5.0) * 5.0 - 5.0);
    const double yhi = std::min(100.0, std::ceil(b.bottom() / 5.0) * 5.0 + 5.0);
    y_->setRange(ylo, std::max(yhi, ylo + 5.0));
}

QString BytesChart::describePoint(const QString& key, const QPointF& p) const
{
    return tr("%1\n%2 sent: %3 % test accuracy").arg(key, CostReadout::formatBytes(p.x())).arg(p.y(), 0, 'f', 2);
}

} // namespace dpu::ui
