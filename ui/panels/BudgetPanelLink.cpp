// SPDX-License-Identifier: MIT
// BudgetPanel on a link model: the plan's deployment or a variation of it, the budget as a time window or an energy, and the recommended bundle's airtime, wall time and energy.
#include "dpu/DeploymentModel.h"
#include "panels/BudgetInputs.h"
#include "panels/BudgetPanel.h"
#include "panels/DeploymentCompare.h"
#include "panels/LinkRoundReadout.h"
#include "panels/PlanDeploymentBar.h"
#include <QEvent>
#include <QScrollArea>
#include <QStyle>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

void BudgetPanel::setPlanDeployment(const dpu::Deployment& fleet)
{
    // Another edit of the plan (k, the data, ...) leaves a variation being explored alone.
    if (deployment_->hasPlan() && deploymentcompare::same(fleet, deployment_->plan()))
        return;
    inputs_->setDeployment(fleet);
    deployment_->setPlan(fleet, inputs_->deployment().value_or(fleet));
}

void BudgetPanel::resetToPlan()
{
    if (!deployment_->hasPlan())
        return;
    inputs_->setDeployment(deployment_->plan());
    compareDeployment(); // a key the link list lacks changes no row, and no changed() says so
}

void BudgetPanel::fitControlsColumn()
{
    // Measured once, on a link without its SF, it was 13 px short once a link model showed its
    // SF and round: the viewport cut the column's right edge.
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4;
    const int widest = controlsScroll_->widget()->minimumSizeHint().width() + bar;
    controlsScroll_->setMinimumWidth(std::max(controlsScroll_->minimumWidth(), widest));
}

bool BudgetPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LayoutRequest && watched == controlsScroll_->widget())
        fitControlsColumn();
    return QWidget::eventFilter(watched, event);
}

void BudgetPanel::compareDeployment()
{
    QString whyNot;
    const std::optional<dpu::Deployment> now = inputs_->deployment(&whyNot);
    deployment_->compare(now, whyNot);
}

bool BudgetPanel::setLinkModel(const QString& key, int spreadingFactor)
{
    return inputs_->setLinkModel(key, spreadingFactor);
}

void BudgetPanel::setWindowBudget(double seconds)
{
    inputs_->setWindowBudget(seconds);
}

void BudgetPanel::setEnergyBudget(double joules)
{
    inputs_->setEnergyBudget(joules);
}

QString BudgetPanel::budgetError() const
{
    return inputs_->budgetError();
}

void BudgetPanel::showLinkRound()
{
    linkRound_.reset();
    const std::optional<dpu::DeploymentLink> settings = inputs_->linkSettings();
    if (!settings) {
        // Short: one line in the column (only a list without links leaves none).
        linkReadout_->showNothing(tr("Choose a link for airtime and energy"));
        return;
    }
    if (!recommendation_.found) {
        linkReadout_->showNothing(tr("No configuration recommended"));
        return;
    }
    try {
        // The same call as dpu-cli budget --link MODEL: the recommended bytes, rounded, to the devices.
        const dpu::Link link = BudgetInputs::answeringLink(*settings);
        linkRound_ = dpu::linkRound(link, std::llround(recommendation_.bytesPerRound), devices(), inputs_->roundTarget());
        linkReadout_->showRound(link, devices(), *linkRound_);
    } catch (const std::exception& e) {
        linkReadout_->showNothing(QString::fromStdString(e.what()));
    }
}

} // namespace dpu::ui
