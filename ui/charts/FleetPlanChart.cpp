// SPDX-License-Identifier: MIT
// FleetPlanChart: the planner's candidates as scatters on value axes (battery % a year, fleet accuracy %), with hover text.
#include "charts/FleetPlanChart.h"
#include <QChart>
#include <QCursor>
#include <QScatterSeries>
#include <QToolTip>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace dpu::ui {
namespace {

QScatterSeries* scatter(const QString& name, const QColor& color, qreal size, QScatterSeries::MarkerShape shape)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setColor(color);
    s->setBorderColor(color.darker(140));
    s->setMarkerSize(size);
    s->setMarkerShape(shape);
    return s;
}

constexpr double kFloorPercent = 1e-3; ///< the battery axis' least value (log scale)

QPointF pointOf(const dpu::FleetPlanCandidate& c)
{
    // A log axis has no 0: a fleet that spends nothing sits at its floor.
    return {std::max(c.batteryPerYear * 100.0, kFloorPercent), c.fleetAccuracy * 100.0};
}

} // namespace

FleetPlanChart::FleetPlanChart(QWidget* parent)
    : QChartView(parent), others_(scatter(tr("Other candidates"), QColor(160, 160, 160), 7, QScatterSeries::MarkerShapeCircle)),
      pareto_(scatter(tr("Pareto set (red to green: none to all of the fleet fresh)"), QColor(31, 119, 180), 10,
                      QScatterSeries::MarkerShapeCircle)),
      chosen_(scatter(tr("Recommended"), QColor(0, 0, 0, 0), 20, QScatterSeries::MarkerShapeCircle)),
      x_(new QLogValueAxis(this)), y_(new QValueAxis(this))
{
    auto* chart = new QChart;
    chart->setTitle(tr("Fleet plan: accuracy on the devices against battery a year"));
    chart->addAxis(x_, Qt::AlignBottom);
    chart->addAxis(y_, Qt::AlignLeft);
    x_->setTitleText(tr("Battery a year (%, log scale)"));
    x_->setBase(10);
    x_->setLabelFormat(QStringLiteral("%g"));
    y_->setTitleText(tr("Fleet accuracy (%)"));
    chosen_->setBorderColor(QColor(214, 39, 40));
    chosen_->setPen(QPen(QColor(214, 39, 40), 2.5));
    for (QScatterSeries* s : {others_, pareto_, chosen_}) {
        chart->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(y_);
        connect(s, &QScatterSeries::hovered, this, [this, s](const QPointF&, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            // The point under the cursor: the nearest of the series to where it is drawn.
            const QPointF at = this->chart()->mapToValue(mapFromGlobal(QCursor::pos()), s);
            int best = -1;
            qreal bestD = 0;
            for (int i = 0; i < s->count(); ++i) {
                const QPointF d = s->at(i) - at;
                const qreal dist = d.x() * d.x() + d.y() * d.y();
                if (best < 0 || dist < bestD)
                    best = i, bestD = dist;
            }
            if (best >= 0)
                QToolTip::showText(QCursor::pos(), describe(s, best), this);
        });
    }
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(220);
}

void FleetPlanChart::setPlan(const dpu::FleetPlan& plan)
{
    plan_ = plan;
    others_->clear();
    pareto_->clear();
    chosen_->clear();
    otherIdx_.clear();
    paretoIdx_.clear();
    chosenIdx_.clear();
    const std::optional<size_t> chosen = plan.recommended ? plan.recommended : plan.nearest;
    chosen_->setName(plan.recommended ? tr("Recommended") : tr("Nearest to the targets"));
    for (size_t i = 0; i < plan.candidates.size(); ++i) {
        const dpu::FleetPlanCandidate& c = plan.candidates[i];
        if (c.estimated || !std::isfinite(c.batteryPerYear) || !std::isfinite(c.fleetAccuracy))
            continue;
        if (std::find(plan.pareto.begin(), plan.pareto.end(), i) != plan.pareto.end()) {
            // Freshness as colour: red (none of the fleet fresh) to green (all of it).
            const double f = std::clamp(c.freshShare, 0.0, 1.0);
            pareto_->append(pointOf(c));
            QHash<QXYSeries::PointConfiguration, QVariant> look;
            look[QXYSeries::PointConfiguration::Color] = QColor::fromRgbF(float(1 - f) * 0.85f, float(f) * 0.7f, 0.2f);
            pareto_->setPointConfiguration(pareto_->count() - 1, look);
            paretoIdx_.push_back(i);
        } else {
            others_->append(pointOf(c));
            otherIdx_.push_back(i);
        }
        if (chosen && *chosen == i) {
            chosen_->append(pointOf(c));
            chosenIdx_.push_back(i);
        }
    }
    fitAxes();
}

QString FleetPlanChart::describe(const QScatterSeries* series, int index) const
{
    const std::vector<size_t>& idx = series == pareto_ ? paretoIdx_ : series == chosen_ ? chosenIdx_ : otherIdx_;
    if (index < 0 || size_t(index) >= idx.size() || idx[size_t(index)] >= plan_.candidates.size())
        return {};
    const dpu::FleetPlanCandidate& c = plan_.candidates[idx[size_t(index)]];
    return tr("%1\n%2\nfleet accuracy %3 %, battery %4 % a year\n%5 % of the fleet fresh at worst; 90 % within %6 days")
        .arg(QString::fromStdString(c.label), QString::fromStdString(dpu::fleetSettingText(c.setting)))
        .arg(c.fleetAccuracy * 100, 0, 'f', 1)
        .arg(c.batteryPerYear * 100, 0, 'g', 3)
        .arg(c.freshShare * 100, 0, 'f', 0)
        .arg(c.freshDays, 0, 'g', 3);
}

void FleetPlanChart::fitAxes()
{
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    bool any = false;
    for (const QScatterSeries* s : {others_, pareto_})
        for (int i = 0; i < s->count(); ++i) {
            const QPointF p = s->at(i);
            x0 = any ? std::min(x0, p.x()) : p.x();
            x1 = any ? std::max(x1, p.x()) : p.x();
            y0 = any ? std::min(y0, p.y()) : p.y();
            y1 = any ? std::max(y1, p.y()) : p.y();
            any = true;
        }
    if (!any) {
        x_->setRange(0.1, 100);
        y_->setRange(0, 100);
        return;
    }
    const double dy = std::max((y1 - y0) * 0.08, 0.5);
    // Whole decades around the points: the log axis labels each.
    x_->setRange(std::pow(10.0, std::floor(std::log10(x0))), std::pow(10.0, std::ceil(std::log10(x1 * 1.0001))));
    y_->setRange(y0 - dy, y1 + dy);
    y_->applyNiceNumbers();
}

} // namespace dpu::ui
