// SPDX-License-Identifier: MIT
// FleetPlanWorker: core's fleetPlanInputOf and planFleet over the book's runs, off the GUI thread.
#include "workers/FleetPlanWorker.h"
#include "models/RunBook.h"
#include "workers/RunStatusFile.h"
#include "dpu/Error.h"
#include "dpu/FleetPlanInputs.h"
#include "dpu/InternalCheck.h"
#include "dpu/LinkModel.h"
#include <QDir>
#include <QFile>
#include <exception>
#include <functional>
#include <utility>

namespace dpu::ui {
namespace {

/// Forwards the planner's progress to a callback.
class Progress : public dpu::FleetPlanObserver {
public:
    explicit Progress(const std::function<void(size_t, size_t)>& f) : f_(f) {}
    void candidateDone(size_t done, size_t toSimulate, const dpu::FleetPlanCandidate&) override
    {
        if (f_)
            f_(done, toSimulate);
    }

private:
    const std::function<void(size_t, size_t)>& f_;
};

} // namespace

FleetPlanWorker::FleetPlanWorker(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<dpu::ui::FleetPlanAnswer>("dpu::ui::FleetPlanAnswer");
}

FleetPlanAnswer FleetPlanWorker::planNow(const FleetPlanRequest& request, const std::function<void(size_t, size_t)>& progress)
{
    FleetPlanAnswer out;
    try {
        std::vector<dpu::RunFolder> runs = request.runs;
        for (dpu::RunFolder& run : runs)
            readRunStatus(run);
        if (runs.empty())
            throw dpu::LinkError("", "no finished run on screen: open finished runs or queue one to plan over");
        dpu::FleetPlanInputOptions options;
        options.realCatchUps = request.deployment.catchUpSizes == dpu::CatchUpSizing::Real;
        const dpu::FleetPlanInput input = dpu::fleetPlanInputOf(runs, request.deployment, options, &out.notes);
        Progress observer(progress);
        out.plan = dpu::planFleet(input, &observer, *request.control);
        out.strategies = input.strategies;
        out.runs = std::move(runs);
    } catch (const std::exception& e) {
        out.error = dpu::failureText(e);
    }
    return out;
}

std::vector<dpu::RunFolder> FleetPlanWorker::finishedRuns(const RunBook* book)
{
    std::vector<dpu::RunFolder> out;
    if (book)
        for (const BookRun& run : book->runs())
            if (run.versionsFinal()) // as the Fleet tab takes them
                out.push_back(run.folder());
    return out;
}

void FleetPlanWorker::plan(const dpu::ui::FleetPlanRequest& request)
{
    Q_EMIT planned(planNow(request, [this](size_t done, size_t toSimulate) { Q_EMIT progress(done, toSimulate); }));
}

} // namespace dpu::ui
