// SPDX-License-Identifier: MIT
// ByteAxis: decade labels with units over a log axis that keeps the grid.
#include "charts/ByteAxis.h"
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QLogValueAxis>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

ByteAxis::ByteAxis(const QString& title, const QString& shortTitle, QObject* parent)
    : QObject(parent), title_(title), shortTitle_(shortTitle)
{
    log_ = new QLogValueAxis(this);
    log_->setBase(10);
    log_->setMinorTickCount(8);
    log_->setLabelsVisible(false);
    log_->setTitleVisible(false);
    labels_ = new QCategoryAxis(this);
    labels_->setTitleText(title_);
    labels_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    labels_->setGridLineVisible(false);
    labels_->setLineVisible(false);
    setRange(1e3, 1e7);
}

QString ByteAxis::label(double bytes)
{
    const int decade = static_cast<int>(std::lround(std::log10(std::max(1.0, bytes))));
    static const char* const units[] = {"B", "KB", "MB", "GB", "TB"};
    const int unit = std::min(decade / 3, 4);
    const int zeros = decade - 3 * unit;
    return QStringLiteral("%1 %2").arg(static_cast<int>(std::lround(std::pow(10.0, zeros)))).arg(QLatin1String(units[unit]));
}

void ByteAxis::setRange(double lo, double hi)
{
    int a = static_cast<int>(std::floor(std::log10(std::max(1.0, lo)) + 1e-9));
    int b = static_cast<int>(std::ceil(std::log10(std::max(1.0, hi)) - 1e-9));
    if (b <= a)
        b = a + 1;
    first_ = a;
    last_ = b;
    log_->setRange(std::pow(10.0, a), std::pow(10.0, b));
    relabel();
}

void ByteAxis::relabel()
{
    for (const QString& l : labels_->categoriesLabels())
        labels_->remove(l);
    labels_->setStartValue(first_);
    for (int d = first_; d <= last_; ++d)
        if ((d - first_) % step_ == 0)
            labels_->append(label(std::pow(10.0, d)), d);
    labels_->setRange(first_, last_);
}

void ByteAxis::attach(QChart* chart)
{
    connect(chart, &QChart::plotAreaChanged, this, [this](const QRectF& plot) { fitWidth(plot.width()); });
}

void ByteAxis::fitWidth(qreal plotWidth)
{
    int step = 1;
    QString title = title_;
    if (plotWidth >= 50) {
        const QFontMetricsF fm(labels_->labelsFont());
        qreal widest = 0;
        for (int d = first_; d <= last_; ++d)
            widest = std::max(widest, fm.horizontalAdvance(label(std::pow(10.0, d))));
        // A label needs its width and a gap of two characters to the next one.
        const qreal perDecade = plotWidth / std::max(1, last_ - first_);
        while (step < last_ - first_ && step * perDecade < widest + 2 * fm.averageCharWidth())
            ++step;
        if (!shortTitle_.isEmpty() && QFontMetricsF(labels_->titleFont()).horizontalAdvance(title_) > plotWidth)
            title = shortTitle_;
    }
    // Only on a change: relabelling lays the chart out again, which reports its plot area again.
    if (title != labels_->titleText())
        labels_->setTitleText(title);
    if (step != step_) {
        step_ = step;
        relabel();
    }
}

QStringList ByteAxis::labels() const
{
    return labels_->categoriesLabels();
}

} // namespace dpu::ui
