// SPDX-License-Identifier: MIT
// The fleet planner's cells to run as a listed-cells sweep: each its run's plan with the cell's strategy and keys, refusals named.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/FleetPlanSweep.h"
#include <QtTest/QtTest>

namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

dpu::RunFolder run(const std::string& name, const dpu::Plan& plan)
{
    dpu::RunFolder r;
    r.dir = "/runs/" + name;
    r.plan = plan;
    return r;
}

dpu::FleetPlanStrategy strategy(const std::string& run, const std::string& name, bool estimated, KeyValues keys = {})
{
    dpu::FleetPlanStrategy s;
    s.run = run;
    s.strategyName = name;
    s.estimated = estimated;
    s.cellKeys = std::move(keys);
    return s;
}

/// A plan of three candidates (strategies 0, 1, 2) whose cells to run are candidates `cells`.
dpu::FleetPlan planNaming(const std::vector<dpu::FleetPlanStrategy>& strategies, const std::vector<size_t>& cells)
{
    dpu::FleetPlan p;
    for (size_t i = 0; i < strategies.size(); ++i) {
        dpu::FleetPlanCandidate c;
        c.strategy = i;
        c.estimated = strategies[i].estimated;
        p.candidates.push_back(c);
    }
    for (size_t i : cells)
        p.cellsToRun.push_back({i, strategies[i].run, strategies[i].cellKeys, "why"});
    return p;
}

} // namespace

class TestFleetPlanSweep : public QObject {
    Q_OBJECT
    std::vector<dpu::RunFolder> runs_{run("run-a", dpu::test::sweepPlan(0.01, 2, {"dpu", "fu", "rpu"})),
                                      run("run-b", dpu::test::sweepPlan(0.02, 3, {"dpu", "fu"}, "q8"))};
    std::vector<dpu::FleetPlanStrategy> strategies_{strategy("run-a", "dpu", false),
                                                    strategy("run-a", "rpu", true, {{"k", "0.005"}}),
                                                    strategy("run-b", "dpu", true, {{"k", "0.01"}, {"bundle.values", "\"ternary\""}})};

private Q_SLOTS:
    /// One cell per cell to run, best first: its run's plan with its strategy alone and its keys.
    void eachCellIsItsRunsPlanChanged()
    {
        const dpu::Sweep s = dpu::fleetPlanSweep(planNaming(strategies_, {2, 1}), strategies_, runs_, "plan.sweep.json");
        QVERIFY(s.listed);
        QCOMPARE(s.source, std::string("plan.sweep.json"));
        QCOMPARE(s.cells.size(), size_t(2));
        dpu::Plan first = runs_[1].plan;
        first.strategies = {"dpu"};
        first.k = 0.01;
        first.bundle.values = dpu::Coding::Ternary;
        QCOMPARE(dpu::planToJson(s.cells[0].plan), dpu::planToJson(first));
        dpu::Plan second = runs_[0].plan;
        second.strategies = {"rpu"};
        second.k = 0.005;
        QCOMPARE(dpu::planToJson(s.cells[1].plan), dpu::planToJson(second));
        // The first cell is the base: its entry holds its own keys; the second its own keys first
        // (what the planner changes of its run), then what else differs from the base.
        QCOMPARE(dpu::planToJson(dpu::parsePlan(s.baseJson)), dpu::planToJson(first));
        QCOMPARE(s.cells[0].axisValues, (KeyValues{{"k", "0.01"}, {"bundle.values", "\"ternary\""}}));
        QCOMPARE(s.cells[1].axisValues.front(), (std::pair<std::string, std::string>{"k", "0.005"}));
        std::map<std::string, std::string> differs(s.cells[1].axisValues.begin(), s.cells[1].axisValues.end());
        QCOMPARE(differs.at("k"), std::string("0.005"));
        QCOMPARE(differs.at("bundle.values"), std::string("\"fp32\""));
        QCOMPARE(differs.at("strategies"), std::string("[\"rpu\"]"));
        QCOMPARE(differs.at("split.rounds"), std::string("2"));
        QCOMPARE(differs.count("lambda"), size_t(0)); // the same in both
        // The file reads back to the same cells.
        const dpu::Sweep again = dpu::parseSweep(s.toJson(), "again.json");
        QCOMPARE(again.cells.size(), size_t(2));
        for (size_t i = 0; i < 2; ++i)
            QCOMPARE(again.cells[i].id, s.cells[i].id);
    }

    /// A run named by its fields names its cell by the cell's; the sweep keeps each cell's name.
    void anAutomaticRunNameFollowsTheCell()
    {
        std::vector<dpu::RunFolder> runs = runs_;
        runs[0].plan.name = dpu::automaticPlanName(runs[0].plan);
        const dpu::Sweep s = dpu::fleetPlanSweep(planNaming(strategies_, {1, 2}), strategies_, runs, "s");
        dpu::Plan expected = runs[0].plan;
        expected.k = 0.005;
        QCOMPARE(s.cells[0].plan.name, dpu::automaticPlanName(expected));
        QCOMPARE(s.cells[1].plan.name, runs_[1].plan.name);
    }

    void refusalsNameWhatIsWrong()
    {
        const std::string none = dpu::test::thrownMessage<dpu::Error>([&] { dpu::fleetPlanSweep(planNaming(strategies_, {}), strategies_, runs_, "out.json"); });
        QVERIFY2(none.find("out.json: the fleet plan names no cell to run") == 0, none.c_str());
        const std::vector<dpu::RunFolder> onlyA{runs_[0]};
        const std::string missing = dpu::test::thrownMessage<dpu::Error>([&] { dpu::fleetPlanSweep(planNaming(strategies_, {1, 2}), strategies_, onlyA, "out.json"); });
        QVERIFY2(missing.find("out.json: cell to run 2: its run 'run-b' is not among the runs given (run-a)") == 0, missing.c_str());
        const std::string other = dpu::test::thrownMessage<dpu::Error>([&] {
            dpu::fleetPlanSweep(planNaming(strategies_, {2}), {strategies_[0]}, runs_, "out.json");
        });
        QVERIFY2(other.find("out.json: cell to run 1: its candidate or strategy is not among the plan's") == 0, other.c_str());
        std::vector<dpu::FleetPlanStrategy> bad = strategies_;
        bad[1].cellKeys = {{"k", "2"}};
        const std::string refused = dpu::test::thrownMessage<dpu::Error>([&] { dpu::fleetPlanSweep(planNaming(bad, {1}), bad, runs_, "out.json"); });
        QVERIFY2(refused.find("out.json: cell to run 1 (run run-a): its keys do not make a valid plan: k: expected") == 0, refused.c_str());
    }
};

QTEST_APPLESS_MAIN(TestFleetPlanSweep)
#include "test_fleet_plan_sweep.moc"
