// SPDX-License-Identifier: MIT
// BudgetInputs: a byte budget stated directly or as what a link moves in a time window.
#include "panels/BudgetInputs.h"
#include "panels/CostReadout.h"
#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>

namespace dpu::ui {

BudgetInputs::BudgetInputs(QWidget* parent) : QGroupBox(tr("Budget per round and device"), parent)
{
    auto* form = new QFormLayout(this);
    byBytes_ = new QRadioButton(tr("Fi&xed bytes"), this);
    byBytes_->setObjectName(QStringLiteral("budgetByBytes"));
    byBytes_->setChecked(true);
    bytes_ = new QDoubleSpinBox(this);
    bytes_->setObjectName(QStringLiteral("budgetBytes"));
    bytes_->setRange(1, 1e12);
    bytes_->setDecimals(0);
    bytes_->setGroupSeparatorShown(true);
    bytes_->setSuffix(QStringLiteral(" B"));
    bytes_->setValue(40000);
    form->addRow(byBytes_, bytes_);
    byLink_ = new QRadioButton(tr("L&ink for"), this);
    byLink_->setObjectName(QStringLiteral("budgetByLink"));
    auto* group = new QButtonGroup(this);
    group->addButton(byBytes_);
    group->addButton(byLink_);
    link_ = new QComboBox(this);
    link_->setObjectName(QStringLiteral("budgetLink"));
    for (const CostReadout::LinkPreset& p : CostReadout::linkPresets())
        link_->addItem(p.name, p.bitsPerSecond);
    customKbps_ = new QDoubleSpinBox(this);
    customKbps_->setObjectName(QStringLiteral("budgetCustomKbps"));
    customKbps_->setRange(0.01, 1e7);
    customKbps_->setValue(100);
    customKbps_->setSuffix(QStringLiteral(" kbit/s"));
    window_ = new QDoubleSpinBox(this);
    window_->setObjectName(QStringLiteral("budgetWindow"));
    window_->setRange(0.001, 1e7);
    window_->setDecimals(3);
    window_->setValue(60);
    window_->setSuffix(QStringLiteral(" s"));
    window_->setToolTip(tr("Time window in which one round must reach a device"));
    auto* linkRow = new QHBoxLayout;
    linkRow->addWidget(link_, 1);
    linkRow->addWidget(customKbps_);
    form->addRow(byLink_, linkRow);
    form->addRow(tr("Time window"), window_);
    devices_ = new QSpinBox(this);
    devices_->setObjectName(QStringLiteral("budgetDevices"));
    devices_->setRange(1, 1000000000);
    devices_->setValue(1000);
    form->addRow(tr("Devi&ces"), devices_);

    updateEnabled();
    connect(byBytes_, &QRadioButton::toggled, this, &BudgetInputs::updateEnabled);
    connect(link_, &QComboBox::currentIndexChanged, this, &BudgetInputs::updateEnabled);
    connect(byBytes_, &QRadioButton::toggled, this, &BudgetInputs::changed);
    connect(bytes_, &QDoubleSpinBox::valueChanged, this, &BudgetInputs::changed);
    connect(link_, &QComboBox::currentIndexChanged, this, &BudgetInputs::changed);
    connect(customKbps_, &QDoubleSpinBox::valueChanged, this, &BudgetInputs::changed);
    connect(window_, &QDoubleSpinBox::valueChanged, this, &BudgetInputs::changed);
    connect(devices_, &QSpinBox::valueChanged, this, &BudgetInputs::changed);
}

void BudgetInputs::updateEnabled()
{
    // Only the inputs of the chosen kind of budget are editable.
    bytes_->setEnabled(byBytes_->isChecked());
    link_->setEnabled(byLink_->isChecked());
    window_->setEnabled(byLink_->isChecked());
    customKbps_->setEnabled(byLink_->isChecked() && link_->currentData().toDouble() == 0);
}

double BudgetInputs::budgetBits() const
{
    if (byBytes_->isChecked())
        return bytes_->value() * 8.0;
    const double preset = link_->currentData().toDouble();
    const double bitsPerSecond = preset > 0 ? preset : customKbps_->value() * 1e3;
    return bitsPerSecond * window_->value();
}

int BudgetInputs::devices() const
{
    return devices_->value();
}

void BudgetInputs::setBudgetBytes(double bytes)
{
    byBytes_->setChecked(true);
    bytes_->setValue(bytes);
}

void BudgetInputs::setLinkBudget(int presetIndex, double windowSeconds, double customKbps)
{
    byLink_->setChecked(true);
    link_->setCurrentIndex(presetIndex);
    customKbps_->setValue(customKbps);
    window_->setValue(windowSeconds);
}

void BudgetInputs::setDevices(int devices)
{
    devices_->setValue(devices);
}

void BudgetInputs::saveSettings(QSettings& s) const
{
    s.setValue(QStringLiteral("budget/byLink"), byLink_->isChecked());
    s.setValue(QStringLiteral("budget/bytes"), bytes_->value());
    s.setValue(QStringLiteral("budget/link"), link_->currentIndex());
    s.setValue(QStringLiteral("budget/customKbps"), customKbps_->value());
    s.setValue(QStringLiteral("budget/window"), window_->value());
    s.setValue(QStringLiteral("budget/devices"), devices_->value());
}

void BudgetInputs::restoreSettings(const QSettings& s)
{
    if (s.contains(QStringLiteral("budget/bytes")))
        bytes_->setValue(s.value(QStringLiteral("budget/bytes")).toDouble());
    if (s.contains(QStringLiteral("budget/link")))
        link_->setCurrentIndex(std::clamp(s.value(QStringLiteral("budget/link")).toInt(), 0, link_->count() - 1));
    if (s.contains(QStringLiteral("budget/customKbps")))
        customKbps_->setValue(s.value(QStringLiteral("budget/customKbps")).toDouble());
    if (s.contains(QStringLiteral("budget/window")))
        window_->setValue(s.value(QStringLiteral("budget/window")).toDouble());
    if (s.contains(QStringLiteral("budget/devices")))
        devices_->setValue(s.value(QStringLiteral("budget/devices")).toInt());
    (s.value(QStringLiteral("budget/byLink"), false).toBool() ? byLink_ : byBytes_)->setChecked(true);
}

} // namespace dpu::ui
