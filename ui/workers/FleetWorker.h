// SPDX-License-Identifier: MIT
// Simulates the fleet (dpu/Fleet.h) for the finished runs on screen on a worker thread: one request at a time, stale ones dropped.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetMetrics.h"
#include "dpu/DeploymentModel.h"
#include "dpu/RunFolder.h"
#include <QMetaType>
#include <QObject>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace dpu::ui {

/// One run of the book as the simulation's input: its id (to name its series on the GUI
/// thread), its folder's content and the seed to read.
struct FleetRunSource {
    int runId = 0;
    dpu::RunFolder run; ///< plan, records; status from dir/run.json when the worker finds it
    uint64_t seed = 0;
};

/// What the Fleet tab asks: the fleet as settings, over the runs.
struct FleetRequest {
    quint64 id = 0;
    dpu::Deployment settings;
    std::vector<FleetRunSource> runs;
};

/// One strategy of one run on the fleet.
struct FleetSeries {
    int runId = 0;
    std::string strategy;
    std::vector<dpu::FleetVersion> versions; ///< what it deployed (the spread chart names them)
    dpu::FleetResult result;
    dpu::FleetMetrics metrics; ///< core's fleetMetrics() of result: what the table and the report print
};

/// The worker's answer: every strategy of every run, or the error (a LinkError names the field).
struct FleetAnswer {
    quint64 id = 0;
    bool cancelled = false;          ///< a newer request came first: nothing to show
    std::string error;
    std::vector<std::string> notes;  ///< strategies that never deployed, runs without a full model
    std::vector<FleetSeries> series;
    double roundPeriodSeconds = 86400;
    /// The fleet and policy the series ran under (the last run's lastRound; what the report's
    /// fleet page describes).
    dpu::FleetConfig config;
};

/// Create on the GUI thread, move to a QThread, call simulate() through a queued invocation;
/// simulated() arrives queued on the GUI thread. cancelBefore() may be called from any thread.
class FleetWorker : public QObject {
    Q_OBJECT
public:
    explicit FleetWorker(QObject* parent = nullptr);

    /// Does the whole simulation on the calling thread (the worker's, or a test's); never throws.
    FleetAnswer simulateNow(const FleetRequest& request) const;
    /// Requests with an id below `id` stop before their next strategy and answer `cancelled`.
    void cancelBefore(quint64 id) { cancelBefore_.store(id); }

public Q_SLOTS:
    void simulate(const dpu::ui::FleetRequest& request);

Q_SIGNALS:
    void simulated(const dpu::ui::FleetAnswer& answer);

private:
    std::atomic<quint64> cancelBefore_{0};
    /// Real catch-up sizes built so far: the tab re-simulates at every edit, and a run's files
    /// do not change once it has ended. Used on the worker's thread only.
    std::shared_ptr<dpu::CatchUpSizes> catchUpSizes_ = std::make_shared<dpu::CatchUpSizes>();
};

} // namespace dpu::ui

Q_DECLARE_METATYPE(dpu::ui::FleetAnswer)
