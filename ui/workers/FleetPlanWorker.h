// SPDX-License-Identifier: MIT
// Runs the fleet planner (dpu/FleetPlanner.h) over the book's finished runs on a worker thread, with progress and a cancel token.
#pragma once
#include "dpu/FleetPlanner.h"
#include "dpu/RunFolder.h"
#include <QMetaType>
#include <QObject>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dpu::ui {

class RunBook;

/// What the Fleet plan view asks: the plan's deployment with the targets on screen, over the
/// book's finished runs (as the Fleet tab gathers them).
struct FleetPlanRequest {
    dpu::Deployment deployment;
    std::vector<dpu::RunFolder> runs;
    /// The one token: the view's Cancel sets it from the GUI thread, planFleet() reads it.
    std::shared_ptr<dpu::RunControl> control = std::make_shared<dpu::RunControl>();
};

/// The planner's answer, or the error (a LinkError names the field).
struct FleetPlanAnswer {
    std::string error;
    std::vector<std::string> notes;  ///< strategies that never deployed, runs stopped early
    std::vector<dpu::FleetPlanStrategy> strategies; ///< the input's (the candidates index them)
    /// The runs planned over, with their run.json read: a strategy's `run` is one's label(); Use
    /// this configuration takes its plan, the cells to run are made of them.
    std::vector<dpu::RunFolder> runs;
    dpu::FleetPlan plan;
};

/// Create on the GUI thread, move to a QThread, call plan() through a queued invocation;
/// progress() and planned() arrive queued on the GUI thread.
class FleetPlanWorker : public QObject {
    Q_OBJECT
public:
    explicit FleetPlanWorker(QObject* parent = nullptr);

    /// The book's finished and stopped runs with records (as the Fleet tab takes them: their
    /// versions are final), as a request plans over them; none for a null book. Throws nothing.
    static std::vector<dpu::RunFolder> finishedRuns(const RunBook* book);

    /// The whole search on the calling thread (the worker's, or a test's); never throws.
    /// `progress` (may be empty) is called after each simulated candidate.
    static FleetPlanAnswer planNow(const FleetPlanRequest& request, const std::function<void(size_t, size_t)>& progress = {});

public Q_SLOTS:
    void plan(const dpu::ui::FleetPlanRequest& request);

Q_SIGNALS:
    /// `done` of `toSimulate` candidates simulated.
    void progress(qulonglong done, qulonglong toSimulate);
    void planned(const dpu::ui::FleetPlanAnswer& answer);
};

} // namespace dpu::ui

Q_DECLARE_METATYPE(dpu::ui::FleetPlanAnswer)
