// SPDX-License-Identifier: MIT
// ChartView: shared behaviour of the live charts (series per key, legend, hover, export).
#include "charts/ChartView.h"
#include "dpu/DeployedForms.h"
#include <algorithm>
#include "charts/ChartExporter.h"
#include "charts/LegendFit.h"
#include "charts/SeedBand.h"
#include "charts/SeriesPalette.h"
#include <QAbstractAxis>
#include <QAreaSeries>
#include <QChart>
#include <QContextMenuEvent>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QMenu>
#include <QResizeEvent>
#include <QToolTip>
#include <limits>

namespace dpu::ui {

ChartView::ChartView(const QString& title, QWidget* parent) : QChartView(parent), baseTitle_(title)
{
    auto* c = new QChart;
    c->setTitle(title);
    c->legend()->setVisible(true);
    c->legend()->setAlignment(Qt::AlignBottom);
    // Live updates: animations would lag behind a fast run and blur where points really are.
    c->setAnimationOptions(QChart::NoAnimation);
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    // Qt Charts' items under-report what their markers cover, so partial repaints (a redrawn
    // frontier after the budget changed) left torn and doubled markers until the next full
    // repaint. The charts are small scenes: repaint the whole view.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setMinimumSize(320, 220);
    // A legend inside the plot (LegendFit::setInsideCorner) is outside the chart's layout.
    connect(c, &QChart::plotAreaChanged, this, [c] { LegendFit::placeInside(c); });
}

ChartView::~ChartView() = default;

QColor ChartView::colorFor(const QString& key)
{
    return SeriesPalette::strategyColor(SeriesPalette::strategyOf(key));
}

void ChartView::recolor()
{
    // A new k of a strategy re-spreads that strategy's shades; other strategies keep theirs.
    const QHash<QString, QColor> colors = SeriesPalette::colorsFor(order_);
    for (auto it = colors.begin(); it != colors.end(); ++it) {
        QLineSeries* s = series_.value(it.key());
        if (!s || s->color() == it.value())
            continue;
        s->setColor(it.value());
        if (auto band = bands_.find(it.key()); band != bands_.end())
            band->second->setColor(it.value());
    }
}

void ChartView::setAxes(QAbstractAxis* x, QAbstractAxis* y)
{
    x_ = x;
    y_ = y;
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
}

void ChartView::clearSeries()
{
    chart()->removeAllSeries(); // deletes the series (band boundaries are children of their area)
    bands_.clear();
    series_.clear();
    order_.clear();
    hasBounds_ = false;
    axesStale_ = false;
    fitLegend();
}

void ChartView::fitLegend()
{
    LegendFit::place(chart(), size());
}

void ChartView::resizeEvent(QResizeEvent* event)
{
    LegendFit::place(chart(), event->size());
    QChartView::resizeEvent(event);
}

int ChartView::pointCount(const QString& key) const
{
    const QLineSeries* s = series_.value(key);
    return s ? s->count() : 0;
}

void ChartView::setSeriesVisible(const QString& key, bool visible)
{
    QLineSeries* s = series_.value(key);
    if (!s)
        return;
    s->setVisible(visible);
    if (auto band = bands_.find(key); band != bands_.end())
        band->second->setVisible(visible);
    for (QLegendMarker* m : chart()->legend()->markers(s)) {
        m->setVisible(true); // hiding a series hides its marker; keep it to toggle back
        QColor label = m->labelBrush().color();
        label.setAlphaF(visible ? 1.0 : 0.4);
        m->setLabelBrush(label);
    }
    fitLegend(); // entries the column had to leave out stay out
}

QString ChartView::sharedContext(const std::vector<dpu::Plan>& plans)
{
    // The legend names what differs between runs; the title names what they share.
    if (plans.empty())
        return {};
    QStringList parts;
    if (plans.size() == 1)
        parts << QString::fromStdString(plans.front().name);
    const dpu::Coding coding = plans.front().bundle.values;
    // An INT8 model's bundles carry its codes whatever bundle.values says: no coding to name then.
    const auto ownCodes = [](const dpu::Plan& p) { return dpu::deployedFormInfo(p.deployed).ownValueCodes; };
    if (std::none_of(plans.begin(), plans.end(), ownCodes)
        && std::all_of(plans.begin(), plans.end(), [coding](const dpu::Plan& p) { return p.bundle.values == coding; }))
        parts << QString::fromStdString(dpu::nameOf(coding));
    // A sparse or INT8 deployed model changes what round 1 and every cost mean: say it where all
    // share it (a sparse one with its sparsity).
    const dpu::Plan& first = plans.front();
    const dpu::DeployedFormInfo& form = dpu::deployedFormInfo(first.deployed);
    const bool zeros = form.keptMask == dpu::KeptMask::Zeros;
    if (!form.contextWords.empty() && std::all_of(plans.begin(), plans.end(), [&first, zeros](const dpu::Plan& p) {
            return p.deployed == first.deployed && (!zeros || p.deployedSparsity == first.deployedSparsity);
        })) {
        const QString words = QString::fromStdString(form.contextWords);
        parts << (zeros ? words.arg(first.deployedSparsity * 100.0) : words);
    }
    return parts.join(QStringLiteral(" · "));
}

void ChartView::setContext(const QString& context)
{
    chart()->setTitle(context.isEmpty() ? baseTitle_ : baseTitle_ + QStringLiteral(" — ") + context);
}

QString ChartView::title() const
{
    return chart()->title();
}

void ChartView::setSeriesDash(const QString& key, Qt::PenStyle style)
{
    QLineSeries* s = series_.value(key);
    if (!s || s->pen().style() == style)
        return;
    QPen pen = s->pen();
    pen.setStyle(style);
    s->setPen(pen);
}

QLineSeries* ChartView::ensureSeries(const QString& key)
{
    if (QLineSeries* s = series_.value(key))
        return s;
    auto* s = new QLineSeries;
    s->setName(key);
    s->setColor(colorFor(key));
    s->setPointsVisible(true); // every point drawn, not only the polyline through them
    s->setMarkerSize(6);       // large enough that a lone first round reads as a point
    chart()->addSeries(s);
    s->attachAxis(x_);
    s->attachAxis(y_);
    series_.insert(key, s);
    order_ << key;
    recolor();
    connect(s, &QLineSeries::hovered, this, [this, s](const QPointF& p, bool state) { onHovered(s, p, state); });
    for (QLegendMarker* m : chart()->legend()->markers(s))
        connect(m, &QLegendMarker::clicked, this, [this, key] { setSeriesVisible(key, !series_.value(key)->isVisible()); });
    fitLegend();
    return s;
}

QLineSeries* ChartView::upperSeries(const QString& key) const
{
    const auto it = bands_.find(key);
    return it == bands_.end() ? nullptr : it->second->upper();
}

QLineSeries* ChartView::lowerSeries(const QString& key) const
{
    const auto it = bands_.find(key);
    return it == bands_.end() ? nullptr : it->second->lower();
}

QAreaSeries* ChartView::bandSeries(const QString& key) const
{
    const auto it = bands_.find(key);
    return it == bands_.end() ? nullptr : it->second->area();
}

void ChartView::addPoint(const QString& key, const QPointF& point)
{
    ensureSeries(key)->append(point);
    extendBounds(point);
}

void ChartView::addBandPoint(const QString& key, int index, uint64_t seed, const QPointF& point)
{
    auto it = bands_.find(key);
    if (it == bands_.end()) {
        QLineSeries* mean = ensureSeries(key);
        it = bands_.emplace(key, std::make_unique<SeedBand>(chart(), mean, mean->color())).first;
        it->second->setVisible(mean->isVisible());
    }
    const SeedBand::Stats s = it->second->add(index, seed, point);
    // Bounds only grow: a mean that moves inwards leaves the axes as they were (no jumping).
    extendBounds(QPointF(s.mean.x(), s.mean.y() + s.std));
    extendBounds(QPointF(s.mean.x(), s.mean.y() - s.std));
}

void ChartView::extendBounds(const QPointF& point)
{
    if (!hasBounds_) {
        bounds_ = QRectF(point, QSizeF(0, 0));
        hasBounds_ = true;
    } else {
        bounds_.setLeft(std::min(bounds_.left(), point.x()));
        bounds_.setRight(std::max(bounds_.right(), point.x()));
        bounds_.setTop(std::min(bounds_.top(), point.y()));
        bounds_.setBottom(std::max(bounds_.bottom(), point.y()));
    }
    // A hidden tab of a shown window refits when shown: relaying out axes nobody sees costs
    // the GUI thread milliseconds per round (measured with the responsiveness probe).
    if (!isVisible() && window()->isVisible()) {
        axesStale_ = true;
        return;
    }
    fitAxes(bounds_);
}

void ChartView::refitIfStale()
{
    if (axesStale_ && hasBounds_)
        fitAxes(bounds_);
    axesStale_ = false;
}

bool ChartView::refit()
{
    if (!hasBounds_)
        return false;
    fitAxes(bounds_);
    axesStale_ = false;
    return true;
}

void ChartView::showEvent(QShowEvent* event)
{
    refitIfStale();
    QChartView::showEvent(event);
}

void ChartView::onHovered(QLineSeries* series, const QPointF& point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // hovered() reports the cursor's position on the line; read out the nearest real point.
    const QPointF cursor = chart()->mapToPosition(point, series);
    QPointF best = point;
    qreal bestDist = std::numeric_limits<qreal>::max();
    for (const QPointF& p : series->points()) {
        const QPointF d = chart()->mapToPosition(p, series) - cursor;
        const qreal dist = d.x() * d.x() + d.y() * d.y();
        if (dist < bestDist) {
            bestDist = dist;
            best = p;
        }
    }
    QString text = describePoint(series->name(), best);
    if (auto band = bands_.find(series->name()); band != bands_.end()) {
        const SeedBand::Stats s = band->second->statsAt(best);
        if (s.seeds > 0)
            text += tr("\nmean of %n seed(s), ± %1 (std)", nullptr, s.seeds).arg(s.std, 0, 'f', 2);
    }
    QToolTip::showText(QCursor::pos(), text, this);
}

bool ChartView::exportPng(const QString& path, QString* error, qreal scale)
{
    refitIfStale();
    return ChartExporter::toPng(this, path, error, scale);
}

bool ChartView::exportSvg(const QString& path, QString* error)
{
    refitIfStale();
    return ChartExporter::toSvg(this, path, error);
}

void ChartView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Export as PNG…"), this, [this] { exportWithDialog(false); });
    menu.addAction(tr("Export as SVG…"), this, [this] { exportWithDialog(true); });
    menu.addSeparator();
    for (const QString& key : order_) {
        QAction* a = menu.addAction(key);
        a->setCheckable(true);
        a->setChecked(series_.value(key)->isVisible());
        connect(a, &QAction::toggled, this, [this, key](bool on) { setSeriesVisible(key, on); });
    }
    menu.exec(event->globalPos());
}

void ChartView::exportWithDialog(bool svg)
{
    ChartExporter::exportWithDialog(this, svg);
}

} // namespace dpu::ui
