// SPDX-License-Identifier: MIT
// MainWindow's runs on screen: File > Open Run, Recent Runs, reopening on start, and the exports that span runs.
#include "MainWindow.h"
#include "AtomicFile.h"
#include "RecentFiles.h"
#include "charts/AccuracyChart.h"
#include "dialogs/OpenRunsDialog.h"
#include "dpu/Error.h"
#include "dpu/Frontier.h"
#include "dpu/RunFolder.h"
#include "models/RoundsTableModel.h"
#include "models/RunBook.h"
#include "panels/BudgetPanel.h"
#include "panels/CostReadout.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/RunPanel.h"
#include "panels/FleetPanel.h"
#include "panels/FleetPlanPanel.h"
#include "report/ReportWriter.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>
#include <set>

namespace dpu::ui {

namespace {
const QString kOpenRunsKey = QStringLiteral("runs/open");
const QString kReopenKey = QStringLiteral("runs/reopenOnStart");
} // namespace

void MainWindow::buildRunMenus(QMenu* file)
{
    file->addSeparator();
    QAction* open = file->addAction(tr("Open R&un…"), this, &MainWindow::openRunsWithDialog);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    open->setStatusTip(tr("Show finished runs again: a run folder, or a folder holding several (a k sweep)"));
    QMenu* recent = file->addMenu(tr("R&ecent Runs"));
    recentRuns_ = new RecentFiles(recent, this, QStringLiteral("recentRuns"));
    // Run folders are named by date and plan alike: each entry says what its run is.
    recentRuns_->setDescriber([](const QString& folder) {
        try {
            const std::string dir = folder.toStdString();
            if (dpu::isRunFolder(dir))
                return QString::fromStdString(dpu::describeRunFolder(dir));
            return tr("%n run(s)", nullptr, static_cast<int>(dpu::findRunFolders(dir).size()));
        } catch (const dpu::Error&) {
            return tr("not readable now");
        }
    });
    connect(recentRuns_, &RecentFiles::openRequested, this, [this](const QString& folder) {
        QStringList errors;
        if (openRuns({folder}, &errors) == 0)
            QMessageBox::warning(this, tr("Open run"), errors.join(QLatin1Char('\n')));
    });
    QAction* close = closeRunsAct_ = file->addAction(tr("C&lose Runs"), this, &MainWindow::closeRuns);
    close->setStatusTip(tr("Take the runs that are over off the charts, the table and the budget planner"));
    reopenRunsAct_ = file->addAction(tr("Reopen Runs on S&tart"));
    reopenRunsAct_->setCheckable(true);
    reopenRunsAct_->setChecked(QSettings().value(kReopenKey, true).toBool());
    reopenRunsAct_->setStatusTip(tr("Show the runs that were on screen when the application closed"));
    connect(reopenRunsAct_, &QAction::toggled, this, [](bool on) { QSettings().setValue(kReopenKey, on); });
}

void MainWindow::exportReportWithDialog()
{
    if (book_->isEmpty()) {
        statusBar()->showMessage(tr("No runs on screen: run a plan or open a run first"), 5000);
        return;
    }
    const QString dir = QSettings().value(QStringLiteral("lastDir"), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export report"), QDir(dir).filePath(QStringLiteral("report.pdf")),
                                                      tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportReport(path, &error))
        QMessageBox::warning(this, tr("Export report"), error);
    else if (results_->fleetPanel()->busy())
        statusBar()->showMessage(tr("Report written to %1 without a fleet page: the Fleet tab was still simulating")
                                     .arg(QDir::toNativeSeparators(path)), 8000);
    else
        statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 5000);
}

bool MainWindow::exportReport(const QString& path, QString* error) const
{
    ReportOptions options;
    // The plan's link, as the form's per-device row has it (none where its fleet keys are bad).
    const CostReadout* cost = plan_->costReadout();
    if (cost->hasLink())
        options.link = cost->link();
    options.devices = std::max(1, plan_->plan().fleet.devices);
    options.budgetBytes = results_->budgetPanel()->budgetBits() / 8.0;
    // The Fleet tab's last finished simulation of these runs gives the report its fleet page;
    // the report draws it and simulates nothing (while the tab is still at work: no page).
    options.fleet = results_->fleetPanel()->reportFleet();
    // The Fleet plan tab's last finished plan gives it a fleet plan page (issue 42 item 4).
    options.fleetPlan = results_->fleetPlanPanel()->reportFleetPlan();
    return ReportWriter::write(*book_, options, path, error); // named as the window names them
}

void MainWindow::connectBook()
{
    results_->setRunBook(book_);
    results_->budgetPanel()->setRunBook(book_);
    connect(queue_, &RunQueue::runQueued, book_, &RunBook::addQueued);
    connect(queue_, &RunQueue::runStarted, book_, [this](int id) { book_->markStarted(id); });
    connect(queue_, &RunQueue::epochDone, book_, &RunBook::addEpoch);
    connect(queue_, &RunQueue::roundDone, book_, &RunBook::addRecord);
    connect(queue_, &RunQueue::runFinished, book_, [this](int id, const dpu::RunSummary& s) {
        book_->markEnded(id, QString::fromStdString(s.outDir), s.cancelled ? BookRun::State::Stopped : BookRun::State::Finished);
    });
    connect(queue_, &RunQueue::runFailed, book_, [this](int id) { book_->markEnded(id, QString(), BookRun::State::Failed); });
    connect(book_, &RunBook::runEnded, this, [this](int id) {
        const BookRun* run = book_->find(id);
        if (run && !run->dir.isEmpty() && !run->records.empty())
            recentRuns_->add(run->dir);
        updateActions(); // File > Export Update Bundles offers the run's folder now
    });
    for (auto signal : {&RunBook::runAdded, &RunBook::runRemoved})
        connect(book_, signal, this, &MainWindow::updateActions);
    connect(book_, &RunBook::cleared, this, &MainWindow::updateActions);
}

void MainWindow::openRunsWithDialog()
{
    const QString start = QSettings().value(QStringLiteral("lastRunDir"), queue_->outputRoot()).toString();
    OpenRunsDialog dialog(this, start);
    if (dialog.exec() != QDialog::Accepted || dialog.folders().isEmpty())
        return;
    const QStringList folders = dialog.folders();
    QSettings().setValue(QStringLiteral("lastRunDir"), QFileInfo(folders.front()).absolutePath());
    QStringList errors;
    const int opened = openRuns(folders, &errors);
    if (!errors.isEmpty())
        QMessageBox::warning(this, tr("Open run"), errors.join(QLatin1Char('\n')));
    if (opened > 0)
        statusBar()->showMessage(tr("%n run(s) opened", nullptr, opened), 5000);
}

int MainWindow::openRuns(const QStringList& folders, QStringList* errors)
{
    QStringList all;
    for (const QString& f : folders) {
        try {
            for (const std::string& d : dpu::findRunFolders(f.toStdString()))
                all << QString::fromStdString(d);
        } catch (const dpu::Error& e) {
            if (errors)
                *errors << QString::fromStdString(e.what());
        }
    }
    int opened = 0;
    for (const QString& d : all) {
        QString error;
        if (book_->openFolder(d, &error) != 0) {
            ++opened;
            recentRuns_->add(QFileInfo(d).absoluteFilePath());
        } else if (errors) {
            *errors << error;
        }
    }
    updateActions();
    return opened;
}

QStringList MainWindow::openRunFolders() const
{
    return book_->folders();
}

void MainWindow::closeRuns()
{
    // A run still going (or queued) keeps its place: its rounds are still coming.
    QList<int> over;
    for (const BookRun& r : book_->runs())
        if (r.over() || !r.live)
            over << r.id;
    if (over.size() == book_->runs().size()) {
        book_->clear();
    } else {
        for (const int id : over)
            book_->remove(id);
    }
    updateActions();
}

QStringList MainWindow::bundleRunFolders() const
{
    return book_->bundleFolders();
}

void MainWindow::saveOpenRuns(QSettings& settings) const
{
    settings.setValue(kOpenRunsKey, openRunFolders());
}

void MainWindow::restoreOpenRuns(const QSettings& settings)
{
    if (!settings.value(kReopenKey, true).toBool())
        return;
    QStringList errors;
    openRuns(settings.value(kOpenRunsKey).toStringList(), &errors);
    for (const QString& e : errors) // a folder deleted since is no reason to stop the start
        run_->log(tr("Not reopened: %1").arg(e));
}

} // namespace dpu::ui
