// SPDX-License-Identifier: MIT
// The Fleet tab's inputs: link and spreading factor or mix, duty cycle, loss, delivery, devices, availability or trace, period, drain, catch-up policy, processor.
#pragma once
#include "dpu/FleetSettings.h"
#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLayout;
class QDoubleSpinBox;
class QLineEdit;
class QSettings;
class QSpinBox;

namespace dpu::ui {

class LinkDeviceRows;

class FleetInputs : public QGroupBox {
    Q_OBJECT
public:
    explicit FleetInputs(QWidget* parent = nullptr);

    /// The fleet the widgets state, the server's policy and the devices' processor included.
    dpu::FleetSettings settings() const;
    /// Shows `settings` (a link key the list lacks falls back to LoRaWAN EU868).
    void setSettings(const dpu::FleetSettings& settings);

    /// Shows only the rows a plan's fleet keys hold (link, SF, sub-band, loss, delivery,
    /// devices, availability, period): the trace, drain, server policy and processor are hidden.
    void showPlanKeysOnly();

    /// Under "fleet/" in the settings; missing keys keep the current values.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

    /// The flagship scenario of docs/fleet.md: 200 nodes, LoRaWAN EU868 with FUOTASim's SF mix,
    /// a 1 % sub-band, 10 % frame loss, 80 % availability, a round a day, 10 rounds to drain.
    static dpu::FleetSettings flagship();

Q_SIGNALS:
    void changed();

private:
    void addLinkRows(QFormLayout* form);
    void addFleetRows(QFormLayout* form);
    void addServerRows(QFormLayout* form);
    void addProcessorRows(QFormLayout* form);
    void chooseTrace();
    void updateEnabled();
    /// Selects the SF row for `mix` (and `spreadingFactor` without one): FUOTASim's entry, an
    /// SF, or an entry of the mix's own text for any other mix (replacing an earlier one).
    void selectSpreadingFactor(int spreadingFactor, const std::string& mix);

    QFormLayout* form_ = nullptr;
    QLayout* traceRow_ = nullptr;
    QComboBox* link_;
    QComboBox* sf_;
    QComboBox* duty_;
    QDoubleSpinBox* loss_;
    QComboBox* delivery_;
    LinkDeviceRows* deviceRows_; ///< loss spread, device class, ping period, leaving
    QSpinBox* devices_;
    QDoubleSpinBox* availability_;
    QDoubleSpinBox* periodHours_;
    QSpinBox* drain_;
    QLineEdit* trace_;
    QComboBox* catchUp_;
    QComboBox* order_;
    QSpinBox* maxStaleness_;
    QCheckBox* realCatchUps_;
    QComboBox* cpu_;
    QDoubleSpinBox* clockMhz_;
};

} // namespace dpu::ui
