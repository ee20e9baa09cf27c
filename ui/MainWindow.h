// SPDX-License-Identifier: MIT
// The main window: menus and toolbar, the plan, run and results panels, settings, plan files.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include <QHash>
#include <QMainWindow>

class QAction;
class QMenu;
class QSettings;
class QSplitter;

namespace dpu {
struct Sweep;
}

namespace dpu::ui {

class PlanPanel;
class RecentFiles;
class RunBook;
class ResultsPanel;
class RunPanel;
class RunQueue;
class SweepController;
class SweepPanel;
struct SweepTarget;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    PlanPanel* planPanel() const { return plan_; }
    RunPanel* runPanel() const { return run_; }
    ResultsPanel* resultsPanel() const { return results_; }
    RunQueue* runQueue() const { return queue_; }
    /// The runs on screen, which every view follows.
    RunBook* runBook() const { return book_; }
    QAction* runAction() const { return runAct_; }
    QAction* pauseAction() const { return pauseAct_; }
    QAction* stopAction() const { return stopAct_; }

    /// Validates the plan on the form and queues it; false (nothing queued) when invalid.
    bool startRun();
    /// Queues one run per ratio, the plan on the form otherwise unchanged; returns the run ids
    /// (none when the plan or a ratio is invalid).
    QList<int> queueKSweep(const QList<double>& ratios);
    QAction* sweepAction() const { return sweepAct_; }
    /// Sends one sweep cell per ratio, the plan on the form otherwise unchanged, to this
    /// computer or Slurm (target.where must not be Queue) in a new folder under target.folder;
    /// the Sweeps tab shows it. False with *error when the plan or a ratio is invalid or the
    /// sweep cannot start.
    bool sendKSweep(const QList<double>& ratios, const SweepTarget& target, QString* error = nullptr);
    /// Shows a sweep folder in the Sweeps tab and opens its finished cells as runs (more as they
    /// finish). False with *error when the folder holds no sweep.json.
    bool openSweep(const QString& dir, QString* error = nullptr);
    /// Sends the fleet planner's cells to run (FleetPlanPanel::runCellsRequested) to `target`:
    /// the run queue (one run per cell), or a new sweep folder under target.folder here or on
    /// Slurm, shown in the Sweeps tab, whose end re-plans the Fleet plan tab. False with *error
    /// when the sweep is empty or cannot start.
    bool sendFleetCells(const dpu::Sweep& sweep, const SweepTarget& target, QString* error = nullptr);
    SweepController* sweepController() const { return sweeps_; }
    SweepPanel* sweepPanel() const { return sweepPanel_; }
    QAction* budgetAction() const { return budgetAct_; }
    bool openPlan(const QString& path, QString* error = nullptr);
    bool savePlanTo(const QString& path, QString* error = nullptr);
    QString currentFile() const { return file_; }
    bool exportResultsCsv(const QString& path, QString* error = nullptr) const;
    bool exportResultsJson(const QString& path, QString* error = nullptr) const;
    /// Opens run folders (plan.json + results.jsonl + bundles/; a folder holding several opens
    /// them all) into the charts, the rounds table, the frontier and the exports. Returns how
    /// many opened; *errors gets one line per folder that did not (naming the file).
    int openRuns(const QStringList& folders, QStringList* errors = nullptr);
    /// The folders of the runs on screen (finished, stopped or opened), oldest first.
    QStringList openRunFolders() const;
    /// Takes every run that is over off screen (charts, table, frontier, exports); a run still
    /// going or queued stays.
    void closeRuns();
    /// The runs Export Update Bundles offers: folders on screen with bundles/ and rounds.
    QStringList bundleRunFolders() const;
    /// Writes the report of the runs on screen (ui/report/ReportWriter) as one PDF, with a fleet
    /// page when the Fleet tab has a finished simulation of them (FleetPanel::reportFleet()).
    bool exportReport(const QString& path, QString* error = nullptr) const;
    QAction* reopenRunsAction() const { return reopenRunsAct_; }
    /// File › Recent Runs: each entry the folder's name and what its run is.
    const RecentFiles* recentRuns() const { return recentRuns_; }
    QAction* exportReportAction() const { return exportReportAct_; }
    /// A first start on a screen smaller than 1440x900: the application shows the window
    /// maximised (a window manager's title bar and panels pushed a resized one off the screen).
    bool startMaximized() const { return startMaximized_; }
    /// Whether closing during a run asks first (tests turn the question off).
    void setAskBeforeClosingRun(bool ask) { askOnClose_ = ask; }

Q_SIGNALS:
    /// Every queued run is over (finished, stopped or failed).
    void runsFinished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildFileMenu();
    void buildRunMenu();
    void buildToolsAndHelpMenus();
    void connectQueue();
    void connectBudget();
    /// The Fleet and Budget tabs start from the plan's deployment; their Use in plan writes to it.
    void connectDeployment();
    void restoreSettings();
    void saveSettings() const;
    void updateActions();
    void updateTitle();
    /// Asks Save / Discard / Cancel when the form holds unsaved edits; true: go on.
    bool confirmDiscardEdits();
    /// Opens a plan from a menu: asks about unsaved edits first, reports errors in a box.
    void openPlanAsking(const QString& path, const QString& title);
    void openWithDialog();
    bool save();
    bool saveAs();
    void exportResultsWithDialog(bool json);
    void exportBundlesWithDialog();

    // MainWindowRuns.cpp: run folders, recent runs, exports of the runs on screen.
    void buildRunMenus(QMenu* file);
    void openRunsWithDialog();
    void exportReportWithDialog();
    /// The queue's events into the book; a run's end into Recent Runs.
    void connectBook();
    void saveOpenRuns(QSettings& settings) const;
    void restoreOpenRuns(const QSettings& settings);
    // MainWindowSweeps.cpp: sweep folders in the Sweeps tab, their finished cells as runs.
    void buildSweepMenus(QMenu* file);
    void connectSweeps();
    void openSweepWithDialog();
    void saveOpenSweep(QSettings& settings) const;
    void restoreOpenSweep(const QSettings& settings);
    /// Starts `sweep` here or on Slurm (target.where must not be Queue) in a new folder under
    /// target.folder named "STAMP-name" (unsafe characters as _), shows it in the Sweeps tab and
    /// says so (`what`: "k sweep"); *dir (may be null) gets the folder. False with *error when it
    /// cannot start.
    bool sendSweep(dpu::Sweep sweep, const SweepTarget& target, const QString& name, const QString& what, QString* dir,
                   QString* error);
    // MainWindowFleetPlan.cpp: the Fleet plan tab's Use this configuration and cells to run.
    void connectFleetPlan();
    /// Run these cells…: asks where (the sweep target, as the Budget tab's) and sends them.
    void askFleetCells(const dpu::Sweep& sweep);

    RunBook* book_;
    RecentFiles* recentRuns_ = nullptr;
    QAction* reopenRunsAct_ = nullptr;
    QAction* exportReportAct_ = nullptr;
    QAction* closeRunsAct_ = nullptr;

    PlanPanel* plan_;
    RunPanel* run_;
    ResultsPanel* results_;
    RunQueue* queue_;
    SweepController* sweeps_;
    SweepPanel* sweepPanel_;
    QSplitter* splitter_;
    QWidget* formScroll_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QAction* runAct_ = nullptr;
    QAction* pauseAct_ = nullptr;
    QAction* stopAct_ = nullptr;
    QAction* sweepAct_ = nullptr;
    QAction* budgetAct_ = nullptr;
    QAction* exportBundlesAct_ = nullptr;
    QString file_;
    bool dirty_ = false;
    bool askOnClose_ = true;
    bool startMaximized_ = false;
    bool closeWhenIdle_ = false;
};

} // namespace dpu::ui
