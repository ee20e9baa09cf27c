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
    auto* about = new QLabel(tr("The deployment this plan is for: `dpu-cli fleet` and the Fleet tab's "
                                "<i>Use the plan's fleet</i> start from it. Training does not read it."),
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
}

void PlanFleetDialog::setFleet(const dpu::PlanFleet& fleet)
{
    inputs_->setSettings(dpu::fleetSettingsOf(fleet));
}

dpu::PlanFleet PlanFleetDialog::fleet() const
{
    return dpu::planFleetOf(inputs_->settings());
}

} // namespace dpu::ui
