// SPDX-License-Identifier: MIT
// AccuracyChart: x = round, y = test accuracy (%) of what the devices run after that round.
#include "charts/AccuracyChart.h"
#include "charts/NiceAxis.h"
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

AccuracyChart::AccuracyChart(QWidget* parent) : ChartView(tr("Test accuracy per round"), parent)
{
    x_ = new QValueAxis(this);
    x_->setTitleText(tr("Round"));
    NiceAxis::fitIndices(x_, 1, 1, 10);
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Test accuracy (%)"));
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
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

void AccuracyChart::expectRounds(int rounds)
{
    rounds_ = rounds;
    if (!refit())
        NiceAxis::fitIndices(x_, 1, std::max(1, rounds), 10);
}

void AccuracyChart::fitAxes(const QRectF& b)
{
    // About ten labelled rounds at most, on whole numbers; round 1 alone is a point in the middle
    // unless a plan's rounds are expected.
    NiceAxis::fitIndices(x_, 1, std::max({1.0, b.right(), double(rounds_)}), 10);
    NiceAxis::fit(y_, b.top() - 2, b.bottom() + 2, 6, 0, 100);
}

QString AccuracyChart::describePoint(const QString& key, const QPointF& p) const
{
    return tr("%1\nround %2: %3 % test accuracy").arg(key).arg(std::lround(p.x())).arg(p.y(), 0, 'f', 2);
}

} // namespace dpu::ui
