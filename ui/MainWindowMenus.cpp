// SPDX-License-Identifier: MIT
// MainWindow's menus, toolbar and action states (split from MainWindow.cpp to keep both short).
#include "MainWindow.h"
#include "models/RunBook.h"
#include "RecentFiles.h"
#include "charts/ChartExporter.h"
#include "dialogs/AboutDialog.h"
#include "dialogs/ExportBundlesDialog.h"
#include "dialogs/UserGuideDialog.h"
#include "panels/BudgetPanel.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QChartView>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>

namespace dpu::ui {

void MainWindow::buildMenus()
{
    buildFileMenu();
    buildRunMenu();
    buildToolsAndHelpMenus();
    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->addAction(runAct_);
    bar->addAction(pauseAct_);
    bar->addAction(stopAct_);
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Plan…"), this, &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    QMenu* presets = file->addMenu(tr("Open P&reset"));
    for (const QFileInfo& fi : QDir(QStringLiteral(":/plans")).entryInfoList({QStringLiteral("*.json")}, QDir::Files)) {
        const QString path = fi.filePath();
        presets->addAction(fi.completeBaseName(), this, [this, path] { openPlanAsking(path, tr("Open preset")); });
    }
    QMenu* recentMenu = file->addMenu(tr("Recent &Files"));
    recent_ = new RecentFiles(recentMenu, this);
    connect(recent_, &RecentFiles::openRequested, this,
            [this](const QString& path) { openPlanAsking(path, tr("Open plan")); });
    buildRunMenus(file);
    buildSweepMenus(file);
    file->addSeparator();
    QAction* saveAct = file->addAction(tr("&Save Plan"), this, &MainWindow::save);
    saveAct->setShortcut(QKeySequence::Save);
    QAction* saveAsAct = file->addAction(tr("Save Plan &As…"), this, &MainWindow::saveAs);
    saveAsAct->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    file->addAction(tr("Export Results as &CSV…"), this, [this] { exportResultsWithDialog(false); });
    file->addAction(tr("Export Results as &JSON…"), this, [this] { exportResultsWithDialog(true); });
    exportBundlesAct_ = file->addAction(tr("Export Update &Bundles…"), this, &MainWindow::exportBundlesWithDialog);
    exportBundlesAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportBundlesAct_->setStatusTip(tr("The update files devices apply: all rounds of a run on screen, or one round"));
    exportReportAct_ = file->addAction(tr("Export Re&port (PDF)…"), this, &MainWindow::exportReportWithDialog);
    exportReportAct_->setStatusTip(tr("One PDF of the runs on screen: plan, charts, frontier and a table per strategy"));
    for (const bool svg : {false, true}) {
        file->addAction(svg ? tr("Export Chart as S&VG…") : tr("Export Chart as P&NG…"), this, [this, svg] {
            if (QChartView* c = results_->currentChart())
                ChartExporter::exportWithDialog(c, svg);
            else
                statusBar()->showMessage(tr("Select a chart tab first"), 5000);
        });
    }
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
}

void MainWindow::buildRunMenu()
{
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runAct_ = runMenu->addAction(tr("&Run"), this, &MainWindow::startRun);
    runAct_->setShortcut(QKeySequence(Qt::Key_F5));
    runAct_->setStatusTip(tr("Queue the plan; runs execute one after another"));
    pauseAct_ = runMenu->addAction(tr("&Pause"));
    pauseAct_->setCheckable(true);
    pauseAct_->setShortcut(QKeySequence(Qt::Key_F6));
    connect(pauseAct_, &QAction::toggled, this, [this](bool on) { on ? queue_->pause() : queue_->resume(); });
    stopAct_ = runMenu->addAction(tr("&Stop"), queue_, &RunQueue::stop);
    stopAct_->setShortcut(QKeySequence(Qt::Key_Escape));
    stopAct_->setStatusTip(tr("Stop after the current batch; finished rounds are kept"));
    runMenu->addSeparator();
    sweepAct_ = runMenu->addAction(tr("Queue k s&weep"), this, [this] {
        QString error;
        if (results_->budgetPanel()->sweepRatios(&error).isEmpty()) {
            results_->showBudgetPanel(); // where the list is, marked
            statusBar()->showMessage(error, 5000);
            return;
        }
        results_->budgetPanel()->requestSweep();
    });
    sweepAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    sweepAct_->setStatusTip(tr("Queue one run per ratio of the budget planner's list, the plan otherwise unchanged"));
}

void MainWindow::buildToolsAndHelpMenus()
{
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    budgetAct_ = tools->addAction(tr("&Budget Planner"), results_, &ResultsPanel::showBudgetPanel);
    budgetAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    budgetAct_->setStatusTip(tr("The largest k a byte budget allows, and the accuracy finished runs suggest"));
    // The Fleet tab has no Alt letter left (every letter of "Fleet" is taken): this is its key.
    QAction* fleet = tools->addAction(tr("&Fleet Simulation"), results_, &ResultsPanel::showFleetPanel);
    fleet->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    fleet->setStatusTip(tr("What a fleet of devices behind a real link runs of the finished runs, when, and at what airtime and energy"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), this, [this] {
        auto* dialog = new UserGuideDialog(this); // non-modal: read it beside the form
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setObjectName(QStringLiteral("userGuideAction"));
    help->addAction(tr("&About DPU Planner"), this, [this] { AboutDialog::show(this); });
}

void MainWindow::updateActions()
{
    const bool busy = queue_->isBusy();
    runAct_->setEnabled(plan_->isValid());
    sweepAct_->setEnabled(plan_->isValid());
    // A disabled Run says why (toolbar tooltip and status bar); the fields say where.
    QString why;
    if (!plan_->isValid())
        why = plan_->errorText().isEmpty() ? tr("Not yet: %1").arg(plan_->whyNotValid())
                                           : tr("The plan has errors:\n%1").arg(plan_->errorText());
    runAct_->setToolTip(why.isEmpty() ? tr("Run the plan (F5)") : why);
    runAct_->setStatusTip(why.isEmpty() ? tr("Queue the plan; runs execute one after another") : why);
    runAct_->setText(busy ? tr("&Queue Run") : tr("&Run"));
    pauseAct_->setEnabled(busy);
    exportBundlesAct_->setEnabled(!bundleRunFolders().isEmpty());
    exportReportAct_->setEnabled(!book_->isEmpty());
    bool anyOver = false; // a live run keeps its place on screen: Close Runs leaves it
    for (const BookRun& r : book_->runs())
        anyOver = anyOver || r.over() || !r.live;
    closeRunsAct_->setEnabled(anyOver);
    stopAct_->setEnabled(busy);
    if (!busy) {
        const QSignalBlocker block(pauseAct_);
        pauseAct_->setChecked(false);
    }
}

void MainWindow::exportBundlesWithDialog()
{
    const QStringList runs = bundleRunFolders();
    if (runs.isEmpty()) {
        statusBar()->showMessage(tr("No run on screen has update bundles: run a plan or open a run"), 5000);
        return;
    }
    // Every run with bundles, the newest chosen: the dialog says what each is (describeRunFolder),
    // where a list of folder names once asked first.
    std::vector<ExportRun> all;
    for (const QString& r : runs) {
        ExportRun e{r, {}};
        for (const BookRun& b : book_->runs())
            if (b.dir == r)
                e.records = b.records;
        all.push_back(std::move(e));
    }
    const int newest = static_cast<int>(all.size()) - 1;
    ExportBundlesDialog dialog(std::move(all), newest, this);
    dialog.exec();
}

} // namespace dpu::ui
