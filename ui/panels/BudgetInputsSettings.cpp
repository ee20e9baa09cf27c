// SPDX-License-Identifier: MIT
// BudgetInputs under "budget/" in the settings: the kind of budget, its values, the link (a model by its key) and the devices.
#include "panels/BudgetInputs.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <algorithm>

namespace dpu::ui {

void BudgetInputs::saveSettings(QSettings& s) const
{
    // "byLink" and "link" (an index) as before; the link model by its key, which survives a
    // reordered list.
    s.setValue(QStringLiteral("budget/byLink"), kind() == Kind::Window);
    s.setValue(QStringLiteral("budget/byEnergy"), kind() == Kind::Energy);
    s.setValue(QStringLiteral("budget/bytes"), bytes_->value());
    s.setValue(QStringLiteral("budget/link"), link_->currentIndex());
    s.setValue(QStringLiteral("budget/linkModel"), linkKey());
    s.setValue(QStringLiteral("budget/spreadingFactor"), sf_->currentData().toInt());
    s.setValue(QStringLiteral("budget/customKbps"), customKbps_->value());
    s.setValue(QStringLiteral("budget/window"), window_->value());
    s.setValue(QStringLiteral("budget/energy"), energy_->value());
    s.setValue(QStringLiteral("budget/devices"), devices_->value());
    s.setValue(QStringLiteral("budget/dutyCycle"), duty_->currentData().toDouble());
    s.setValue(QStringLiteral("budget/frameLoss"), loss_->value() / 100.0);
    s.setValue(QStringLiteral("budget/delivery"), delivery_->currentData().toInt());
    s.setValue(QStringLiteral("budget/target"), target_->value() / 100.0);
    s.setValue(QStringLiteral("budget/targetEveryDevice"), targetScope_->currentData().toBool());
    s.setValue(QStringLiteral("budget/linkDetails"), details_->isChecked());
}

void BudgetInputs::restoreSettings(const QSettings& s)
{
    if (s.contains(QStringLiteral("budget/bytes")))
        bytes_->setValue(s.value(QStringLiteral("budget/bytes")).toDouble());
    const QString model = s.value(QStringLiteral("budget/linkModel")).toString();
    if (!setLinkModel(model, s.value(QStringLiteral("budget/spreadingFactor"), 7).toInt())
        && s.contains(QStringLiteral("budget/link"))) {
        // A bare rate (or a model key this version lacks): the saved index, kept on a rate.
        const int index = std::clamp(s.value(QStringLiteral("budget/link")).toInt(), 0, link_->count() - 1);
        link_->setCurrentIndex(link_->itemData(index, kModelRole).toString().isEmpty() ? index : 0);
    }
    if (s.contains(QStringLiteral("budget/customKbps")))
        customKbps_->setValue(s.value(QStringLiteral("budget/customKbps")).toDouble());
    if (s.contains(QStringLiteral("budget/window")))
        window_->setValue(s.value(QStringLiteral("budget/window")).toDouble());
    if (s.contains(QStringLiteral("budget/energy")))
        energy_->setValue(s.value(QStringLiteral("budget/energy")).toDouble());
    if (s.contains(QStringLiteral("budget/devices")))
        devices_->setValue(s.value(QStringLiteral("budget/devices")).toInt());
    // The link model's details and target (settings of earlier versions lack them: the defaults).
    dpu::LinkSettings details;
    details.dutyCycle = s.value(QStringLiteral("budget/dutyCycle"), 0.01).toDouble();
    details.frameLoss = std::clamp(s.value(QStringLiteral("budget/frameLoss"), 0.0).toDouble(), 0.0, 0.95);
    details.delivery = static_cast<dpu::DeliveryChoice>(s.value(QStringLiteral("budget/delivery"), 0).toInt());
    dpu::RoundTarget target;
    target.probability = std::clamp(s.value(QStringLiteral("budget/target"), 0.99).toDouble(), 0.5, 0.999999);
    target.everyDevice = s.value(QStringLiteral("budget/targetEveryDevice"), false).toBool();
    setLinkDetails(details, target);
    showLinkDetails(s.value(QStringLiteral("budget/linkDetails"), false).toBool());
    (s.value(QStringLiteral("budget/byEnergy"), false).toBool() ? byEnergy_
     : s.value(QStringLiteral("budget/byLink"), false).toBool() ? byWindow_
                                                                 : byBytes_)
        ->setChecked(true);
}

} // namespace dpu::ui
