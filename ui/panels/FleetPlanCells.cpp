// SPDX-License-Identifier: MIT
// FleetPlanCells: the Run these cells… button and its shortcut, the cells' sweep (dpu::fleetPlanSweep), the folder it went to.
#include "panels/FleetPlanCells.h"
#include "dpu/Error.h"
#include "dpu/FleetPlanSweep.h"
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QWidget>

namespace dpu::ui {

FleetPlanCells::FleetPlanCells(QWidget* owner) : QObject(owner), button_(new QPushButton(tr("Run these cells…")))
{
    button_->setToolTip(tr("Run the cells nobody ran that the planner names, as one sweep: on the run queue, this "
                           "computer or Slurm (you choose, as for the Budget tab's k sweep). The tab plans again when "
                           "they have finished (Ctrl+Shift+Return)"));
    button_->setEnabled(false);
    auto* act = new QAction(owner);
    act->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return));
    act->setShortcutContext(Qt::WindowShortcut); // as Plan's: the tab bar keeps the focus after a click
    owner->addAction(act);
    connect(act, &QAction::triggered, this, [this, owner] {
        if (owner->isVisible() && button_->isEnabled())
            Q_EMIT triggered();
    });
    connect(button_, &QPushButton::clicked, this, &FleetPlanCells::triggered);
}

void FleetPlanCells::show(const FleetPlanAnswer& answer, bool busy)
{
    button_->setEnabled(!busy && answer.error.empty() && !answer.plan.cancelled && !answer.plan.cellsToRun.empty());
}

dpu::Sweep FleetPlanCells::sweepOf(const FleetPlanAnswer& answer)
{
    if (!answer.error.empty())
        throw dpu::Error("the last plan failed: " + answer.error);
    if (answer.plan.cancelled)
        throw dpu::Error("the last plan was cancelled: plan again to know which cells to run");
    return dpu::fleetPlanSweep(answer.plan, answer.strategies, answer.runs, "fleet plan cells");
}

bool FleetPlanCells::isSentSweep(const QString& dir) const
{
    if (sent_.isEmpty() || dir.isEmpty())
        return false;
    return QDir::cleanPath(QFileInfo(sent_).absoluteFilePath()) == QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
}

} // namespace dpu::ui
