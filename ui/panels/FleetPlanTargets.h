// SPDX-License-Identifier: MIT
// The fleet plan view's targets as widgets: freshness (share and days), battery a year, airtime a day; each can be off.
#pragma once
#include "dpu/Deployment.h"
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;

namespace dpu::ui {

/// Shows a deployment's fleet.targets, each row switched on when the target is set; targets()
/// reads them back (shares as fractions, as the plan keeps them).
class FleetPlanTargets : public QWidget {
    Q_OBJECT
public:
    explicit FleetPlanTargets(QWidget* parent = nullptr);

    void setTargets(const dpu::FleetTargets& targets);
    /// The targets on screen. A freshness the plan states as an accuracy gap (no days) keeps its
    /// gap: the days field then stays off.
    dpu::FleetTargets targets() const;

    QCheckBox* freshOn() const { return freshOn_; }
    QDoubleSpinBox* freshShare() const { return freshShare_; }
    QDoubleSpinBox* freshDays() const { return freshDays_; }
    QCheckBox* batteryOn() const { return batteryOn_; }
    QDoubleSpinBox* battery() const { return battery_; }
    QCheckBox* airtimeOn() const { return airtimeOn_; }
    QDoubleSpinBox* airtime() const { return airtime_; }

Q_SIGNALS:
    void changed();

private:
    void enableFields();
    /// The freshness is the plan's accuracy gap, not days.
    bool byGap() const { return base_.accuracyGapPoints.has_value() && !base_.freshDays.has_value(); }

    QCheckBox* freshOn_;
    QDoubleSpinBox* freshShare_;
    QDoubleSpinBox* freshDays_;
    QCheckBox* batteryOn_;
    QDoubleSpinBox* battery_;
    QCheckBox* airtimeOn_;
    QDoubleSpinBox* airtime_;
    dpu::FleetTargets base_; ///< the targets last set: what the widgets do not show
};

} // namespace dpu::ui
