// SPDX-License-Identifier: MIT
// MainWindow's sweeps: sending a k sweep to this computer or Slurm, File > Open Sweep, the Sweeps tab, reopening on start.
#include "MainWindow.h"
#include "models/RunBook.h"
#include "dpu/Error.h"
#include "dpu/Sweep.h"
#include "panels/PlanPanel.h"
#include "panels/SweepTargetBox.h"
#include "panels/BudgetPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/RunPanel.h"
#include "panels/SweepPanel.h"
#include "workers/RunQueue.h"
#include "workers/SweepController.h"
#include "workers/SweepTarget.h"
#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace dpu::ui {

namespace {
const QString kOpenSweepKey = QStringLiteral("sweeps/open");
} // namespace

void MainWindow::buildSweepMenus(QMenu* file)
{
    QAction* open = file->addAction(tr("Open S&weep…"), this, &MainWindow::openSweepWithDialog);
    open->setObjectName(QStringLiteral("openSweepAction"));
    open->setStatusTip(tr("Show a sweep folder (finished or running) in the Sweeps tab and its finished cells as runs"));
}

void MainWindow::connectSweeps()
{
    connect(sweeps_, &SweepController::cellDone, this, [this](const QString& runDir) {
        QString error;
        if (book_->openFolder(runDir, &error) == 0)
            run_->log(tr("Sweep cell not opened: %1").arg(error));
        updateActions();
    });
    connect(sweeps_, &SweepController::message, run_, &RunPanel::log);
    connect(sweepPanel_, &SweepPanel::resumeRequested, this, [this] {
        QString error; // a local sweep resumes with the jobs the sweep target asks for
        if (!sweeps_->resume(results_->budgetPanel()->sweepTarget()->target().jobs, &error))
            statusBar()->showMessage(tr("Sweep not resumed: %1").arg(error), 8000);
    });
    connect(sweeps_, &SweepController::failed, this, [this](const QString& text) {
        run_->log(text);
        statusBar()->showMessage(text, 8000);
    });
    connect(sweeps_, &SweepController::sweepEnded, this, [this](const QString& dir) {
        statusBar()->showMessage(tr("Sweep %1: %2").arg(QDir::toNativeSeparators(dir),
                                                          QString::fromStdString(sweeps_->status().summary())), 8000);
    });
}

bool MainWindow::sendKSweep(const QList<double>& ratios, const SweepTarget& target, QString* error)
{
    if (!plan_->validate()) {
        if (error)
            *error = plan_->whyNotValid().replace(QLatin1Char('\n'), QStringLiteral("; "));
        return false;
    }
    if (target.where == SweepTarget::Where::Queue || ratios.isEmpty()) {
        if (error)
            *error = tr("expected this computer or Slurm and at least one ratio");
        return false;
    }
    const dpu::Plan plan = plan_->plan();
    QJsonArray ks;
    for (const double k : ratios)
        ks.append(k);
    const QJsonObject doc{
        {QStringLiteral("base"), QJsonDocument::fromJson(QByteArray::fromStdString(dpu::planToJson(plan))).object()},
        {QStringLiteral("axes"), QJsonObject{{QStringLiteral("k"), ks}}}};
    dpu::Sweep sweep;
    try {
        sweep = dpu::parseSweep(QJsonDocument(doc).toJson(QJsonDocument::Compact).toStdString(), "k sweep");
    } catch (const dpu::Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return sendSweep(std::move(sweep), target, QString::fromStdString(plan.name) + QStringLiteral("-ksweep"), tr("k sweep"), nullptr,
                     error);
}

bool MainWindow::sendSweep(dpu::Sweep sweep, const SweepTarget& target, const QString& name, const QString& what, QString* dir,
                           QString* error)
{
    if (target.where == SweepTarget::Where::Queue || sweep.cells.empty()) {
        if (error)
            *error = tr("expected this computer or Slurm and at least one cell");
        return false;
    }
    sweep.slurm = target.slurm; // sweep.json records what the cells asked Slurm for
    QString safe = name;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    const QString folder = QDir(target.folder).filePath(
        QStringLiteral("%1-%2").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")), safe));
    const bool ok = target.where == SweepTarget::Where::Local ? sweeps_->startLocal(sweep, folder, target.jobs, error)
                                                                : sweeps_->startSlurm(sweep, folder, target.slurm, error);
    if (!ok)
        return false;
    if (dir)
        *dir = folder;
    // The cells join the runs on screen as they finish, as a run started with Run does (the user
    // guide's promise); File > Close Runs is how runs leave the charts.
    results_->tabs()->setCurrentWidget(sweepPanel_);
    statusBar()->showMessage(tr("%1: %2 cells sent to %3").arg(what).arg(sweep.cells.size())
                                 .arg(target.where == SweepTarget::Where::Local ? tr("this computer") : tr("Slurm")),
                             5000);
    return true;
}

bool MainWindow::openSweep(const QString& dir, QString* error)
{
    if (!sweeps_->open(dir, error))
        return false; // its finished cells join the runs on screen (cellDone), none is closed
    results_->tabs()->setCurrentWidget(sweepPanel_);
    return true;
}

void MainWindow::openSweepWithDialog()
{
    // Where sweeps are sent (the Budget tab's sweep folder) until the user opened one elsewhere.
    const QString sent = results_->budgetPanel()->sweepTarget()->target().folder;
    const QString start = QSettings().value(QStringLiteral("lastSweepDir"), QDir(sent).exists() ? sent : QDir::homePath()).toString();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open sweep folder"), start);
    if (dir.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("lastSweepDir"), QFileInfo(dir).absolutePath());
    QString error;
    if (!openSweep(dir, &error))
        QMessageBox::warning(this, tr("Open sweep"), error);
}

void MainWindow::saveOpenSweep(QSettings& settings) const
{
    settings.setValue(kOpenSweepKey, sweeps_->dir());
}

void MainWindow::restoreOpenSweep(const QSettings& settings)
{
    const QString dir = settings.value(kOpenSweepKey).toString();
    if (dir.isEmpty() || !settings.value(QStringLiteral("runs/reopenOnStart"), true).toBool())
        return;
    QString error;
    if (!sweeps_->open(dir, &error)) // a folder deleted since is no reason to stop the start
        run_->log(tr("Sweep not reopened: %1").arg(error));
}

} // namespace dpu::ui
