// SPDX-License-Identifier: MIT
// FleetAccuracyChart: x = days since the first simulated round, y = mean test accuracy (%) the fleet runs, and the server's.
#include "charts/FleetAccuracyChart.h"
#include "charts/NiceAxis.h"
#include <QValueAxis>
#include <algorithm>

namespace dpu::ui {

FleetAccuracyChart::FleetAccuracyChart(QWidget* parent) : ChartView(tr("Fleet accuracy over time (dashed: the server's)"), parent)
{
    x_ = new QValueAxis(this);
    x_->setTitleText(tr("Days"));
    NiceAxis::fit(x_, 0, 1, 6, 0, 1e9);
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Test accuracy the devices run (%)"));
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
    setAxes(x_, y_);
}

QString FleetAccuracyChart::serverKey(const QString& key)
{
    // "server" first: a legend that must elide its entries cuts their ends, and "dpu · fp32 ·
    // deployed=int8 · server" then read the same as the fleet's own "dpu · fp32 · deploy…".
    return tr("server · ") + key;
}

void FleetAccuracyChart::addResult(const QString& key, const dpu::FleetResult& result, double periodSeconds)
{
    constexpr double day = 86400;
    // The server's accuracy steps at each release (a round's start); the fleet's is what its
    // devices run once the round's sessions are over (the round's end).
    const QString server = serverKey(key);
    for (const dpu::FleetRound& r : result.rounds) {
        addPoint(server, QPointF(r.startSeconds / day, 100.0 * r.serverAccuracy));
        addPoint(key, QPointF((r.startSeconds + periodSeconds) / day, 100.0 * r.fleetAccuracy));
    }
    if (!result.rounds.empty()) // the server's line reaches the fleet's last point
        addPoint(server, QPointF((result.rounds.back().startSeconds + periodSeconds) / day, 100.0 * result.rounds.back().serverAccuracy));
    setSeriesDash(server, Qt::DashLine);
}

void FleetAccuracyChart::fitAxes(const QRectF& b)
{
    NiceAxis::fit(x_, 0, std::max(b.right(), 1e-3), 5, 0, 1e9);
    NiceAxis::fit(y_, b.top() - 2, b.bottom() + 2, 6, 0, 100);
}

QString FleetAccuracyChart::describePoint(const QString& key, const QPointF& p) const
{
    return tr("%1\nday %2: %3 % test accuracy").arg(key).arg(p.x(), 0, 'f', 2).arg(p.y(), 0, 'f', 2);
}

} // namespace dpu::ui
