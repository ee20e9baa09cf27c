// SPDX-License-Identifier: MIT
// BytesChart: the trade-off the application exists for: accuracy bought per byte sent.
#include "charts/BytesChart.h"
#include "charts/Units.h"
#include "charts/ByteAxis.h"
#include <QCategoryAxis>
#include "charts/NiceAxis.h"
#include <QLogValueAxis>
#include <QValueAxis>
#include <cmath>

namespace dpu::ui {

BytesChart::BytesChart(QWidget* parent) : ChartView(tr("Accuracy against cumulative bytes"), parent)
{
    // What was really sent: the update bundles' bytes (the analytic cost, the paper's ratio,
    // stays in the rounds table, labelled as such).
    bytesAxis_ = new ByteAxis(tr("Cumulative update bundle bytes sent per device"), tr("Bundle bytes sent per device"), this);
    x_ = bytesAxis_->logAxis();
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Test accuracy (%)"));
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
    setAxes(x_, y_);
    chart()->addAxis(bytesAxis_->labelAxis(), Qt::AlignBottom);
    bytesAxis_->attach(chart());
}

void BytesChart::addRecord(const QString& key, const dpu::RoundRecord& record, bool seedBand)
{
    // A log axis cannot show 0; a first round that sent nothing is drawn at 1 byte.
    const double bytes = std::max(1.0, sentBytes(record));
    const QPointF p(bytes, 100.0 * record.testAccuracy);
    if (seedBand)
        addBandPoint(key, record.round, record.seed, p); // seeds deploy differently: x is their mean too
    else
        addPoint(key, p);
}

double BytesChart::sentBytes(const dpu::RoundRecord& record)
{
    // Records of runs that wrote no bundles (or predate the field) have only the analytic figure.
    if (record.cumulativeBundleBytes > 0 || record.bundleBytes > 0)
        return static_cast<double>(record.cumulativeBundleBytes);
    return record.cumulativeBits / 8.0;
}

void BytesChart::fitAxes(const QRectF& b)
{
    // Whole decades keep the log grid readable.
    bytesAxis_->setRange(b.left(), b.right());
    NiceAxis::fit(y_, b.top() - 2, b.bottom() + 2, 6, 0, 100);
}

QString BytesChart::describePoint(const QString& key, const QPointF& p) const
{
    return tr("%1\n%2 sent: %3 % test accuracy").arg(key, Units::bytes(p.x())).arg(p.y(), 0, 'f', 2);
}

} // namespace dpu::ui
