// SPDX-License-Identifier: MIT
// The Fleet tab's inputs: link and spreading factor or mix, duty cycle, loss, delivery, devices, availability or trace, period, drain, catch-up policy, processor.
#pragma once
#include "dpu/DeploymentModel.h"
#include "panels/FieldEnabling.h"
#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLayout;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace dpu::ui {

class LinkDeviceRows;

class FleetInputs : public QGroupBox {
    Q_OBJECT
public:
    explicit FleetInputs(QWidget* parent = nullptr);

    /// The fleet the widgets state, the server's policy and the devices' processor included.
    dpu::Deployment settings() const;
    /// Shows `settings` (a link key the list lacks falls back to LoRaWAN EU868).
    void setSettings(const dpu::Deployment& settings);

    /// The widget that edits the plan key `path` (fleet.*), nullptr for a key edited in plan
    /// files only (its table entry is `advanced`): test_ui_deployment holds the two to each other.
    QWidget* widgetFor(const std::string& path) const;
    /// The rows bound to the table's rules (test_ui_plan_dialogs holds them to it).
    const FieldEnabling& enabling() const { return enabling_; }

    /// The flagship scenario of docs/fleet.md: 200 nodes, LoRaWAN EU868 with FUOTASim's SF mix,
    /// a 1 % sub-band, 10 % frame loss, 80 % availability, a round a day, 10 rounds to drain.
    static dpu::Deployment flagship();

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

    FieldEnabling enabling_;
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
