// SPDX-License-Identifier: MIT
// LossChart: every epoch of every training step (full and fine-tune) as one point.
#include "charts/LossChart.h"
#include "charts/NiceAxis.h"
#include <QValueAxis>
#include <cmath>

namespace dpu::ui {

LossChart::LossChart(QWidget* parent) : ChartView(tr("Training loss per epoch"), parent)
{
    x_ = new QValueAxis(this);
    x_->setTitleText(tr("Epoch (all training steps, in order)"));
    NiceAxis::fitIndices(x_, 1, 1, 10);
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Training loss (cross-entropy)"));
    NiceAxis::fit(y_, 0, 1, 5, 0, 1e9);
    setAxes(x_, y_);
}

void LossChart::addEpoch(const QString& key, const dpu::EpochEvent& epoch)
{
    auto& list = epochs_[key];
    list.append(epoch);
    addPoint(key, QPointF(list.size(), epoch.trainLoss));
}

void LossChart::clearAll()
{
    clearSeries();
    epochs_.clear();
}

void LossChart::fitAxes(const QRectF& b)
{
    NiceAxis::fitIndices(x_, 1, std::max(1.0, b.right()), 10);
    NiceAxis::fit(y_, 0, b.bottom() > 0 ? b.bottom() * 1.05 : 1.0, 5, 0, 1e9);
}

QString LossChart::describePoint(const QString& key, const QPointF& p) const
{
    const auto list = epochs_.value(key);
    const int i = static_cast<int>(std::lround(p.x())) - 1;
    if (i < 0 || i >= list.size())
        return tr("%1\nloss %2").arg(key).arg(p.y(), 0, 'f', 4);
    const dpu::EpochEvent& e = list[i];
    return tr("%1\nround %2, %3 epoch %4/%5\nloss %6, validation %7 %, lr %8")
        .arg(key)
        .arg(e.round)
        .arg(QString::fromLatin1(dpu::phaseName(e.phase)))
        .arg(e.epoch)
        .arg(e.epochs)
        .arg(e.trainLoss, 0, 'f', 4)
        .arg(100.0 * e.valAccuracy, 0, 'f', 2)
        .arg(e.lr, 0, 'g', 3);
}

} // namespace dpu::ui
