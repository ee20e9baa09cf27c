// SPDX-License-Identifier: MIT
// FleetPlanUse: a fleet plan's candidate as the whole plan the form takes, and the status bar's sentence about it.
#include "panels/FleetPlanUse.h"
#include "dpu/Error.h"
#include "dpu/StrategyId.h"
#include <QObject>
#include <algorithm>

namespace dpu::ui {

FleetPlanUse FleetPlanUse::of(const FleetPlanAnswer& answer, size_t candidate, const dpu::FleetTargets& targets)
{
    const dpu::FleetPlan& p = answer.plan;
    if (candidate >= p.candidates.size())
        throw dpu::Error("fleet plan: candidate " + std::to_string(candidate) + " is out of range (" +
                         std::to_string(p.candidates.size()) + " simulated)");
    const dpu::FleetPlanCandidate& c = p.candidates[candidate];
    if (c.strategy >= answer.strategies.size())
        throw dpu::Error("fleet plan: candidate " + c.label + " names strategy " + std::to_string(c.strategy) + " of " +
                         std::to_string(answer.strategies.size()));
    const dpu::FleetPlanStrategy& s = answer.strategies[c.strategy];
    if (s.estimated) // a cell nobody ran: its plan is the run's with the cell's keys, a sweep's job
        throw dpu::Error("fleet plan: " + c.label + " is estimated, not a run's: run the cell first");
    const auto run = std::find_if(answer.runs.begin(), answer.runs.end(), [&](const dpu::RunFolder& r) { return r.label() == s.run; });
    if (run == answer.runs.end())
        throw dpu::Error("fleet plan: the run " + s.run + " of " + c.label + " is not among the runs planned over");
    FleetPlanUse out;
    out.plan = run->plan;
    // The candidate's strategy alone, and the baseline beside it when the run had one: the
    // accuracies the plan was judged by are "to FU", so a run of this plan can be judged again.
    std::vector<std::string> kept;
    for (const std::string& name : run->plan.strategies)
        if (name == s.strategyName || dpu::isBaseline(name))
            kept.push_back(name);
    out.plan.strategies = kept;
    out.plan.fleet = c.deployment;
    out.plan.fleet.targets = targets;
    const bool withBaseline = kept.size() > 1;
    out.summary = QObject::tr("The plan is now %1/%2 at k %3 with %4 bundles%5 (run %1's plan), deployed with %6.")
                      .arg(QString::fromStdString(s.shownRun()), QString::fromStdString(s.strategyName),
                           QString::number(out.plan.k, 'g', 6),
                           QString::fromStdString(s.coding),
                           withBaseline ? QObject::tr(" and the baseline %1 beside it").arg(QString::fromStdString(dpu::baselineStrategyName()))
                                        : QString(),
                           QString::fromStdString(dpu::fleetSettingText(c.setting)));
    return out;
}

} // namespace dpu::ui
