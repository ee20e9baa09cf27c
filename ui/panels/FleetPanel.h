// SPDX-License-Identifier: MIT
// The Fleet tab: what a fleet behind a real link runs of the finished runs on screen, over time, and at what airtime and energy.
#pragma once
#include "dpu/Plan.h"
#include "report/ReportFleet.h"
#include "workers/FleetWorker.h"
#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;
class QThread;
class QTimer;

namespace dpu::ui {

class FleetAccuracyChart;
class FleetInputs;
class PlanDeploymentBar;
class RunBook;
class VersionSpreadChart;

/// Follows the run book: every finished (or stopped) run's strategies, at the run's first seed,
/// are simulated on the fleet the inputs state (dpu::simulateFleet on a FleetWorker thread),
/// again whenever the inputs or the book change (coalesced; a stale answer is dropped).
class FleetPanel : public QWidget {
    Q_OBJECT
public:
    /// Table columns: core's fleetMetrics() under the names dpu-cli fleet and the report use.
    enum Column { Series, Versions, LatestTo90, InitialDeployment, BytesPerUpdateRound, AirtimePerUpdateRound,
                  EnergyPerUpdateRound, EnergyPerYear, BatteryPerYear, CatchUp, FleetAccuracy, ServerAccuracy, ColumnCount };

    explicit FleetPanel(QWidget* parent = nullptr);
    ~FleetPanel() override;

    /// Shows the book's runs and follows it from now on; the book must outlive the panel's use of it.
    void setRunBook(const RunBook* book);

    FleetInputs* inputs() const { return inputs_; }
    FleetAccuracyChart* accuracyChart() const { return accuracy_; }
    VersionSpreadChart* spreadChart() const { return spread_; }
    /// Which series the spread chart shows.
    QComboBox* spreadChoice() const { return spreadChoice_; }
    QTableWidget* table() const { return table_; }
    /// What the panel says about the last simulation (or why there is none).
    QString statusText() const;
    /// A request is waiting or under way.
    bool busy() const { return busy_ || waiting_; }
    /// The simulation the charts and the table show (its series' full results).
    const FleetAnswer& shownAnswer() const { return shown_; }
    /// The last finished simulation as the report's fleet page takes it (its series named as
    /// the table names them, the notes as the status lists them); empty while busy() (it would
    /// not be of the runs and inputs on screen) or when the simulation failed.
    ReportFleet reportFleet() const;

    /// The plan's deployment (its fleet keys): the tab shows it (link, SF or mix, sub-band, loss,
    /// delivery, device class, devices, availability, round period) in place of what it explored;
    /// the trace, drain, server policy and processor stay the tab's. The same deployment again
    /// (another edit of the plan) changes nothing: a variation being explored stays.
    void setPlanDeployment(const dpu::Deployment& fleet);
    /// Shows the plan's deployment again, dropping the variation (Reset to plan).
    void resetToPlan();
    /// The line over the tab: the plan's deployment, or what the tab explores instead, with
    /// Use in plan (its useInPlan() signal) and Reset to plan.
    PlanDeploymentBar* deploymentBar() const { return deployment_; }

Q_SIGNALS:
    /// The charts and the table show the latest inputs and runs (or the reason they are empty).
    void updated();

private:
    /// What the tab says while no finished run is on screen (and at the start).
    static QString noRunsHint();
    /// The charts, the spread's choice and the table, in splitters.
    QWidget* buildOutputs();
    void startWorker();
    /// Asks for a simulation after a short pause (inputs typed digit by digit, runs opened together).
    void schedule();
    void send();
    void onSimulated(const dpu::ui::FleetAnswer& answer);
    void show(const FleetAnswer& answer);
    void fillTable();
    /// The columns' names, the per-year ones with the cadence of the answer shown.
    void setHeaders();
    void showSpread();
    QString keyOf(const FleetSeries& series) const;

    FleetInputs* inputs_;
    FleetAccuracyChart* accuracy_;
    VersionSpreadChart* spread_;
    QComboBox* spreadChoice_;
    QTableWidget* table_;
    QLabel* status_;
    PlanDeploymentBar* deployment_;
    QThread* thread_;
    FleetWorker* worker_;
    QTimer* timer_;
    const RunBook* book_ = nullptr;
    FleetAnswer shown_;
    QStringList keys_; ///< shown_.series' names, in its order
    quint64 seq_ = 0;
    bool busy_ = false;    ///< the worker has a request
    bool waiting_ = false; ///< a newer request waits for the timer or the worker
};

} // namespace dpu::ui
