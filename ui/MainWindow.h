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
    void restoreSettings();
    void saveSettings() const;
    void updateActions();
    void updateTitle();
    QString seriesKey(int runId, const std::string& strategy, uint64_t seed) const;
    void openWithDialog();
    bool save();
    bool saveAs();
    void exportResultsWithDialog(bool json);

    PlanPanel* plan_;
    RunPanel* run_;
    ResultsPanel* results_;
    RunQueue* queue_;
    QSplitter* splitter_;
    RecentFiles* recent_ = nullptr;
    QAction* runAct_ = nullptr;
    QAction* pauseAct_ = nullptr;
    QAction* stopAct_ = nullptr;
    QString file_;
    bool dirty_ = false;
    bool askOnClose_ = true;
    bool closeWhenIdle_ = false;
    int firstRunOfBatch_ = 0;
    QHash<int, dpu::Plan> runPlans_;
};

} // namespace dpu::ui
