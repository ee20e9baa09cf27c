// SPDX-License-Identifier: MIT
// BudgetPanel on a link model: the budget as a time window or an energy, and the recommended bundle's airtime, wall time and energy.
#include "dpu/FleetSettings.h"
#include "panels/BudgetInputs.h"
#include "panels/BudgetPanel.h"
#include "panels/LinkRoundReadout.h"
#include <cmath>

namespace dpu::ui {

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
    const std::optional<dpu::LinkSettings> settings = inputs_->linkSettings();
    if (!settings) {
        // Short: one line in the column (a bare rate knows neither frames nor energy: the list's tooltip).
        linkReadout_->showNothing(tr("Choose a link model for airtime and energy"));
        return;
    }
    if (!recommendation_.found) {
        linkReadout_->showNothing(tr("No configuration recommended"));
        return;
    }
    try {
        // The same call as dpu-cli budget --link MODEL: the recommended bytes, rounded, to the devices.
        const dpu::Link link = dpu::linkOf(*settings);
        linkRound_ = dpu::linkRound(link, std::llround(recommendation_.bytesPerRound), devices(), inputs_->roundTarget());
        linkReadout_->showRound(link, devices(), *linkRound_);
    } catch (const std::exception& e) {
        linkReadout_->showNothing(QString::fromStdString(e.what()));
    }
}

} // namespace dpu::ui
