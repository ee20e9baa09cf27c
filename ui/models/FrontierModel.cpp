// SPDX-License-Identifier: MIT
// FrontierModel: pools finished runs per (strategy, k) and interpolates accuracy on log k.
#include "models/FrontierModel.h"
#include <algorithm>
#include <cmath>

namespace dpu::ui {

void FrontierModel::runQueued(int runId, const dpu::Plan& plan)
{
    runs_[runId] = Run{plan, {}, false};
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
    if (finished && !it->second.records.empty())
        it->second.finished = true;
    else
        runs_.erase(it);
}

void FrontierModel::clear()
{
    runs_.clear();
}

int FrontierModel::finishedRuns() const
{
    return static_cast<int>(std::count_if(runs_.begin(), runs_.end(), [](const auto& r) { return r.second.finished; }));
}

std::vector<FrontierPoint> FrontierModel::points(const std::string& model, const std::string& datasetKind) const
{
    struct Sum {
        double accuracy = 0;
        double bytes = 0;
        int rounds = 0;
        int runs = 0;
    };
    std::map<std::pair<std::string, double>, Sum> sums;
    for (const auto& [id, run] : runs_) {
        if (!run.finished || (!model.empty() && run.plan.model != model)
            || (!datasetKind.empty() && run.plan.dataset.kind != datasetKind))
            continue;
        std::map<std::string, bool> seen;
        for (const dpu::RoundRecord& r : run.records) {
            Sum& s = sums[{r.strategy, run.plan.k}];
            s.accuracy += r.testAccuracy;
            s.bytes += r.analyticBits / 8.0;
            ++s.rounds;
            if (!seen[r.strategy]) {
                seen[r.strategy] = true;
                ++s.runs;
            }
        }
    }
    std::vector<FrontierPoint> out;
    for (const auto& [key, s] : sums)
        out.push_back({key.first, key.second, s.accuracy / s.rounds, s.bytes / s.rounds, s.runs, s.rounds});
    return out; // std::map order: strategy, then k
}

Expectation FrontierModel::expectedAccuracy(const std::vector<FrontierPoint>& points, double k)
{
    Expectation e;
    if (!(k > 0))
        return e;
    const FrontierPoint* below = nullptr;
    const FrontierPoint* above = nullptr;
    for (const FrontierPoint& p : points) {
        if (p.k <= k && (!below || p.k > below->k))
            below = &p;
        if (p.k >= k && (!above || p.k < above->k))
            above = &p;
    }
    if (!below || !above)
        return e;
    e.bracketed = true;
    e.kLow = below->k;
    e.kHigh = above->k;
    if (below->k == above->k) {
        e.accuracy = below->meanAccuracy;
        return e;
    }
    // Accuracy grows roughly linearly in log k over the paper's range (0.001 .. 0.1).
    const double t = (std::log(k) - std::log(below->k)) / (std::log(above->k) - std::log(below->k));
    e.accuracy = below->meanAccuracy + t * (above->meanAccuracy - below->meanAccuracy);
    return e;
}

} // namespace dpu::ui
