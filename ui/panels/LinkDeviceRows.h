// SPDX-License-Identifier: MIT
// The rows of a fleet form that say how the devices meet the link: their loss spread, LoRaWAN device class and ping period, and whether they leave a session once decoded.
#pragma once
#include "dpu/FleetSettings.h"
#include <QObject>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSettings;

namespace dpu::ui {

/// Four rows under a form's link rows (the Fleet tab and the plan's Deployment… dialog share them
/// through FleetInputs): "Loss spread", "Device class", "Ping period", "Leave once decoded".
class LinkDeviceRows : public QObject {
    Q_OBJECT
public:
    /// Adds the rows to `form`; `parent` owns the widgets.
    LinkDeviceRows(QWidget* parent, QFormLayout* form);

    /// Writes the rows into `link` (the other fields untouched).
    void apply(dpu::LinkSettings& link) const;
    /// Shows `link`'s spread, class, ping periodicity and leaving.
    void show(const dpu::LinkSettings& link);
    /// The class rows apply to the LoRaWAN regions only; the ping period to Class B; the spread
    /// is at most the loss `frameLossPercent`.
    void updateEnabled(bool loraRegion, double frameLossPercent);

    /// Under "fleet/" beside FleetInputs' keys; missing keys keep `link`'s values.
    static void save(QSettings& settings, const dpu::LinkSettings& link);
    static void restore(const QSettings& settings, dpu::LinkSettings& link);

Q_SIGNALS:
    void changed();

private:
    QDoubleSpinBox* spread_;
    QComboBox* deviceClass_;
    QComboBox* pingPeriod_;
    QCheckBox* leave_;
};

} // namespace dpu::ui
