// SPDX-License-Identifier: MIT
// PlanFleetDialog: the Fleet tab's link and fleet rows over a plan's fleet keys, OK to keep them.
#include "panels/PlanFleetDialog.h"
#include "dpu/FleetSettings.h"
#include "panels/FleetInputs.h"
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

namespace dpu::ui {

PlanFleetDialog::PlanFleetDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("planFleetDialog"));
    setWindowTitle(tr("Link and fleet of the plan"));
    auto* layout = new QVBoxLayout(this);
    auto* about = new QLabel(tr("The deployment this plan is for: <b>dpu-cli fleet</b> and the Fleet tab's "
                                "<i>Use the plan's fleet</i> start from it, and the form's per-device time and energy are on its link. "
                                "Training does not read it."),
                             this);
    about->setWordWrap(true);
    layout->addWidget(about);
    inputs_ = new FleetInputs(this);
    inputs_->showPlanKeysOnly();
    layout->addWidget(inputs_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // The Fleet tab's column is narrow; here the lists show their entries whole.
    setMinimumWidth(460);
}

namespace {

bool sameKeys(const dpu::PlanFleet& a, const dpu::PlanFleet& b)
{
    return a.link == b.link && a.spreadingFactor == b.spreadingFactor && a.sfMix == b.sfMix && a.dutyCycle == b.dutyCycle
           && a.frameLoss == b.frameLoss && a.frameLossSpread == b.frameLossSpread && a.delivery == b.delivery
           && a.deviceClass == b.deviceClass && a.pingPeriodicity == b.pingPeriodicity && a.leaveWhenDecoded == b.leaveWhenDecoded
           && a.devices == b.devices
           && a.availability == b.availability && a.roundPeriodHours == b.roundPeriodHours;
}

} // namespace

void PlanFleetDialog::setFleet(const dpu::PlanFleet& fleet)
{
    original_ = fleet;
    inputs_->setSettings(dpu::fleetSettingsOf(fleet));
    shown_ = dpu::planFleetOf(inputs_->settings());
}

dpu::PlanFleet PlanFleetDialog::fleet() const
{
    const dpu::PlanFleet now = dpu::planFleetOf(inputs_->settings());
    return sameKeys(now, shown_) ? original_ : now;
}

} // namespace dpu::ui
