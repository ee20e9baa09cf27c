// SPDX-License-Identifier: MIT
// The Fleet plan tab: the fleet's targets, the planner (dpu::planFleet) over the book's finished runs on a worker thread, its frontier and its recommendation, and Use this configuration.
#pragma once
#include "dpu/Deployment.h"
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

class FleetPlanChart;
class FleetPlanTargets;
class RunBook;

/// Starts from the plan's deployment and its targets (setPlanDeployment()); Plan (Ctrl+Return)
/// searches what the book's finished runs and the deployment offer, with progress and Cancel;
/// the answer is drawn (FleetPlanChart) and told in words; Use this configuration hands the
/// recommended candidate's deployment (with the targets on screen) to useConfiguration().
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
    /// Asks the running search to stop; it answers with what it simulated.
    void cancel();
    bool busy() const { return busy_; }
    /// The deployment a search starts from: the plan's with the targets on screen.
    dpu::Deployment requestedDeployment() const;

    FleetPlanTargets* targets() const { return targets_; }
    FleetPlanChart* chart() const { return chart_; }
    QPushButton* planButton() const { return plan_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* useButton() const { return use_; }
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
    /// Use this configuration: the recommended candidate's deployment, for the plan.
    void useConfiguration(const dpu::Deployment& fleet);

private:
    void onProgress(qulonglong done, qulonglong toSimulate);
    void onPlanned(const dpu::ui::FleetPlanAnswer& answer);
    void useRecommended();
    void setBusy(bool busy);

    FleetPlanTargets* targets_;
    QPushButton* plan_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* status_;
    FleetPlanChart* chart_;
    QLabel* words_;
    QPushButton* use_;
    QThread* thread_;
    FleetPlanWorker* worker_;
    const RunBook* book_ = nullptr;
    std::optional<dpu::Deployment> planDeployment_;
    std::shared_ptr<dpu::RunControl> control_;
    FleetPlanAnswer answer_;
    dpu::FleetTargets answerTargets_; ///< the targets answer_ planned for
    bool busy_ = false;
};

} // namespace dpu::ui
