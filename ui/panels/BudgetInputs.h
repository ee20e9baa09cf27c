// SPDX-License-Identifier: MIT
// The budget planner's inputs: bytes per round, or a link preset and a time window; and the devices.
#pragma once
#include <QGroupBox>

class QComboBox;
class QDoubleSpinBox;
class QRadioButton;
class QSettings;
class QSpinBox;

namespace dpu::ui {

class BudgetInputs : public QGroupBox {
    Q_OBJECT
public:
    explicit BudgetInputs(QWidget* parent = nullptr);

    /// Bits one round may send to one device: bytes x 8, or link rate x time window.
    double budgetBits() const;
    int devices() const;
    void setBudgetBytes(double bytes);
    /// A link preset (index in CostReadout::linkPresets()) for a time window.
    void setLinkBudget(int presetIndex, double windowSeconds, double customKbps = 100);
    void setDevices(int devices);

    /// Under "budget/" in the settings; missing keys keep the defaults.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();

    QRadioButton* byBytes_;
    QRadioButton* byLink_;
    QDoubleSpinBox* bytes_;
    QComboBox* link_;
    QDoubleSpinBox* customKbps_;
    QDoubleSpinBox* window_;
    QSpinBox* devices_;
};

} // namespace dpu::ui
