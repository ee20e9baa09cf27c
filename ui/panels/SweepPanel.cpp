// SPDX-License-Identifier: MIT
// SweepPanel: the sweep's folder, counts and cell table; the states arrive from SweepController.
#include "panels/SweepPanel.h"
#include "models/SweepModel.h"
#include "workers/SweepController.h"
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>

namespace dpu::ui {

SweepPanel::SweepPanel(SweepController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller), model_(new SweepModel(this))
{
    setObjectName(QStringLiteral("sweepPanel"));
    auto* v = new QVBoxLayout(this);
    folder_ = new QLabel(tr("No sweep: send a k sweep to this computer or to Slurm from the budget planner, "
                            "or open a sweep folder (File > Open Sweep…)."), this);
    folder_->setObjectName(QStringLiteral("sweepFolder"));
    folder_->setWordWrap(true);
    folder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("sweepSummary"));
    pause_ = new QPushButton(tr("Pause sweep"), this);
    pause_->setObjectName(QStringLiteral("sweepPause"));
    pause_->setCheckable(true);
    pause_->setEnabled(false);
    pause_->setToolTip(tr("Stop this computer's running cells where they are (SIGSTOP) and start no new one, "
                          "until you press it again; they then go on as if never paused"));
    connect(pause_, &QPushButton::toggled, controller_, &SweepController::setPaused);
    connect(controller_, &SweepController::pausedChanged, this, [this](bool paused) {
        const QSignalBlocker block(pause_);
        pause_->setChecked(paused);
        pause_->setText(paused ? tr("Continue sweep") : tr("Pause sweep"));
        model_->setPaused(paused);
        updateButtons();
    });
    cancel_ = new QPushButton(tr("Cancel sweep"), this);
    cancel_->setObjectName(QStringLiteral("sweepCancel"));
    cancel_->setToolTip(tr("Stop the sweep as `dpu-cli sweep cancel` does: running cells keep their finished "
                           "rounds and resume when the sweep runs again"));
    cancel_->setEnabled(false);
    connect(cancel_, &QPushButton::clicked, controller_, &SweepController::cancel);
    resume_ = new QPushButton(tr("Resume sweep"), this);
    resume_->setObjectName(QStringLiteral("sweepResume"));
    resume_->setToolTip(tr("Run the cells a cancelled or interrupted sweep left, where it ran (this computer or "
                           "Slurm); finished cells are kept and stopped ones go on from their last round"));
    resume_->setEnabled(false);
    connect(resume_, &QPushButton::clicked, this, &SweepPanel::resumeRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(pause_);
    top->addWidget(cancel_);
    top->addWidget(resume_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("sweepTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    v->addWidget(folder_);
    v->addLayout(top);
    v->addWidget(table_, 1);

    connect(controller_, &SweepController::statusChanged, this, &SweepPanel::showStatus);
    connect(controller_, &SweepController::sweepEnded, this, &SweepPanel::updateButtons);
}

QString SweepPanel::summaryText() const
{
    return summary_->text();
}

void SweepPanel::showStatus(const dpu::SweepFolderStatus& status)
{
    model_->setStatus(status);
    const bool slurm = status.backend == dpu::SweepBackend::Slurm;
    table_->setColumnHidden(SweepModel::SlurmTask, !slurm); // "–" on every row otherwise
    table_->resizeColumnsToContents();
    const QString backend = slurm ? tr("Slurm cluster")
                            : status.backend == dpu::SweepBackend::Local ? tr("this computer") : tr("not run yet");
    folder_->setText(tr("%1 — %2").arg(QDir::toNativeSeparators(QString::fromStdString(status.dir)), backend));
    QString text = QString::fromStdString(status.summary());
    if (status.active && controller_->paused()) // its running cells are stopped: say so, as their rows do
        text.replace(QStringLiteral(" running"), QStringLiteral(" paused")) += tr(" · sweep paused");
    else if (status.active)
        text += tr(" · running");
    if (!status.queueRead)
        text += tr(" · Slurm's queue unreadable (%1): states from the cell folders").arg(QString::fromStdString(status.queueError));
    summary_->setText(text);
    updateButtons();
}

void SweepPanel::updateButtons()
{
    cancel_->setEnabled(controller_->runsHere() || controller_->status().active);
    pause_->setEnabled(controller_->canPause());
    resume_->setEnabled(controller_->canResume());
    // Pause/Continue acts on a sweep running here; Resume on one that is not running: never both
    // in sight ("Continue sweep" beside "Resume sweep" while paused read as two ways to go on).
    pause_->setVisible(controller_->canPause() && controller_->runsHere());
    resume_->setVisible(!controller_->runsHere());
}

} // namespace dpu::ui
