// SPDX-License-Identifier: MIT
// PlanFleetDialog: the Fleet tab's rows over a plan's fleet keys (Deployment… on the plan form), OK to keep them.
#include "panels/PlanFleetDialog.h"
#include "dpu/DeploymentModel.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetInputs.h"
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

namespace dpu::ui {

PlanFleetDialog::PlanFleetDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("planFleetDialog"));
    setWindowTitle(tr("Deployment of the plan"));
    auto* layout = new QVBoxLayout(this);
    // The one place the window edits the deployment: the tabs vary it only to explore.
    auto* about = new QLabel(tr("The devices this plan is for and how they are reached. The Fleet and Budget tabs, the "
                                "report and <b>dpu-cli fleet</b> start from it, and the form's per-device time and energy "
                                "are on its link; a tab's <i>Use in plan</i> writes a variation back here. Training does not read it."),
                             this);
    about->setWordWrap(true);
    layout->addWidget(about);
    inputs_ = new FleetInputs(this);
    layout->addWidget(inputs_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // The Fleet tab's column is narrow; here the lists show their entries whole.
    setMinimumWidth(460);
}

void PlanFleetDialog::setFleet(const dpu::Deployment& fleet)
{
    original_ = fleet;
    inputs_->setSettings(fleet);
    shown_ = inputs_->settings();
}

dpu::Deployment PlanFleetDialog::fleet() const
{
    return deploymentcompare::kept(original_, shown_, inputs_->settings());
}

} // namespace dpu::ui
