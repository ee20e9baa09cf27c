// SPDX-License-Identifier: MIT
// planFleet(): every strategy on every setting of the deployment's space, simulated, pruned where it cannot win, then decided.
#include "dpu/DeploymentModel.h"
#include "dpu/FleetPlanner.h"
#include "fleet/FleetPlanParts.h"
#include <chrono>
#include <thread>

namespace dpu {
namespace {

using Clock = std::chrono::steady_clock;

/// One simulation to run: a strategy on a setting.
struct Task {
    size_t setting = 0;
    size_t strategy = 0;
};

/// The tasks in search order (setting by setting, so each setting's fleet is built once), with
/// what is pruned counted and said.
std::vector<Task> tasksOf(const FleetPlanInput& input, const std::vector<FleetPlanSetting>& settings, FleetPlan& plan,
                          std::vector<Task>& byPeriodTasks)
{
    const std::vector<bool> dominated =
        input.exhaustive ? std::vector<bool>(input.strategies.size(), false)
                         : fleetplan::dominatedStrategies(input.strategies, input.deployment.cpu.cpu != CpuChoice::None, plan.pruning);
    size_t byDominance = 0, byPeriod = 0;
    std::vector<Task> tasks;
    for (size_t s = 0; s < settings.size(); ++s)
        for (size_t i = 0; i < input.strategies.size(); ++i) {
            const bool updates = input.strategies[i].strategy.versions.size() > 1;
            if (dominated[i])
                ++byDominance;
            else if (!input.exhaustive && updates && fleetplan::periodCannotBeFresh(settings[s].roundPeriodHours, input.deployment)) {
                ++byPeriod;
                byPeriodTasks.push_back({s, i});
            }
            else
                tasks.push_back({s, i});
        }
    if (byPeriod > 0) {
        const FleetTargets& t = input.deployment.targets;
        plan.pruning.push_back(std::to_string(byPeriod) + " candidates with a round period over "
                               + fleetplan::daysText(*t.freshDays) + ": only the devices on in a release's round (about "
                               + fleetplan::percent(input.deployment.availability) + ") can run it at the round's end, short of the "
                               + fleetplan::percent(*t.freshShare) + " asked");
    }
    plan.space = settings.size() * input.strategies.size();
    plan.pruned = byDominance + byPeriod;
    return tasks;
}

/// The fleet of one setting: the base fleet (its trace read once) with the setting's link and policy.
FleetConfig configFor(const FleetConfig& base, const Deployment& deployment)
{
    FleetConfig config = base;
    for (FleetGroup& g : config.groups)
        g.link = linkOf(deployment.link);
    config.policy = deployment.policy;
    config.roundPeriodSeconds = deployment.roundPeriodHours * 3600.0;
    return config;
}

/// Waits while paused; whether the search is to stop.
bool stopRequested(RunControl& control)
{
    while (control.paused() && !control.cancelRequested())
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return control.cancelRequested();
}

/// Simulates `tasks` in order onto plan.candidates, each setting's fleet built once; stops (and
/// marks the plan cancelled) when `control` asks.
void simulateTasks(const FleetPlanInput& input, const std::vector<FleetPlanSetting>& settings, const std::vector<Task>& tasks,
                   FleetPlanObserver* observer, RunControl& control, FleetPlan& plan)
{
    const FleetConfig base = fleetConfigOf(input.deployment, input.lastRound, input.newSamplesPerRound);
    size_t built = settings.size();
    Deployment deployment;
    FleetConfig config;
    const size_t total = plan.candidates.size() + tasks.size();
    for (const Task& task : tasks) {
        if (stopRequested(control)) {
            plan.cancelled = true;
            return;
        }
        if (task.setting != built) {
            built = task.setting;
            deployment = fleetplan::withSetting(input.deployment, settings[built]);
            config = configFor(base, deployment);
        }
        const FleetPlanStrategy& s = input.strategies[task.strategy];
        FleetPlanCandidate c;
        c.strategy = task.strategy;
        c.label = fleetplan::labelOf(s);
        c.estimated = s.estimated;
        c.setting = settings[built];
        c.deployment = deployment;
        fleetplan::measure(c, config, s.strategy, simulateFleet(config, s.strategy), input.deployment.targets);
        plan.candidates.push_back(std::move(c));
        if (observer)
            observer->candidateDone(plan.candidates.size(), total, plan.candidates.back());
    }
}

} // namespace

FleetPlan planFleet(const FleetPlanInput& input, FleetPlanObserver* observer, RunControl& control)
{
    const Clock::time_point start = Clock::now();
    if (input.strategies.empty())
        throw LinkError("strategies", "expected at least one strategy to plan with, found none");
    fleetplan::validateSpace(input.space);
    FleetPlan plan;
    const std::vector<FleetPlanSetting> settings = fleetplan::settingsOf(input.space, input.deployment);
    std::vector<Task> byPeriod;
    const std::vector<Task> tasks = tasksOf(input, settings, plan, byPeriod);
    if (observer)
        observer->planStarted(plan.space, tasks.size());
    simulateTasks(input, settings, tasks, observer, control, plan);
    plan.pareto = fleetplan::paretoSet(plan.candidates);
    fleetplan::decide(plan, input);
    // The periods pruned for freshness cannot meet the targets, but when nothing does, the
    // nearest may be among them (a long period misses only freshness): simulate them after all
    // (bench/fleet-plan: the pruned search's nearest was 7 % below the grid's without this).
    if (!plan.recommended && !plan.cancelled && !byPeriod.empty()) {
        simulateTasks(input, settings, byPeriod, observer, control, plan);
        plan.pruned -= byPeriod.size();
        plan.pruning.push_back("nothing met the targets: the " + std::to_string(byPeriod.size())
                               + " candidates pruned for their period were simulated after all, for the nearest");
        plan.pareto = fleetplan::paretoSet(plan.candidates);
        fleetplan::decide(plan, input);
    }
    plan.simulated = plan.candidates.size();
    plan.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return plan;
}

} // namespace dpu
