// SPDX-License-Identifier: MIT
// ByteAxis: decade labels with units over a log axis that keeps the grid.
#include "charts/ByteAxis.h"
#include <QCategoryAxis>
#include <QLogValueAxis>
#include <cmath>

namespace dpu::ui {

ByteAxis::ByteAxis(const QString& title, QObject* parent) : QObject(parent)
{
    log_ = new QLogValueAxis(this);
    log_->setBase(10);
    log_->setMinorTickCount(8);
    log_->setLabelsVisible(false);
    log_->setTitleVisible(false);
    labels_ = new QCategoryAxis(this);
    labels_->setTitleText(title);
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
    log_->setRange(std::pow(10.0, a), std::pow(10.0, b));
    for (const QString& l : labels_->categoriesLabels())
        labels_->remove(l);
    labels_->setStartValue(a);
    for (int d = a; d <= b; ++d)
        labels_->append(label(std::pow(10.0, d)), d);
    labels_->setRange(a, b);
}

QStringList ByteAxis::labels() const
{
    return labels_->categoriesLabels();
}

} // namespace dpu::ui
