// SPDX-License-Identifier: MIT
// BudgetInputs over a plan's deployment: the link rows and devices show its keys, and the rows read back as its keys with the tab's variation.
#include "panels/BudgetInputs.h"
#include "panels/DeploymentCompare.h"
#include "panels/LinkChoices.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

void BudgetInputs::setDeployment(const dpu::Deployment& fleet)
{
    deployment_ = fleet;
    showMix(fleet.link.sfMix);
    // SF 0 without a mix is the link's SF7 (dpu::linkOf); 0 with one, the mix's entry.
    const int sf = fleet.link.sfMix.empty() ? (fleet.link.spreadingFactor > 0 ? fleet.link.spreadingFactor : 7) : 0;
    // A key the list lacks leaves the list as it is: the line over the tab says it differs.
    setLinkModel(QString::fromStdString(fleet.link.link), sf);
    linkchoices::selectDutyCycle(duty_, fleet.link.dutyCycle.value_or(NAN)); // unset: the 1 % sub-band
    loss_->setValue(100.0 * fleet.link.frameLoss);
    linkchoices::selectDelivery(delivery_, fleet.link.delivery);
    devices_->setValue(fleet.devices);
}

std::optional<dpu::Deployment> BudgetInputs::deployment(QString* whyNot) const
{
    const QString key = linkKey();
    if (key.isEmpty()) {
        if (whyNot)
            *whyNot = tr("no link instead of the plan's %1").arg(deploymentcompare::linkName(deployment_.link.link));
        return std::nullopt;
    }
    dpu::Deployment f = deployment_;
    f.link.link = key.toStdString();
    const bool region = linkchoices::isRegion(key);
    const int sf = sf_->currentData().toInt();
    f.link.spreadingFactor = region && sf > 0 ? sf : 0;
    f.link.sfMix = region && sf == 0 ? sf_->currentData(kMixRole).toString().toStdString() : std::string();
    f.link.dutyCycle = linkchoices::hasSubBands(key) ? std::optional<double>(duty_->currentData().toDouble()) : std::nullopt;
    f.link.frameLoss = loss_->value() / 100.0;
    f.link.delivery = linkchoices::deliveryOf(delivery_);
    f.devices = devices_->value();
    if (!region) // a preset has no LoRaWAN class (linkOf() refuses one), as in the Fleet tab
        f.link.deviceClass = dpu::DeviceClassChoice::Preset;
    // validateLink() refuses a spread beyond the loss; the Fleet tab's box cannot go there either.
    f.link.frameLossSpread = std::min({f.link.frameLossSpread, f.link.frameLoss, 1.0 - f.link.frameLoss});
    return f;
}

void BudgetInputs::showMix(const std::string& mix)
{
    const int old = sf_->findData(0);
    if (old >= 0)
        sf_->removeItem(old);
    const QString text = QString::fromStdString(mix).trimmed();
    if (text.isEmpty())
        return;
    // One short entry: the list sits beside the link in a narrow column.
    sf_->insertItem(0, tr("Mix"), 0);
    sf_->setItemData(0, text, kMixRole);
    sf_->setItemData(0, tr("The plan's SF mix (%1): a multicast to it runs at its slowest SF").arg(text), Qt::ToolTipRole);
}

} // namespace dpu::ui
