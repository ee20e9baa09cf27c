// SPDX-License-Identifier: MIT
// Budget planner: the recommended configuration for a byte budget, largest k, total over devices, frontier, k sweep.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Events.h"
#include "dpu/LinkModel.h"
#include "dpu/Plan.h"
#include "dpu/Recommend.h"
#include "models/FrontierModel.h"
#include "workers/EngineMetatypes.h" // dpu::Plan in a signal
#include <QHash>
#include <QList>
#include <QString>
#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSettings;

namespace dpu::ui {

class BudgetInputs;
class RunBook;
class FrontierChart;
class LinkRoundReadout;
class PlanDeploymentBar;
class SweepTargetBox;

class BudgetPanel : public QWidget {
    Q_OBJECT
public:
    explicit BudgetPanel(QWidget* parent = nullptr);

    /// Model sizes of the plan on the form (what one round costs at a k).
    void setCostModel(const dpu::CostModel& model);
    /// The plan on the form: the frontier shows the finished runs whose plans agree with it but
    /// for k (when there are any) and the expected accuracy needs its model and dataset.
    void setReferencePlan(const dpu::Plan& plan);
    /// How lists and notes name a run (default "run N"); opened folders use their folder name.
    void setRunName(int runId, const QString& name);
    /// A finished (or stopped: not used) run read back from its folder.
    void addRun(int runId, const dpu::Plan& plan, const std::vector<dpu::RoundRecord>& records, bool finished);
    /// The group of runs the frontier shows (index into frontier().groups(); -1: none) and why
    /// the others are left out.
    int shownGroup() const { return shownGroup_; }
    QString leftOutText() const;
    /// Shows another group (index into frontier().groups()), as the group list does.
    void showGroup(int index);
    /// The points the chart shows (those of shownGroup()).
    std::vector<FrontierPoint> shownPoints() const;

    /// The plan's deployment (its fleet keys): the link, SF or mix, sub-band, loss, delivery and
    /// devices show it in place of what the tab explored (BudgetPanelLink.cpp); the budget, its
    /// window or energy and the target stay. The same deployment again (another edit of the plan)
    /// changes nothing: a variation being explored stays.
    void setPlanDeployment(const dpu::Deployment& fleet);
    /// Shows the plan's deployment again, dropping the variation (Reset to plan).
    void resetToPlan();
    /// The line over the tab: the plan's deployment, or what the tab explores instead, with
    /// Use in plan (its useInPlan() signal) and Reset to plan.
    PlanDeploymentBar* deploymentBar() const { return deployment_; }

    /// Budget as bytes per round per device.
    void setBudgetBytes(double bytes);
    /// The devices a round goes to (the plan's, until the tab varies them).
    void setDevices(int devices);
    /// A link model for the answers in airtime, wall time and energy (BudgetInputs::setLinkModel:
    /// "lorawan-eu868"/"lorawan-us915" with an SF, or a key of dpu::linkPresetKeysList() or an
    /// alias of one, dpu::resolveLinkKey()).
    /// Returns false for a key the list lacks.
    bool setLinkModel(const QString& key, int spreadingFactor = 7);
    /// Budget as a time window (s per round) on the chosen link model: the largest bundle whose
    /// wall time fits (dpu::largestBytesForWallTime).
    void setWindowBudget(double seconds);
    /// Budget as joules per device and round on the chosen link model (dpu::largestBytesForEnergy).
    void setEnergyBudget(double joules);

    /// Bits one round may send to one device (0 when the window or energy allows none).
    double budgetBits() const;
    /// Why the time window or energy allows no byte (as the field shows it); empty otherwise.
    QString budgetError() const;
    /// The recommended bundle's round on the chosen link model (core's dpu::linkRound);
    /// nullopt without a recommendation, or when the link is refused.
    const std::optional<dpu::LinkRound>& linkRound() const { return linkRound_; }
    /// The answer: largest k that fits (0: not even the dense weights fit, or no model).
    double largestK() const { return k_; }
    /// Analytic bytes of one round at largestK() for one device, and for all devices.
    double bytesPerDevice() const { return bytesPerDevice_; }
    double totalBytes() const { return bytesPerDevice_ * devices(); }
    int devices() const;
    /// The accuracy finished runs of a strategy, coded as the plan codes, suggest at largestK().
    Expectation expectation(const QString& strategy) const;
    /// The best configuration for the budget (per round) among the shown group's finished
    /// runs by their real bytes, or the cost model's estimate (core's dpu::recommend).
    const dpu::Recommendation& recommendation() const { return recommendation_; }

    /// The sweep's ratios; empty with *error set when the list does not parse or a ratio is
    /// outside (0, 1].
    QList<double> sweepRatios(QString* error = nullptr) const;
    void setSweepRatios(const QString& text);
    /// Where "Queue k sweep" sends the runs (the queue, this computer, Slurm) and its settings.
    SweepTargetBox* sweepTarget() const { return target_; }

    /// The inputs (budget, window, energy, target, sweep ratios) under "budget/" in the settings;
    /// the link and devices are the plan's deployment (setPlanDeployment()), not kept here.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

    /// The frontier follows the book's finished runs from now on (they come and go with the
    /// runs on screen); the runs already in it are taken in. The book must outlive the panel's
    /// use of it.
    void setRunBook(const RunBook* book);
    /// Forgets one run / every run (taken off screen).
    void removeRun(int runId);
    void clearRuns();

    // Events of a run (the book's, or a test's).
    void runQueued(int runId, const dpu::Plan& plan);
    void roundDone(int runId, const dpu::RoundRecord& record);
    void runEnded(int runId, bool finished);
    const FrontierModel& frontier() const { return frontier_; }
    FrontierChart* chart() const { return chart_; }

public Q_SLOTS:
    /// Recomputes the answer and redraws the chart.
    void refresh();
    /// Validates the ratios and emits sweepRequested().
    void requestSweep();

protected:
    /// The inputs' column follows its widest control (fitControlsColumn()).
    bool eventFilter(QObject* watched, QEvent* event) override;

Q_SIGNALS:
    /// Queue one run per ratio, the plan otherwise unchanged.
    void sweepRequested(const QList<double>& ratios);
    /// Put this k into the plan.
    void useKRequested(double k);
    /// Put the recommended configuration (strategy, coding, k) into the plan.
    void configurationRequested(const dpu::Plan& plan);
    /// A run finished, ended or was opened: frontier() has changed.
    void frontierChanged();

private:
    QWidget* buildControls();
    QWidget* buildRecommendedBox(QWidget* parent);
    QWidget* buildAnswerBox(QWidget* parent);
    QWidget* buildSweepBox(QWidget* parent);
    QString expectationText(const std::vector<FrontierPoint>& points) const;

    QString runName(const std::string& id) const;
    QString groupLabel(const dpu::FrontierGroup& group) const;
    /// Whether the shown group's runs share the form's model and dataset (so its cost model applies).
    bool shownGroupMatchesPlan() const;

    void takeRunFromBook(int runId);
    /// The recommendation's round on the link model (BudgetPanelLink.cpp).
    void showLinkRound();
    /// The line over the tab follows the inputs (BudgetPanelLink.cpp).
    void compareDeployment();
    /// The inputs' column at least as wide as its widest control and the scroll bar (it grows
    /// with a link model's rows: the plan's deployment is one; BudgetPanelLink.cpp).
    void fitControlsColumn();

    const RunBook* book_ = nullptr;
    dpu::CostModel model_;
    dpu::Plan plan_;
    FrontierModel frontier_;
    QHash<int, QString> runNames_;
    std::vector<dpu::FrontierGroup> groups_;
    int shownGroup_ = -1;
    std::string pinnedRun_; // first run of the group the user picked; empty: follow the form's plan
    double k_ = 0;
    double bytesPerDevice_ = 0;
    dpu::Recommendation recommendation_;
    std::optional<dpu::LinkRound> linkRound_;

    PlanDeploymentBar* deployment_;
    QScrollArea* controlsScroll_ = nullptr;
    BudgetInputs* inputs_;
    QLabel* kLabel_;
    QLabel* perDevice_;
    QLabel* total_;
    QLabel* accuracy_;
    QPushButton* useK_;
    QLabel* recommended_;
    QPushButton* useRecommended_;
    LinkRoundReadout* linkReadout_;
    QLineEdit* ratios_;
    QLabel* ratiosError_;
    QPushButton* sweep_;
    SweepTargetBox* target_;
    FrontierChart* chart_;
    QComboBox* group_;
    QLabel* leftOut_;
};

} // namespace dpu::ui
