// SPDX-License-Identifier: MIT
// BudgetInputs under "budget/" in the settings: the kind of budget, its values and the target; the link and devices are the plan's deployment.
#include "panels/BudgetInputs.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QRadioButton>
#include <QSettings>
#include <QToolButton>
#include <algorithm>

namespace dpu::ui {

void BudgetInputs::saveSettings(QSettings& s) const
{
    // "byLink" as before. The link, its SF, sub-band, loss and delivery and the devices are
    // not kept: the tab starts from the plan's deployment (setDeployment()).
    s.setValue(QStringLiteral("budget/byLink"), kind() == Kind::Window);
    s.setValue(QStringLiteral("budget/byEnergy"), kind() == Kind::Energy);
    s.setValue(QStringLiteral("budget/bytes"), bytes_->value());
    s.setValue(QStringLiteral("budget/window"), window_->value());
    s.setValue(QStringLiteral("budget/energy"), energy_->value());
    s.setValue(QStringLiteral("budget/target"), target_->value() / 100.0);
    s.setValue(QStringLiteral("budget/targetEveryDevice"), targetScope_->currentData().toBool());
    s.setValue(QStringLiteral("budget/linkDetails"), details_->isChecked());
}

void BudgetInputs::restoreSettings(const QSettings& s)
{
    // Settings of earlier versions hold a link, SF, sub-band, loss, delivery, devices and a
    // custom rate too: left unread, the plan's deployment is what the tab shows.
    if (s.contains(QStringLiteral("budget/bytes")))
        bytes_->setValue(s.value(QStringLiteral("budget/bytes")).toDouble());
    if (s.contains(QStringLiteral("budget/window")))
        window_->setValue(s.value(QStringLiteral("budget/window")).toDouble());
    if (s.contains(QStringLiteral("budget/energy")))
        energy_->setValue(s.value(QStringLiteral("budget/energy")).toDouble());
    // The target (settings of earlier versions lack it: the default).
    target_->setValue(100.0 * std::clamp(s.value(QStringLiteral("budget/target"), 0.99).toDouble(), 0.5, 0.999999));
    targetScope_->setCurrentIndex(s.value(QStringLiteral("budget/targetEveryDevice"), false).toBool() ? 1 : 0);
    showLinkDetails(s.value(QStringLiteral("budget/linkDetails"), false).toBool());
    (s.value(QStringLiteral("budget/byEnergy"), false).toBool() ? byEnergy_
     : s.value(QStringLiteral("budget/byLink"), false).toBool() ? byWindow_
                                                                 : byBytes_)
        ->setChecked(true);
}

} // namespace dpu::ui
