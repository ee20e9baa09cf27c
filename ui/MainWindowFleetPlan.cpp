// SPDX-License-Identifier: MIT
// MainWindow's Fleet plan tab: Use this configuration writes the whole plan; the cells to run go to the run queue, this computer or Slurm.
#include "MainWindow.h"
#include "dpu/PlanEnums.h"
#include "dpu/Sweep.h"
#include "panels/BudgetPanel.h"
#include "panels/FleetPlanPanel.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/RunPanel.h"
#include "panels/SweepTargetBox.h"
#include "workers/RunQueue.h"
#include "workers/SweepController.h"
#include "workers/SweepTarget.h"
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

namespace dpu::ui {

void MainWindow::connectFleetPlan()
{
    FleetPlanPanel* panel = results_->fleetPlanPanel();
    // Use this configuration: the recommended run's plan, limited to what the planner chose, at
    // its deployment; the tabs follow the form (deploymentChanged) as after opening a plan.
    connect(panel, &FleetPlanPanel::useConfiguration, this, [this](const dpu::Plan& plan, const QString& summary) {
        plan_->setPlan(plan);
        plan_->validate();
        dirty_ = true; // the form no longer holds what a file says
        updateTitle();
        updateActions();
        run_->log(summary);
        statusBar()->showMessage(summary, 15000);
    });
    connect(panel, &FleetPlanPanel::runCellsRequested, this, &MainWindow::askFleetCells);
    // Its cells joined the book as they finished (cellDone); the end re-plans and says so.
    connect(sweeps_, &SweepController::sweepEnded, panel, &FleetPlanPanel::sweepEnded);
}

void MainWindow::askFleetCells(const dpu::Sweep& sweep)
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Run the cells to run"));
    QString cells;
    // Each cell as what it runs (its plan's strategy, coding and k): the sweep's entries only
    // say how a cell differs from the first one.
    for (const dpu::SweepCell& cell : sweep.cells)
        cells += QStringLiteral("\n  • %1: %2 with %3 bundles at k %4")
                     .arg(QString::fromStdString(cell.plan.name),
                          QString::fromStdString(cell.plan.strategies.empty() ? "" : cell.plan.strategies.front()),
                          QString::fromStdString(dpu::nameOf(cell.plan.bundle.values)), QString::number(cell.plan.k, 'g', 6));
    auto* what = new QLabel(tr("The planner estimated these %n cell(s) nobody ran to do better than every run:%1\n\nWhere "
                               "should they run? They join the runs on screen as they finish, and the Fleet plan tab "
                               "plans again with them.",
                               nullptr, int(sweep.cells.size()))
                                .arg(cells));
    what->setWordWrap(true);
    auto* where = new SweepTargetBox; // starts from the Budget tab's, which remembers the choice
    SweepTargetBox* budgetTarget = results_->budgetPanel()->sweepTarget();
    where->setTarget(budgetTarget->target());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(what);
    layout->addWidget(where);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    budgetTarget->setTarget(where->target());
    QString error;
    if (!sendFleetCells(sweep, where->target(), &error)) {
        run_->log(tr("Cells to run not sent: %1").arg(error));
        statusBar()->showMessage(tr("Cells to run not sent: %1").arg(error), 8000);
    }
}

bool MainWindow::sendFleetCells(const dpu::Sweep& sweep, const SweepTarget& target, QString* error)
{
    if (sweep.cells.empty()) {
        if (error)
            *error = tr("the fleet plan names no cell to run");
        return false;
    }
    FleetPlanPanel* panel = results_->fleetPlanPanel();
    if (target.where == SweepTarget::Where::Queue) { // runs of the queue: each one's end re-plans
        for (const dpu::SweepCell& cell : sweep.cells)
            queue_->enqueue(cell.plan);
        statusBar()->showMessage(tr("%n cell(s) to run queued: the Fleet plan tab plans again as they finish", nullptr,
                                    int(sweep.cells.size())),
                                 8000);
        return true;
    }
    QString dir;
    if (!sendSweep(sweep, target, QString::fromStdString(sweep.cells.front().plan.name) + QStringLiteral("-fleetcells"),
                   tr("Cells to run"), &dir, error))
        return false;
    panel->setCellsSweep(dir);
    return true;
}

} // namespace dpu::ui
