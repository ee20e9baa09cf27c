// SPDX-License-Identifier: MIT
// MainWindow: wires the panels to the run queue; owns menus, plan files and persisted settings.
#include "MainWindow.h"
#include "AppFolders.h"
#include "AtomicFile.h"
#include "RecentFiles.h"
#include "charts/ChartExporter.h"
#include <QChartView>
#include "dialogs/AboutDialog.h"
#include "dpu/Error.h"
#include "dpu/Runner.h"
#include "models/RoundsTableModel.h"
#include "models/RunBook.h"
#include "panels/BudgetPanel.h"
#include "panels/FleetPanel.h"
#include "panels/FleetPlanPanel.h"
#include "panels/PlanDeploymentBar.h"
#include "panels/CostReadout.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/RunPanel.h"
#include "panels/SweepPanel.h"
#include "panels/SweepTargetBox.h"
#include "workers/RunQueue.h"
#include "workers/SweepController.h"
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonObject>
#include <QJsonDocument>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>

// Resources of a static library must be registered by hand (the linker drops the initialiser).
static void initDpuResources()
{
    Q_INIT_RESOURCE(dpu_planner);
}

namespace dpu::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    initDpuResources();
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/dpu-planner.svg")));
    plan_ = new PlanPanel;
    run_ = new RunPanel;
    results_ = new ResultsPanel;
    queue_ = new RunQueue(this);
    book_ = new RunBook(this);
    queue_->setOutputRoot(appDataFolder() + QStringLiteral("/runs"));
    sweeps_ = new SweepController(this);
    sweepPanel_ = new SweepPanel(sweeps_);
    results_->tabs()->addTab(sweepPanel_, tr("Sweeps"));

    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("planScroll"));
    scroll->setWidget(plan_);
    scroll->setWidgetResizable(true);
    // Never narrower than the form needs: the splitter stops there instead of hiding fields
    // behind a horizontal scroll bar (only the height scrolls).
    scroll->setMinimumWidth(plan_->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width()
                            + 2 * scroll->frameWidth());
    formScroll_ = scroll;
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(results_);
    right->addWidget(run_);
    right->setStretchFactor(0, 4);
    right->setStretchFactor(1, 1);
    splitter_ = new QSplitter(Qt::Horizontal);
    splitter_->setObjectName(QStringLiteral("mainSplitter"));
    splitter_->addWidget(scroll);
    splitter_->addWidget(right);
    splitter_->setStretchFactor(1, 1);
    setCentralWidget(splitter_);

    buildMenus();
    connectQueue();
    connectBook();
    connectBudget();
    connectDeployment();
    connectSweeps();
    connectFleetPlan();
    connect(plan_, &PlanPanel::planEdited, this, [this] {
        dirty_ = true;
        updateTitle();
        updateActions(); // the reasons on Run's tooltip follow every edit
    });
    connect(plan_, &PlanPanel::validityChanged, this, &MainWindow::updateActions);
    connect(plan_, &PlanPanel::dataProbed, this, &MainWindow::updateActions); // Run's reason: the data's, not "still detecting"
    restoreSettings();
    updateActions();
    updateTitle();
    statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow() = default;

void MainWindow::connectQueue()
{
    connect(queue_, &RunQueue::runQueued, this, [this](int id, const dpu::Plan& plan) {
        // The runs ahead of it: the one running and those queued before it.
        run_->runQueued(id, plan, queue_->pendingCount() - 1 + (queue_->isBusy() ? 1 : 0));
    });
    connect(queue_, &RunQueue::runStarting, run_, &RunPanel::runStarting);
    connect(queue_, &RunQueue::runStarted, run_, &RunPanel::runStarted);
    connect(queue_, &RunQueue::batchProgress, run_, &RunPanel::batchProgress);
    connect(queue_, &RunQueue::message, this, [this](int id, const QString& text) { run_->log(tr("Run %1: %2").arg(id).arg(text)); });
    connect(queue_, &RunQueue::roundDone, run_, &RunPanel::roundDone);
    connect(queue_, &RunQueue::runFinished, this, [this](int id, const dpu::RunSummary& s) {
        run_->runFinished(id, s, queue_->pendingCount());
        updateActions(); // File > Export Update Bundles offers the run's folder now
        statusBar()->showMessage(s.cancelled ? tr("Run %1 stopped").arg(id) : tr("Run %1 finished").arg(id), 5000);
    });
    connect(queue_, &RunQueue::runFailed, this, [this](int id, const QString& error) {
        run_->runFailed(id, error, queue_->pendingCount());
        statusBar()->showMessage(tr("Run %1 failed: %2").arg(id).arg(error));
    });
    connect(queue_, &RunQueue::pausedChanged, this, [this](bool paused) {
        const QSignalBlocker block(pauseAct_);
        pauseAct_->setChecked(paused);
        if (queue_->currentRunId() != 0) // a run that ends while paused was stopped, not resumed
            run_->setPaused(paused);
    });
    connect(queue_, &RunQueue::busyChanged, this, &MainWindow::updateActions);
    connect(queue_, &RunQueue::idle, this, [this] {
        Q_EMIT runsFinished();
        if (closeWhenIdle_)
            close(); // the run was stopped because the user closed the window
    });
}

void MainWindow::connectBudget()
{
    BudgetPanel* budget = results_->budgetPanel();
    auto follow = [this, budget] {
        const dpu::Plan p = plan_->plan();
        budget->setCostModel(plan_->costReadout()->costModel());
        budget->setReferencePlan(p);
    };
    connect(plan_->costReadout(), &CostReadout::changed, this, follow);
    connect(plan_, &PlanPanel::planEdited, this, follow); // the frontier follows the whole plan
    follow();
    // Finished runs of the plan's own family calibrate the form's bytes readout.
    connect(budget, &BudgetPanel::frontierChanged, this,
            [this, budget] { plan_->costReadout()->setFrontierGroups(budget->frontier().groups()); });
    connect(budget, &BudgetPanel::sweepRequested, this, &MainWindow::queueKSweep);
    connect(budget, &BudgetPanel::useKRequested, plan_, &PlanPanel::setKWithin);
    connect(budget, &BudgetPanel::configurationRequested, this, [this](const dpu::Plan& p) {
        dpu::Plan adjusted = p;
        if (plan_->nameFollows()) // an automatic name keeps following k, the coding and the model
            adjusted.name = PlanPanel::automaticName(adjusted).toStdString();
        plan_->setPlan(adjusted);
    });
}

void MainWindow::connectDeployment()
{
    // One deployment in the window: the plan's. The tabs start from it whenever it changes
    // (edited, a plan opened, the window restored) and keep no copy of their own.
    FleetPanel* fleet = results_->fleetPanel();
    BudgetPanel* budget = results_->budgetPanel();
    FleetPlanPanel* fleetPlan = results_->fleetPlanPanel();
    auto follow = [this, fleet, budget, fleetPlan] {
        const dpu::Deployment deployment = plan_->plan().fleet;
        fleet->setPlanDeployment(deployment);
        budget->setPlanDeployment(deployment);
        fleetPlan->setPlanDeployment(deployment);
    };
    connect(plan_, &PlanPanel::deploymentChanged, this, follow);
    follow();
    // A tab's variation written back: the form, its readout and its checks follow, then the tabs.
    auto useInPlan = [this](const dpu::Deployment& deployment) {
        plan_->setPlanFleet(deployment);
        plan_->validate();
    };
    connect(fleet->deploymentBar(), &PlanDeploymentBar::useInPlan, this, useInPlan);
    connect(budget->deploymentBar(), &PlanDeploymentBar::useInPlan, this, useInPlan);
    // The fleet planner's Use this configuration writes the whole plan: connectFleetPlan().
}

bool MainWindow::startRun()
{
    if (!plan_->validate()) {
        run_->log(tr("Not started: %1").arg(plan_->whyNotValid().replace(QLatin1Char('\n'), QStringLiteral("; "))));
        statusBar()->showMessage(plan_->errorText().isEmpty() ? tr("Wait a moment: the data's kind is still being detected")
                                                              : tr("The plan has errors; see the marked fields"),
                                 5000);
        return false;
    }
    // The runs on screen stay beside the new one until the user closes them (File > Close Runs).
    queue_->enqueue(plan_->plan());
    return true;
}

QList<int> MainWindow::queueKSweep(const QList<double>& ratios)
{
    if (!plan_->validate()) {
        run_->log(tr("k sweep not queued: %1").arg(plan_->whyNotValid().replace(QLatin1Char('\n'), QStringLiteral("; "))));
        statusBar()->showMessage(plan_->errorText().isEmpty() ? tr("Wait a moment: the data's kind is still being detected")
                                                              : tr("The plan has errors; see the marked fields"),
                                 5000);
        return {};
    }
    const SweepTarget target = results_->budgetPanel()->sweepTarget()->target();
    if (target.where != SweepTarget::Where::Queue) { // a sweep folder of its own, here or on Slurm
        QString error;
        if (!sendKSweep(ratios, target, &error)) {
            run_->log(tr("k sweep not sent: %1").arg(error));
            statusBar()->showMessage(tr("k sweep not sent: %1").arg(error), 8000);
        }
        return {};
    }
    QList<dpu::Plan> plans;
    for (const double k : ratios) {
        dpu::Plan p = plan_->plan();
        p.k = k;
        // An automatic name already carries k ("fashion-mlp-k0.05"); a chosen one gets it added.
        p.name = plan_->nameFollows() ? PlanPanel::automaticName(p).toStdString()
                                      : p.name + "-k" + QString::number(k).toStdString();
        try {
            dpu::validatePlan(p);
        } catch (const dpu::PlanError& e) {
            run_->log(tr("k sweep not queued: %1").arg(QString::fromStdString(e.what())));
            return {};
        }
        plans << p;
    }
    QList<int> ids;
    for (const dpu::Plan& p : plans)
        ids << queue_->enqueue(p);
    statusBar()->showMessage(tr("k sweep: %1 runs queued").arg(ids.size()), 5000);
    return ids;
}

void MainWindow::updateTitle()
{
    const QString name = file_.isEmpty() ? tr("Untitled plan") : QFileInfo(file_).fileName();
    setWindowTitle(QStringLiteral("%1%2 — DPU Planner").arg(name, dirty_ ? QStringLiteral("*") : QString()));
}

bool MainWindow::openPlan(const QString& path, QString* error)
{
    // A FIFO would block the window and /dev/zero fill its memory: a regular file only.
    if (const QFileInfo info(path); info.exists() && !info.isFile()) {
        if (error)
            *error = tr("%1: expected a plan file, found %2").arg(path, info.isDir() ? tr("a folder") : tr("no regular file (a device, FIFO or socket)"));
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot read (%2)").arg(path, f.errorString());
        return false;
    }
    if (quint64(f.size()) > dpu::kMaxPlanFileBytes) { // refused before reading it into memory
        if (error)
            *error = tr("%1: %2 bytes is too large for a plan file (at most %3)")
                         .arg(path).arg(f.size()).arg(dpu::kMaxPlanFileBytes);
        return false;
    }
    dpu::RecoveredPlan recovered;
    const QByteArray bytes = f.readAll();
    try {
        // Field by field: a bad value is marked at its field instead of losing the whole file.
        recovered = dpu::recoverPlan(bytes.toStdString(), QFileInfo(path).fileName().toStdString());
    } catch (const dpu::Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    plan_->setPlan(recovered.plan);
    plan_->setFileProblems(recovered.problems, QFileInfo(path).fileName());
    if (!recovered.problems.empty()) // the marked fields show the file's numbers, as the messages do
        plan_->showFileValues(QJsonDocument::fromJson(bytes).object());
    results_->budgetPanel()->setReferencePlan(recovered.plan); // the frontier of the plan's runs
    if (!recovered.problems.empty())
        statusBar()->showMessage(tr("%n field(s) of %1 could not be used: marked in the form, Run waits until they are fixed",
                                    nullptr, int(recovered.problems.size())).arg(QFileInfo(path).fileName()));
    else // replaces a bad file's message, which spoke of a plan no longer shown
        statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 5000);
    // A built-in preset (":/plans/...") is a template: Save asks where to put the copy.
    const bool preset = path.startsWith(QLatin1Char(':'));
    if (preset)
        plan_->setNameFollows(true); // a template's name follows the model, data and k
    file_ = preset ? QString() : path;
    dirty_ = !recovered.problems.empty(); // the form is not what the file says
    if (!preset)
        recent_->add(path);
    updateTitle();
    updateActions();
    return true;
}

bool MainWindow::savePlanTo(const QString& path, QString* error)
{
    const dpu::Plan plan = plan_->plan();
    try {
        dpu::validatePlan(plan); // a saved plan must open again, in the GUI and in dpu-cli
    } catch (const dpu::PlanError& e) {
        if (error)
            *error = tr("The plan is not valid: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
    if (!AtomicFile::write(path, QByteArray::fromStdString(dpu::planToJson(plan)), error))
        return false;
    file_ = path;
    dirty_ = false;
    recent_->add(path);
    updateTitle();
    return true;
}

bool MainWindow::confirmDiscardEdits()
{
    if (!dirty_)
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved plan"),
        tr("The plan has changes that are not saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save(); // a cancelled or failed save keeps the edits on the form
    return answer == QMessageBox::Discard;
}

void MainWindow::openPlanAsking(const QString& path, const QString& title)
{
    if (!confirmDiscardEdits())
        return;
    QString error;
    if (!openPlan(path, &error))
        QMessageBox::warning(this, title, error);
}

void MainWindow::openWithDialog()
{
    if (!confirmDiscardEdits())
        return;
    const QString dir = QSettings().value(QStringLiteral("lastDir"), QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open plan"), dir, tr("Plans (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
    QString error;
    if (!openPlan(path, &error))
        QMessageBox::warning(this, tr("Open plan"), error);
}

bool MainWindow::save()
{
    if (file_.isEmpty())
        return saveAs();
    QString error;
    if (!savePlanTo(file_, &error)) {
        QMessageBox::warning(this, tr("Save plan"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveAs()
{
    const QString dir = QSettings().value(QStringLiteral("lastDir"), QDir::homePath()).toString();
    const QString suggested = QDir(dir).filePath(QString::fromStdString(plan_->plan().name) + QStringLiteral(".json"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save plan"), suggested, tr("Plans (*.json)"));
    if (path.isEmpty())
        return false;
    QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
    QString error;
    if (!savePlanTo(path, &error)) {
        QMessageBox::warning(this, tr("Save plan"), error);
        return false;
    }
    return true;
}

bool MainWindow::exportResultsCsv(const QString& path, QString* error) const
{
    // The engine's results.csv columns after run, plan and k, so the rows of a sweep stay apart.
    const std::string csv = dpu::labelledRunsToCsv(book_->labelledRuns());
    return AtomicFile::write(path, QByteArray::fromStdString(csv), error);
}

bool MainWindow::exportResultsJson(const QString& path, QString* error) const
{
    const std::string json = dpu::labelledRunsToJson(book_->labelledRuns());
    return AtomicFile::write(path, QByteArray::fromStdString(json), error);
}

void MainWindow::exportResultsWithDialog(bool json)
{
    if (results_->roundsModel()->records().empty()) {
        // A file with a header and no rows looked like a successful export.
        QMessageBox::information(this, tr("Export results"),
                                 tr("There are no results to export yet: run a plan first (F5)."));
        return;
    }
    const QString filter = json ? tr("JSON (*.json)") : tr("CSV (*.csv)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export results"),
                                                      json ? QStringLiteral("results.json") : QStringLiteral("results.csv"), filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!(json ? exportResultsJson(path, &error) : exportResultsCsv(path, &error)))
        QMessageBox::warning(this, tr("Export results"), error);
}

void MainWindow::restoreSettings()
{
    QSettings s;
    // First start: room for the form and a readable chart side by side, within the screen
    // (a 1366x768 laptop gets the whole screen, not a window reaching past its edges).
    const QSize avail = screen() ? screen()->availableGeometry().size() : QSize(1440, 900);
    resize(std::min(1440, avail.width()), std::min(900, avail.height()));
    const int formWidth = std::max(formScroll_->minimumWidth(), std::min(540, width() * 36 / 100));
    splitter_->setSizes({formWidth, std::max(width() - formWidth, 400)});
    // A screen smaller than that (1366x768) starts maximised: resize() sets the inside of the
    // window, and a window manager's title bar and panels then pushed the status bar and the
    // form's last row below the screen's edge.
    startMaximized_ = !s.contains(QStringLiteral("window/geometry")) && (avail.width() < 1440 || avail.height() < 900);
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    splitter_->restoreState(s.value(QStringLiteral("window/splitter")).toByteArray());
    results_->budgetPanel()->restoreSettings(s);
    const QString last = s.value(QStringLiteral("lastPlan")).toString();
    if (!last.isEmpty()) {
        try {
            plan_->setPlan(dpu::parsePlan(last.toStdString(), "settings"));
        } catch (const dpu::Error&) {
            // An older or hand-edited setting: start from the default plan instead.
        }
    }
    // Closed before the path's kind was known: the kind saved is the old one, so detect it now.
    if (s.value(QStringLiteral("lastPlanDetect"), false).toBool())
        plan_->detectKind();
    file_ = s.value(QStringLiteral("lastFile")).toString();
    dirty_ = s.value(QStringLiteral("lastPlanDirty"), false).toBool();
    results_->budgetPanel()->setReferencePlan(plan_->plan());
    restoreOpenRuns(s);
    restoreOpenSweep(s);
}

void MainWindow::saveSettings() const
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/splitter"), splitter_->saveState());
    results_->budgetPanel()->saveSettings(s);
    saveOpenRuns(s);
    saveOpenSweep(s);
    s.setValue(QStringLiteral("lastPlan"), QString::fromStdString(dpu::planToJson(plan_->plan())));
    s.setValue(QStringLiteral("lastFile"), file_);
    s.setValue(QStringLiteral("lastPlanDirty"), dirty_);
    s.setValue(QStringLiteral("lastPlanDetect"), plan_->detectingKind());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (queue_->isBusy()) {
        if (askOnClose_ && !closeWhenIdle_) {
            const auto answer = QMessageBox::question(
                this, tr("Stop the run?"),
                tr("A run is in progress. Stop it and close? Finished rounds are kept."),
                QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
            if (answer != QMessageBox::Yes) {
                event->ignore();
                return;
            }
        }
        // The run may have ended while the question was open: then there is nothing to stop,
        // and waiting for an idle signal that already came would keep the window open for good.
        if (queue_->isBusy()) {
            // Never wait here: cancel, and close again once the worker reports it has stopped.
            closeWhenIdle_ = true;
            queue_->stop();
            statusBar()->showMessage(tr("Stopping the run before closing…"));
            event->ignore();
            return;
        }
    }
    saveSettings();
    event->accept();
}

} // namespace dpu::ui
