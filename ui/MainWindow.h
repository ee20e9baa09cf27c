// SPDX-License-Identifier: MIT
// The main window: menus and toolbar, the plan, run and results panels, settings, plan files.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include <QHash>
#include <QMainWindow>

class QAction;
class QSplitter;

namespace dpu::ui {

class PlanPanel;
class RecentFiles;
class ResultsPanel;
class RunPanel;
class RunQueue;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    PlanPanel* planPanel() const { return plan_; }
    RunPanel* runPanel() const { return run_; }
    ResultsPanel* resultsPanel() const { return results_; }
    RunQueue* runQueue() const { return queue_; }
    QAction* runAction() const { return runAct_; }
    QAction* pauseAction() const { return pauseAct_; }
    QAction* stopAction() const { return stopAct_; }

    /// Validates the plan on the form and queues it; false (nothing queued) when invalid.
    bool startRun();
    /// Queues one run per ratio, the plan on the form otherwise unchanged; returns the run ids
    /// (none when the plan or a ratio is invalid).
    QList<int> queueKSweep(const QList<double>& ratios);
    QAction* sweepAction() const { return sweepAct_; }
    QAction* budgetAction() const { return budgetAct_; }
    bool openPlan(const QString& path, QString* error = nullptr);
    bool savePlanTo(const QString& path, QString* error = nullptr);
    QString currentFile() const { return file_; }
    bool exportResultsCsv(const QString& path, QString* error = nullptr) const;
    bool exportResultsJson(const QString& path, QString* error = nullptr) const;
    /// Whether closing during a run asks first (tests turn the question off).
    void setAskBeforeClosingRun(bool ask) { askOnClose_ = ask; }

Q_SIGNALS:
    /// Every queued run is over (finished, stopped or failed).
    void runsFinished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void connectQueue();
    void connectBudget();
    void restoreSettings();
    void saveSettings() const;
    void updateActions();
    void updateTitle();
    /// withSeed false: the key of a strategy's mean over the seeds of a run.
    QString seriesKey(int runId, const std::string& strategy, uint64_t seed, bool withSeed = true) const;
    /// Asks Save / Discard / Cancel when the form holds unsaved edits; true: go on.
    bool confirmDiscardEdits();
    /// Opens a plan from a menu: asks about unsaved edits first, reports errors in a box.
    void openPlanAsking(const QString& path, const QString& title);
    void openWithDialog();
    bool save();
    bool saveAs();
    void exportResultsWithDialog(bool json);
    void exportBundlesWithDialog();

    PlanPanel* plan_;
    RunPanel* run_;
    ResultsPanel* results_;
    RunQueue* queue_;
    QSplitter* splitter_;
    QWidget* formScroll_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QAction* runAct_ = nullptr;
    QAction* pauseAct_ = nullptr;
    QAction* stopAct_ = nullptr;
    QAction* sweepAct_ = nullptr;
    QAction* budgetAct_ = nullptr;
    QAction* exportBundlesAct_ = nullptr;
    QString lastRunDir_;                       ///< the last finished run's output folder
    std::vector<dpu::RoundRecord> lastRunRecords_;
    QString file_;
    bool dirty_ = false;
    bool askOnClose_ = true;
    bool closeWhenIdle_ = false;
    int firstRunOfBatch_ = 0;
    bool sweepBatch_ = false; // every series of a k sweep names its k
    QHash<int, dpu::Plan> runPlans_;
};

} // namespace dpu::ui
