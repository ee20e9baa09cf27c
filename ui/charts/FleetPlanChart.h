// SPDX-License-Identifier: MIT
// The fleet planner's frontier: fleet accuracy against battery a year for every simulated candidate, the Pareto set and the recommendation marked.
#pragma once
#include "dpu/FleetPlanner.h"
#include <QChartView>
#include <QString>
#include <vector>

class QScatterSeries;
class QLogValueAxis;
class QValueAxis;

namespace dpu::ui {

/// One scatter per kind of point: the other measured candidates (small, grey), the Pareto set
/// (in colour, its shade from red to green by the share of the fleet fresh) and the recommended
/// or nearest candidate (a large ring). Hovering a point names its candidate, setting and
/// freshness. Estimated candidates are not drawn (nobody ran them).
class FleetPlanChart : public QChartView {
    Q_OBJECT
public:
    explicit FleetPlanChart(QWidget* parent = nullptr);

    /// Redraws the chart for `plan` (empty: no point).
    void setPlan(const dpu::FleetPlan& plan);
    QScatterSeries* otherSeries() const { return others_; }
    QScatterSeries* paretoSeries() const { return pareto_; }
    QScatterSeries* chosenSeries() const { return chosen_; }
    /// What hovering the point at `index` of `series` shows.
    QString describe(const QScatterSeries* series, int index) const;

private:
    void fitAxes();

    QScatterSeries* others_;
    QScatterSeries* pareto_;
    QScatterSeries* chosen_;
    QLogValueAxis* x_; ///< battery a year on a log scale: one fleet spans 1 % to 100,000 %
    QValueAxis* y_;
    dpu::FleetPlan plan_;
    /// The candidate index of each point, per series (others, pareto, chosen).
    std::vector<size_t> otherIdx_, paretoIdx_, chosenIdx_;
};

} // namespace dpu::ui
