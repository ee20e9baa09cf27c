// SPDX-License-Identifier: MIT
// LayerChart: which layers a round changed, as a share of each tensor's weights.
#include "charts/LayerChart.h"
#include "charts/ChartExporter.h"
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QContextMenuEvent>
#include <QMenu>
#include <QLegend>
#include "charts/NiceAxis.h"
#include "charts/SeriesPalette.h"
#include <QValueAxis>
#include <algorithm>

namespace dpu::ui {

LayerChart::LayerChart(QWidget* parent) : QChartView(parent)
{
    auto* c = new QChart;
    c->setTitle(tr("Updated weights per layer"));
    c->setAnimationOptions(QChart::NoAnimation);
    c->legend()->setVisible(true);
    c->legend()->setAlignment(Qt::AlignBottom);
    series_ = new QBarSeries;
    c->addSeries(series_);
    x_ = new QBarCategoryAxis;
    x_->setTitleText(tr("Partial tensor"));
    y_ = new QValueAxis;
    y_->setTitleText(tr("Updated weights (% of the tensor)"));
    NiceAxis::fit(y_, 0, 1, 5, 0, 100);
    c->addAxis(x_, Qt::AlignBottom);
    c->addAxis(y_, Qt::AlignLeft);
    series_->attachAxis(x_);
    series_->attachAxis(y_);
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 220);
}

void LayerChart::clearRecord()
{
    hasPending_ = false;
    offered_.clear();
    offeredOrder_.clear();
    series_->clear();
    x_->clear();
    chart()->setTitle(tr("Updated weights per layer"));
}

void LayerChart::offerRecord(const QString& key, const dpu::RoundRecord& record)
{
    if (!offered_.contains(key))
        offeredOrder_ << key;
    offered_.insert(key, record);
}

bool LayerChart::showKey(const QString& key)
{
    if (!offered_.contains(key))
        return false;
    showRecord(offered_.value(key), key);
    return true;
}

QString LayerChart::title() const
{
    flush();
    return chart()->title();
}

void LayerChart::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Export as PNG…"), this, [this] { flush(); ChartExporter::exportWithDialog(this, false); });
    menu.addAction(tr("Export as SVG…"), this, [this] { flush(); ChartExporter::exportWithDialog(this, true); });
    if (!offeredOrder_.isEmpty()) {
        menu.addSeparator();
        for (const QString& key : offeredOrder_) // any series' latest round, not only the last one's
            menu.addAction(tr("Show %1, round %2").arg(key).arg(offered_.value(key).round), this, [this, key] { showKey(key); });
    }
    menu.exec(event->globalPos());
}

void LayerChart::showRecord(const dpu::RoundRecord& r, const QString& key)
{
    pending_ = r;
    pendingKey_ = key;
    hasPending_ = true;
    // Rebuilding bars and axes costs the GUI thread 5-20 ms per round; a tab nobody looks at
    // during a run need not pay it every round (measured with the responsiveness probe).
    if (isVisible() || !window()->isVisible())
        flush();
}

void LayerChart::showEvent(QShowEvent* event)
{
    flush();
    QChartView::showEvent(event);
}

void LayerChart::flush() const
{
    if (!hasPending_)
        return;
    hasPending_ = false;
    draw(pending_, pendingKey_);
}

void LayerChart::draw(const dpu::RoundRecord& r, const QString& key) const
{
    series_->clear();
    x_->clear();
    auto* set = new QBarSet(QStringLiteral("%1, seed %2, round %3").arg(QString::fromStdString(r.strategy)).arg(r.seed).arg(r.round));
    QStringList names;
    double top = 0;
    for (const dpu::LayerUpdate& l : r.layers) {
        const double share = l.total > 0 ? 100.0 * static_cast<double>(l.updated) / static_cast<double>(l.total) : 0;
        *set << share;
        top = std::max(top, share);
        // "features.0.weight" -> "features.0": the suffix is the same for every partial tensor.
        QString name = QString::fromStdString(l.name);
        if (name.endsWith(QLatin1String(".weight")))
            name.chop(7);
        names << name;
    }
    set->setColor(SeriesPalette::strategyColor(QString::fromStdString(r.strategy))); // as in the other charts
    series_->append(set);
    x_->append(names);
    // A share never exceeds 100 %: the axis stops there (room above the bars only below it).
    NiceAxis::fit(y_, 0, top > 0 ? std::min(100.0, top * 1.05) : 1.0, 5, 0, 100);
    chart()->setTitle(tr("Updated weights per layer: %1 round %2 (%3 of %4 weights)")
                          .arg(key.isEmpty() ? QString::fromStdString(r.strategy) : key).arg(r.round).arg(r.updatedWeights)
                          .arg([&r] { qint64 t = 0; for (const auto& l : r.layers) t += l.total; return t; }()));
}

int LayerChart::barCount() const
{
    flush();
    return series_->count() ? series_->barSets().constFirst()->count() : 0;
}

bool LayerChart::exportPng(const QString& path, QString* error)
{
    flush();
    return ChartExporter::toPng(this, path, error);
}

bool LayerChart::exportSvg(const QString& path, QString* error)
{
    flush();
    return ChartExporter::toSvg(this, path, error);
}

} // namespace dpu::ui
