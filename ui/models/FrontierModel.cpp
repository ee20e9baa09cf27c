// SPDX-License-Identifier: MIT
// FrontierModel: collects runs as they finish or are opened; grouping and pooling are core's.
#include "models/FrontierModel.h"
#include <algorithm>

namespace dpu::ui {

void FrontierModel::runQueued(int runId, const dpu::Plan& plan)
{
    runs_[runId] = Run{plan, {}, false, 0};
}

void FrontierModel::addRecord(int runId, const dpu::RoundRecord& record)
{
    auto it = runs_.find(runId);
    if (it != runs_.end())
        it->second.records.push_back(record);
}

void FrontierModel::runEnded(int runId, bool finished)
{
    auto it = runs_.find(runId);
    if (it == runs_.end())
        return;
    if (finished && !it->second.records.empty()) {
        it->second.finished = true;
        it->second.order = ++nextOrder_;
    } else {
        runs_.erase(it);
    }
}

void FrontierModel::addRun(int runId, const dpu::Plan& plan, const std::vector<dpu::RoundRecord>& records, bool finished)
{
    if (finished && !records.empty())
        runs_[runId] = Run{plan, records, true, ++nextOrder_};
}

void FrontierModel::clear()
{
    runs_.clear();
}

int FrontierModel::finishedRuns() const
{
    return static_cast<int>(std::count_if(runs_.begin(), runs_.end(), [](const auto& r) { return r.second.finished; }));
}

std::vector<dpu::FrontierGroup> FrontierModel::groups() const
{
    std::vector<std::pair<int, int>> order; // (order, id) of the finished runs
    for (const auto& [id, run] : runs_)
        if (run.finished)
            order.emplace_back(run.order, id);
    std::sort(order.begin(), order.end());
    std::vector<dpu::FrontierRun> runs;
    for (const auto& [o, id] : order) {
        const Run& r = runs_.at(id);
        dpu::FrontierRun run;
        run.id = std::to_string(id);
        run.plan = r.plan;
        run.records = r.records;
        run.finished = true;
        runs.push_back(std::move(run));
    }
    return dpu::frontierGroups(runs);
}

std::vector<FrontierPoint> FrontierModel::points(const dpu::Plan& plan) const
{
    const auto all = groups();
    const int g = dpu::frontierGroupOf(all, plan);
    return g < 0 ? std::vector<FrontierPoint>{} : all[static_cast<size_t>(g)].points;
}

} // namespace dpu::ui
