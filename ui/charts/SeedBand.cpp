// SPDX-License-Identifier: MIT
// SeedBand: live mean +- std over seeds, rewritten in place as each seed's round arrives.
#include "charts/SeedBand.h"
#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <cmath>
#include <iterator>

namespace dpu::ui {

SeedBand::SeedBand(QChart* chart, QLineSeries* mean, const QColor& color) : mean_(mean)
{
    upper_ = new QLineSeries;
    lower_ = new QLineSeries;
    area_ = new QAreaSeries(upper_, lower_);
    // QAreaSeries does not own its boundary lines; parent them so the chart's removal frees them.
    upper_->setParent(area_);
    lower_->setParent(area_);
    area_->setName(mean->name() + QStringLiteral(" ±std"));
    setColor(color);
    chart->addSeries(area_);
    for (QAbstractAxis* axis : mean->attachedAxes())
        area_->attachAxis(axis);
    // One legend entry per strategy: the mean line's marker also toggles its band.
    for (QLegendMarker* m : chart->legend()->markers(area_))
        m->setVisible(false);
}

void SeedBand::setColor(const QColor& color)
{
    QColor fill = color;
    fill.setAlphaF(0.2);
    area_->setBrush(fill);
    QColor edge = color;
    edge.setAlphaF(0.5);
    area_->setPen(QPen(edge, 0.8));
}

SeedBand::Stats SeedBand::stats(const std::map<uint64_t, QPointF>& seeds) const
{
    Stats s;
    s.seeds = static_cast<int>(seeds.size());
    double x = 0, y = 0;
    for (const auto& [seed, p] : seeds) {
        x += p.x();
        y += p.y();
    }
    s.mean = QPointF(x / s.seeds, y / s.seeds);
    double var = 0;
    for (const auto& [seed, p] : seeds)
        var += (p.y() - s.mean.y()) * (p.y() - s.mean.y());
    s.std = std::sqrt(var / s.seeds);
    return s;
}

SeedBand::Stats SeedBand::add(int index, uint64_t seed, const QPointF& point)
{
    const bool isNew = values_.find(index) == values_.end();
    auto& seeds = values_[index];
    seeds[seed] = point;
    const Stats s = stats(seeds);
    const int pos = static_cast<int>(std::distance(values_.begin(), values_.find(index)));
    const QPointF up(s.mean.x(), s.mean.y() + s.std);
    const QPointF down(s.mean.x(), s.mean.y() - s.std);
    if (isNew) {
        mean_->insert(pos, s.mean);
        upper_->insert(pos, up);
        lower_->insert(pos, down);
    } else {
        mean_->replace(pos, s.mean);
        upper_->replace(pos, up);
        lower_->replace(pos, down);
    }
    return s;
}

SeedBand::Stats SeedBand::statsAt(const QPointF& meanPoint) const
{
    for (const auto& [index, seeds] : values_) {
        const Stats s = stats(seeds);
        if (s.mean == meanPoint)
            return s;
    }
    return {};
}

void SeedBand::setVisible(bool visible)
{
    area_->setVisible(visible);
}

} // namespace dpu::ui
