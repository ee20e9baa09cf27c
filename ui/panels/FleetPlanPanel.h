// SPDX-License-Identifier: MIT
// The Fleet plan tab: the fleet's targets, the planner (dpu::planFleet) over the book's finished runs on a worker thread, its frontier and its recommendation, Use this configuration, and the cells to run.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/Plan.h"
#include "dpu/Sweep.h"
#include "report/ReportFleetPlan.h"
#include "workers/FleetPlanWorker.h"
#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QThread;

namespace dpu::ui {

class FleetPlanCells;
class FleetPlanChart;
class FleetPlanReplan;
class FleetPlanTargets;
class RunBook;

/// Starts from the plan's deployment and its targets (setPlanDeployment()); Plan (Ctrl+Return)
/// searches what the book's finished runs and the deployment offer, with progress and Cancel;
/// the answer is drawn (FleetPlanChart) and told in words; Use this configuration hands the
/// recommended candidate's whole plan (FleetPlanUse) to useConfiguration(); Run these cells…
/// hands the cells the planner names as a sweep to runCellsRequested(). Once it has planned,
/// the tab plans again by itself when the book's finished runs change (replanSoon()).
class FleetPlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit FleetPlanPanel(QWidget* parent = nullptr);
    ~FleetPlanPanel() override;

    /// The book whose finished (or stopped) runs a plan searches; it must outlive the panel's use.
    void setRunBook(const RunBook* book);
    /// The plan's deployment: the search starts from it, the targets show its targets. The same
    /// deployment again (another edit of the plan) leaves targets being edited alone.
    void setPlanDeployment(const dpu::Deployment& fleet);

    /// Starts a search (nothing while one runs).
    void plan();
    /// Asks the running search to stop; it answers with what it simulated. The tab then no
    /// longer re-plans by itself until Plan is pressed again.
    void cancel();
    /// Plans again after the re-plan delay (500 ms; the calls within it make one), saying `why`
    /// ("a run finished"), when the tab has planned (and the last search was not cancelled) and
    /// the finished runs on screen differ from the last search's (`force`: even when they do
    /// not). A search still running is cancelled and started again over the new runs; only the
    /// last one's answer is shown and signalled. The book's changes call it.
    void replanSoon(const QString& why, bool force = false);
    void setReplanDelay(int ms);
    /// The sweep folder the cells to run were sent to: its end (sweepEnded()) re-plans.
    void setCellsSweep(const QString& dir);
    /// A sweep ended (SweepController::sweepEnded): the cells' sweep re-plans, saying so; others
    /// change nothing here (their cells re-plan as they join the book).
    void sweepEnded(const QString& dir);
    bool busy() const { return busy_; }
    /// The deployment a search starts from: the plan's with the targets on screen.
    dpu::Deployment requestedDeployment() const;

    FleetPlanTargets* targets() const { return targets_; }
    FleetPlanChart* chart() const { return chart_; }
    QPushButton* planButton() const { return plan_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* useButton() const { return use_; }
    /// Run these cells… (Ctrl+Shift+Return): enabled exactly when the last finished answer names cells to run.
    QPushButton* cellsButton() const;
    QProgressBar* progressBar() const { return progress_; }
    /// The recommendation (or the nearest candidate and what binds) in words.
    QString recommendationText() const;
    QString statusText() const;
    /// The last answer (empty before the first).
    const FleetPlanAnswer& answer() const { return answer_; }
    /// The last finished plan as the report's fleet plan page takes it; empty while busy(), or
    /// when the plan failed or was cancelled.
    ReportFleetPlan reportFleetPlan() const;

Q_SIGNALS:
    /// A search ended (finished, cancelled or failed): the view shows its answer.
    void planned();
    /// Use this configuration: the recommended candidate's whole plan (FleetPlanUse::of(), with
    /// the targets on screen) and the sentence that says what it is, for the form.
    void useConfiguration(const dpu::Plan& plan, const QString& summary);
    /// Run these cells…: the sweep of the cells the last answer names (dpu::fleetPlanSweep()),
    /// to be sent where the user says.
    void runCellsRequested(const dpu::Sweep& sweep);

private:
    void onProgress(qulonglong done, qulonglong toSimulate);
    void onPlanned(const dpu::ui::FleetPlanAnswer& answer);
    /// Targets and buttons above, the chart over the words and the two actions below.
    void layOut();
    void useRecommended();
    void requestCells();
    void setBusy(bool busy);
    /// Starts a search over the book's finished runs; `why` non-empty: a re-plan, and why.
    void start(const QString& why);
    /// The runs on screen changed (FleetPlanReplan::request): start, or restart the running search.
    void replanNow(const QString& why);

    FleetPlanTargets* targets_;
    QPushButton* plan_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* status_;
    FleetPlanChart* chart_;
    QLabel* words_;
    QPushButton* use_;
    FleetPlanCells* cells_;
    FleetPlanReplan* replan_;
    QThread* thread_;
    FleetPlanWorker* worker_;
    const RunBook* book_ = nullptr;
    std::optional<dpu::Deployment> planDeployment_;
    std::shared_ptr<dpu::RunControl> control_;
    FleetPlanAnswer answer_;
    dpu::FleetTargets answerTargets_; ///< the targets answer_ planned for
    bool busy_ = false;
    bool answered_ = false; ///< a search has answered (finished, cancelled or failed)
    bool restart_ = false; ///< the running search is cancelled to start again over the new runs
    QString restartWhy_;
};

} // namespace dpu::ui
