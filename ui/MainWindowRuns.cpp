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
#include "panels/BudgetPanel.h"
#include "panels/CostReadout.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/RunPanel.h"
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
    connect(recentRuns_, &RecentFiles::openRequested, this, [this](const QString& folder) {
        QStringList errors;
        if (openRuns({folder}, &errors) == 0)
            QMessageBox::warning(this, tr("Open run"), errors.join(QLatin1Char('\n')));
    });
    QAction* close = closeRunsAct_ = file->addAction(tr("C&lose Runs"), this, &MainWindow::closeRuns);
    close->setStatusTip(tr("Take every run off the charts and the table (the budget planner keeps finished ones)"));
    reopenRunsAct_ = file->addAction(tr("Reopen Runs on S&tart"));
    reopenRunsAct_->setCheckable(true);
    reopenRunsAct_->setChecked(QSettings().value(kReopenKey, true).toBool());
    reopenRunsAct_->setStatusTip(tr("Show the runs that were on screen when the application closed"));
    connect(reopenRunsAct_, &QAction::toggled, this, [](bool on) { QSettings().setValue(kReopenKey, on); });
}

void MainWindow::exportReportWithDialog()
{
    if (shown_.isEmpty()) {
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
    else
        statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 5000);
}

bool MainWindow::exportReport(const QString& path, QString* error) const
{
    std::vector<dpu::RunFolder> runs;
    for (const ShownRun& s : shown_) {
        dpu::RunFolder r;
        r.dir = s.dir.isEmpty() ? s.label.toStdString() : s.dir.toStdString();
        r.plan = s.plan;
        r.records = s.records;
        r.status.known = true;
        r.status.state = s.finished ? "finished" : "stopped";
        if (!s.dir.isEmpty()) { // where and when it ran, as its folder says
            try {
                r.status = dpu::loadRunFolder(s.dir.toStdString()).status;
            } catch (const dpu::Error&) {
                // The folder changed since: the report still has the rounds on screen.
            }
        }
        runs.push_back(std::move(r));
    }
    ReportOptions options;
    // The link chosen under the plan's cost readout.
    options.linkBitsPerSecond = plan_->costReadout()->linkBitsPerSecond();
    options.linkName = tr("custom link (%1 kbit/s)").arg(options.linkBitsPerSecond / 1000.0);
    for (const CostReadout::LinkPreset& p : CostReadout::linkPresets())
        if (p.bitsPerSecond == options.linkBitsPerSecond)
            options.linkName = p.name;
    options.budgetBytes = results_->budgetPanel()->budgetBits() / 8.0;
    return ReportWriter::write(runs, options, path, error);
}

void MainWindow::expectRounds(const dpu::Plan& plan)
{
    // The round axis spans the longest plan on screen, so a run's first rounds do not fill it.
    AccuracyChart* chart = results_->accuracyChart();
    chart->expectRounds(std::max(chart->expectedRounds(), plan.split.rounds));
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
    // Runs opened together that differ only in k (a sweep) name their series by k.
    std::vector<dpu::Plan> plans;
    for (const QString& d : all) {
        try {
            plans.push_back(dpu::loadPlanFile(QDir(d).filePath(QStringLiteral("plan.json")).toStdString()));
        } catch (const dpu::Error&) {
            // openOneRun reports it below.
        }
    }
    bool sweep = plans.size() > 1;
    for (const dpu::Plan& p : plans)
        sweep = sweep && dpu::planDifferences(plans.front(), p, dpu::defaultSweptKeys()).empty();
    int opened = 0;
    for (const QString& d : all) {
        QString error;
        if (openOneRun(d, sweep, &error))
            ++opened;
        else if (errors)
            *errors << error;
    }
    updateActions();
    return opened;
}

bool MainWindow::openOneRun(const QString& folder, bool sweepNames, QString* error)
{
    const QString dir = QFileInfo(folder).absoluteFilePath();
    for (const ShownRun& s : shown_)
        if (QFileInfo(s.dir).absoluteFilePath() == dir)
            return true; // already on screen
    dpu::RunFolder run;
    try {
        run = dpu::loadRunFolder(dir.toStdString());
    } catch (const dpu::Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    ShownRun s;
    s.label = QString::fromStdString(run.label());
    s.dir = dir;
    s.plan = run.plan;
    s.records = run.records;
    s.finished = run.complete();
    s.id = folderIds_.value(dir, 0);
    if (s.id == 0) {
        s.id = nextOpenedId_--;
        folderIds_.insert(dir, s.id);
    }
    // Series names: the strategy alone for the only run on screen, else with k (a sweep) or the plan.
    const bool band = run.plan.seeds.size() > 1;
    const QStringList taken = results_->accuracyChart()->seriesKeys();
    QString suffix;
    bool sameGroup = !shown_.isEmpty(); // every run on screen differs from this one in k alone
    for (const ShownRun& other : shown_)
        sameGroup = sameGroup && dpu::planDifferences(other.plan, run.plan, dpu::defaultSweptKeys()).empty();
    if (sweepNames || sameGroup)
        suffix = QStringLiteral(" · k=%1").arg(run.plan.k);
    else if (!shown_.isEmpty())
        suffix = QStringLiteral(" · ") + QString::fromStdString(run.plan.name);
    auto keyFor = [&](const dpu::RoundRecord& r) {
        QString key = QString::fromStdString(r.strategy);
        if (!band && run.plan.seeds.size() > 1)
            key += QStringLiteral(" s%1").arg(r.seed);
        return key + suffix;
    };
    expectRounds(run.plan);
    for (const dpu::RoundRecord& r : run.records)
        if (taken.contains(keyFor(r))) { // another run on screen has that name already
            suffix += QStringLiteral(" (%1)").arg(s.label);
            break;
        }
    for (const dpu::RoundRecord& r : run.records)
        results_->addRecord(s.label, keyFor(r), r, band);
    results_->budgetPanel()->setRunName(s.id, s.label);
    results_->budgetPanel()->addRun(s.id, s.plan, s.records, s.finished);
    recentRuns_->add(dir);
    shown_.append(std::move(s));
    return true;
}

QStringList MainWindow::openRunFolders() const
{
    QStringList out;
    for (const ShownRun& s : shown_)
        if (!s.dir.isEmpty())
            out << s.dir;
    return out;
}

void MainWindow::closeRuns()
{
    results_->clear();
    shown_.clear();
    updateActions();
}

QStringList MainWindow::bundleRunFolders() const
{
    QStringList out;
    for (const ShownRun& s : shown_)
        if (!s.dir.isEmpty() && !s.records.empty() && QDir(s.dir).exists(QStringLiteral("bundles")))
            out << s.dir;
    return out;
}

void MainWindow::trackQueuedRun(int id, const dpu::Plan& plan)
{
    ShownRun s;
    s.label = QString::number(id);
    s.plan = plan;
    s.id = id;
    shown_.append(std::move(s));
}

void MainWindow::trackRecord(int id, const dpu::RoundRecord& record)
{
    for (ShownRun& s : shown_)
        if (s.id == id)
            s.records.push_back(record);
}

void MainWindow::trackRunEnd(int id, const QString& dir, bool finished)
{
    for (ShownRun& s : shown_)
        if (s.id == id) {
            s.dir = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
            s.finished = finished;
            if (!s.dir.isEmpty())
                folderIds_.insert(s.dir, id);
            if (!s.dir.isEmpty() && !s.records.empty())
                recentRuns_->add(s.dir);
        }
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

std::vector<dpu::LabelledRun> MainWindow::labelledResults() const
{
    // The rows on screen, in table order, one group per run; the plan comes from the run it names.
    std::vector<dpu::LabelledRun> out;
    const RoundsTableModel* table = results_->roundsModel();
    for (int row = 0; row < table->rowCount(); ++row) {
        const QString& label = table->run(row);
        if (out.empty() || out.back().run != label.toStdString()) {
            dpu::LabelledRun run{label.toStdString(), {}, 0, {}};
            for (const ShownRun& s : shown_)
                if (s.label == label) {
                    run.planName = s.plan.name;
                    run.k = s.plan.k;
                }
            out.push_back(std::move(run));
        }
        out.back().records.push_back(table->record(row));
    }
    // A finished queued run goes by its folder's name, as it will when opened again.
    for (dpu::LabelledRun& run : out)
        for (const ShownRun& s : shown_)
            if (s.label.toStdString() == run.run && !s.dir.isEmpty())
                run.run = QFileInfo(s.dir).fileName().toStdString();
    return out;
}

} // namespace dpu::ui
