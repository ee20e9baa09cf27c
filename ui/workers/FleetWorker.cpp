// SPDX-License-Identifier: MIT
// FleetWorker: core's fleetStrategiesOf and simulateFleet over the book's runs, off the GUI thread.
#include "workers/FleetWorker.h"
#include "workers/RunStatusFile.h"
#include "dpu/Error.h"
#include "dpu/FleetRuns.h"
#include "dpu/InternalCheck.h"
#include <QDir>
#include <QFile>
#include <exception>
#include <utility>

namespace dpu::ui {

FleetWorker::FleetWorker(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<dpu::ui::FleetAnswer>("dpu::ui::FleetAnswer");
}

FleetAnswer FleetWorker::simulateNow(const FleetRequest& request) const
{
    FleetAnswer out;
    out.id = request.id;
    out.roundPeriodSeconds = request.settings.roundPeriodHours * 3600.0;
    try {
        for (FleetRunSource source : request.runs) {
            readRunStatus(source.run);
            dpu::FleetRunInput input = dpu::fleetStrategiesOf(source.run, source.seed);
            if (request.settings.catchUpSizes == dpu::CatchUpSizing::Real)
                for (dpu::FleetStrategy& s : input.strategies)
                    dpu::useRealCatchUps(s, source.run, s.name, source.seed, catchUpSizes_);
            for (const std::string& name : input.neverDeployed)
                out.notes.push_back(source.run.plan.name + "/" + name + " never deployed: left out");
            const dpu::FleetConfig config = dpu::fleetConfigOf(request.settings, input.lastRound, input.newSamplesPerRound);
            out.config = config;
            for (const dpu::FleetStrategy& s : input.strategies) {
                if (request.id < cancelBefore_.load()) {
                    FleetAnswer none;
                    none.id = request.id;
                    none.cancelled = true;
                    return none;
                }
                if (s.fullModelBytes <= 0) {
                    out.notes.push_back(source.run.plan.name + "/" + s.name + ": the model's size is unknown (no FU run, no run.json): left out");
                    continue;
                }
                dpu::FleetResult result = dpu::simulateFleet(config, s);
                const dpu::FleetMetrics metrics = dpu::fleetMetrics(config, s, result);
                out.series.push_back({source.runId, s.name, s.versions, std::move(result), metrics});
            }
        }
    } catch (const std::exception& e) {
        // LinkError names the field (frameLoss, dutyCycle, groups[0].link...): the tab shows it.
        out.series.clear();
        out.error = dpu::failureText(e);
    }
    return out;
}

void FleetWorker::simulate(const dpu::ui::FleetRequest& request)
{
    Q_EMIT simulated(simulateNow(request));
}

} // namespace dpu::ui
