// SPDX-License-Identifier: MIT
// VersionSpreadChart: stacked areas of the share of the fleet on each version after each round.
#include "charts/VersionSpreadChart.h"
#include "charts/LegendFit.h"
#include "charts/NiceAxis.h"
#include "charts/SeriesPalette.h"
#include <QAreaSeries>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QResizeEvent>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>

namespace dpu::ui {

VersionSpreadChart::VersionSpreadChart(QWidget* parent) : QChartView(parent)
{
    auto* c = new QChart;
    c->setTitle(tr("Versions in the fleet"));
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setAnimationOptions(QChart::NoAnimation);
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 220);
    x_ = new QValueAxis(this);
    x_->setTitleText(tr("Days"));
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Share of the fleet (%)"));
    NiceAxis::fit(x_, 0, 1, 6, 0, 1e9);
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
    c->addAxis(x_, Qt::AlignBottom);
    c->addAxis(y_, Qt::AlignLeft);
}

void VersionSpreadChart::clearResult()
{
    chart()->removeAllSeries();
    areas_.clear();
    chart()->setTitle(tr("Versions in the fleet"));
}

void VersionSpreadChart::showResult(const QString& key, const dpu::FleetResult& result,
                                    const std::vector<dpu::FleetVersion>& versions, double periodSeconds)
{
    clearResult();
    chart()->setTitle(tr("Versions in the fleet: %1").arg(key));
    size_t count = 0;
    for (const dpu::FleetRound& r : result.rounds)
        count = std::max(count, r.versionShare.size());
    // The newest versions in the strategy's colour, the oldest paler: the eye follows the
    // update as a dark band rising from the top.
    const QColor base = SeriesPalette::strategyColor(SeriesPalette::strategyOf(key));
    std::vector<double> below(result.rounds.size(), 0.0);
    double lastDay = 1e-3;
    for (size_t v = 0; v < count; ++v) {
        auto* lower = new QLineSeries;
        auto* upper = new QLineSeries;
        for (size_t i = 0; i < result.rounds.size(); ++i) {
            const dpu::FleetRound& r = result.rounds[i];
            const double share = v < r.versionShare.size() ? r.versionShare[v] : 0.0;
            const double day = (r.startSeconds + periodSeconds) / 86400.0;
            lower->append(day, 100.0 * below[i]);
            below[i] += share;
            upper->append(day, 100.0 * below[i]);
            lastDay = std::max(lastDay, day);
        }
        auto* area = new QAreaSeries(upper, lower);
        const int round = v < versions.size() ? versions[v].round : 0;
        area->setName(tr("v%1 · round %2").arg(v).arg(round));
        area->setProperty(LegendFit::kAreaEntry, true);
        QColor color = SeriesPalette::shade(base, static_cast<int>(count - 1 - v), static_cast<int>(count));
        area->setColor(color);
        area->setBorderColor(color.darker(130));
        connect(area, &QAreaSeries::hovered, this, [area](const QPointF&, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), area->name());
            else
                QToolTip::hideText();
        });
        chart()->addSeries(area);
        // The tab's column is narrow: the legend says "v3", the hover the round that deployed it.
        for (QLegendMarker* m : chart()->legend()->markers(area))
            m->setLabel(tr("v%1").arg(v));
        area->attachAxis(x_);
        area->attachAxis(y_);
        areas_ << area;
    }
    NiceAxis::fit(x_, 0, lastDay, 5, 0, 1e9);
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
    // Many versions: the legend would cover the chart; the hover names them instead.
    chart()->legend()->setVisible(count <= 12);
    // In the Fleet tab's narrow column Qt's row below shrank "v3 · round 4" to nothing.
    LegendFit::place(chart(), size());
}

void VersionSpreadChart::resizeEvent(QResizeEvent* event)
{
    LegendFit::place(chart(), event->size());
    QChartView::resizeEvent(event);
}

QStringList VersionSpreadChart::versionNames() const
{
    QStringList names;
    for (const QAreaSeries* a : areas_)
        names << a->name();
    return names;
}

QAreaSeries* VersionSpreadChart::area(int v) const
{
    return v >= 0 && v < areas_.size() ? areas_[v] : nullptr;
}

} // namespace dpu::ui
