// SPDX-License-Identifier: MIT
// The rows of a fleet form that say how the devices meet the link: their loss spread, LoRaWAN device class and ping period, and whether they leave a session once decoded.
#pragma once
#include "dpu/DeploymentModel.h"
#include <QObject>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;

namespace dpu::ui {

/// Four rows under a form's link rows (the Fleet tab and the plan's Deployment… dialog share them
/// through FleetInputs): "Loss spread", "Device class", "Ping period", "Leave once decoded".
class LinkDeviceRows : public QObject {
    Q_OBJECT
public:
    /// Adds the rows to `form`; `parent` owns the widgets.
    LinkDeviceRows(QWidget* parent, QFormLayout* form);

    /// Writes the rows into `link` (the other fields untouched).
    void apply(dpu::DeploymentLink& link) const;
    /// Shows `link`'s spread, class, ping periodicity and leaving.
    void show(const dpu::DeploymentLink& link);
    /// The spread is at most the loss `frameLossPercent` (and 100 minus it). Which rows apply is
    /// the plan field table's rule (FleetInputs binds them to its FieldEnabling).
    void limitSpread(double frameLossPercent);

    /// The row's widget of the plan key `path` (fleet.loss_spread, fleet.device_class,
    /// fleet.ping_periodicity, fleet.leave_when_decoded); nullptr for any other.
    QWidget* widgetFor(const std::string& path) const;

Q_SIGNALS:
    void changed();

private:
    QDoubleSpinBox* spread_;
    QComboBox* deviceClass_;
    QComboBox* pingPeriod_;
    QCheckBox* leave_;
};

} // namespace dpu::ui
