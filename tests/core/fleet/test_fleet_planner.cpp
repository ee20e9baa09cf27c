// SPDX-License-Identifier: MIT
// The fleet planner (dpu/FleetPlanner.h) on small fleets with known answers: targets met, targets nobody meets, the Pareto set, pruning, cancel, determinism, cells to run.
#include "dpu/FleetPlanner.h"
#include <QtTest/QtTest>
#include <cmath>

namespace {

/// Six rounds: version 0 installed in round 1, one release a round after, each `delta` bytes;
/// accuracies from `first`, rising.
dpu::FleetPlanStrategy strategy(const std::string& name, double first, int64_t delta, bool estimated = false)
{
    dpu::FleetPlanStrategy s;
    s.strategy.name = name;
    s.strategy.fullModelBytes = 400000;
    s.strategy.initialDeploymentBytes = 400000;
    const double gains[] = {0, 0.06, 0.10, 0.13, 0.15, 0.16};
    for (int r = 1; r <= 6; ++r)
        s.strategy.versions.push_back({r, first + gains[r - 1], r == 1 ? 0 : delta});
    s.run = "run-" + name;
    s.strategyName = "dpu";
    s.coding = "q4";
    s.k = 0.01;
    s.estimated = estimated;
    return s;
}

/// 60 devices on LoRaWAN EU868 at SF7, 5 % loss, on 90 % of the rounds, a round a day.
dpu::Deployment deployment()
{
    dpu::Deployment d;
    d.link.link = "lorawan-eu868";
    d.link.spreadingFactor = 7;
    d.link.frameLoss = 0.05;
    d.devices = 60;
    d.availability = 0.9;
    d.seed = 7;
    return d;
}

/// Periods of 24 and 72 h, multicast or unicast, the 1 % and 10 % sub-bands, both catch-ups: 16 settings.
dpu::FleetPlanSpace smallSpace()
{
    dpu::FleetPlanSpace s;
    s.roundPeriodHours = {24, 72};
    s.deliveries = {dpu::FleetDelivery::MulticastAtSlowest, dpu::FleetDelivery::Unicast};
    s.dutyCycles = {0.01, 0.1};
    s.catchUps = {dpu::CatchUpDelivery::Unicast, dpu::CatchUpDelivery::MulticastPerVersion};
    return s;
}

/// "small" (3 KB deltas), "huge" (3 MB deltas, 3 points more accurate), and "worse", which
/// "small" dominates (a point less accurate, larger deltas).
dpu::FleetPlanInput input()
{
    dpu::FleetPlanInput in;
    in.strategies = {strategy("small", 0.60, 3000), strategy("huge", 0.63, 3000000), strategy("worse", 0.59, 3500)};
    in.deployment = deployment();
    in.space = smallSpace();
    in.lastRound = 6;
    return in;
}

dpu::FleetPlan plan(const dpu::FleetPlanInput& in)
{
    dpu::RunControl control;
    return dpu::planFleet(in, nullptr, control);
}

bool dominates(const dpu::FleetPlanCandidate& b, const dpu::FleetPlanCandidate& a)
{
    return b.fleetAccuracy >= a.fleetAccuracy && b.batteryPerYear <= a.batteryPerYear && b.freshShare >= a.freshShare
           && (b.fleetAccuracy > a.fleetAccuracy || b.batteryPerYear < a.batteryPerYear || b.freshShare > a.freshShare);
}

/// Cancels the search through its token after `n` candidates.
struct CancelAfter : dpu::FleetPlanObserver {
    explicit CancelAfter(size_t n) : limit(n) {}
    size_t limit;
    size_t started = 0;
    dpu::RunControl control;
    void planStarted(size_t, size_t toSimulate) override { started = toSimulate; }
    void candidateDone(size_t done, size_t, const dpu::FleetPlanCandidate&) override
    {
        if (done >= limit)
            control.requestCancel();
    }
};

} // namespace

class TestFleetPlanner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Freshness and battery targets that "small" meets and "huge" does not (its multicasts cost
    /// 0.4 to 11 batteries a year, its unicasts leave most of the fleet behind):
    /// the recommendation meets them and is the most accurate fleet of those that do.
    void targetsMetGiveARecommendationThatMeetsThem()
    {
        dpu::FleetPlanInput in = input();
        in.deployment.targets.freshShare = 0.8;
        in.deployment.targets.freshDays = 3;
        in.deployment.targets.batteryPerYear = 0.3;
        const dpu::FleetPlan p = plan(in);
        QVERIFY(p.recommended.has_value());
        QVERIFY(!p.nearest.has_value());
        const dpu::FleetPlanCandidate& r = p.candidates[*p.recommended];
        QVERIFY2(r.meetsTargets(), qPrintable(QString::fromStdString(p.why)));
        QVERIFY(r.freshShare >= 0.8);
        QVERIFY(r.batteryPerYear <= 1.0);
        QCOMPARE(r.label, std::string("small (q4, k 0.01)"));
        for (const dpu::FleetPlanCandidate& c : p.candidates) {
            if (c.meetsTargets())
                QVERIFY(c.fleetAccuracy <= r.fleetAccuracy);
            if (c.label.rfind("huge", 0) == 0)
                QVERIFY(!c.meetsTargets());
        }
        QVERIFY2(p.why.rfind("Recommended: small (q4, k 0.01), with a round every ", 0) == 0, qPrintable(QString::fromStdString(p.why)));
        QVERIFY2(p.why.find("It meets every target: ") != std::string::npos, p.why.c_str());
        QCOMPARE(r.deployment.roundPeriodHours, r.setting.roundPeriodHours);
    }

    /// A battery target no candidate meets: the nearest is named with the battery as the target
    /// that binds, its margin is its own figure against the target, and moves are offered.
    void impossibleTargetsNameTheNearestAndTheBindingTarget()
    {
        dpu::FleetPlanInput in = input();
        in.deployment.targets.batteryPerYear = 0.0001;
        const dpu::FleetPlan p = plan(in);
        QVERIFY(!p.recommended.has_value());
        QVERIFY(p.nearest.has_value());
        QCOMPARE(p.binding, std::string("fleet.targets.battery_per_year"));
        const dpu::FleetPlanCandidate& n = p.candidates[*p.nearest];
        QCOMPARE(n.misses.size(), size_t(1));
        const dpu::FleetTargetMiss& m = n.misses.front();
        QCOMPARE(m.target, p.binding);
        QCOMPARE(m.asked, 0.0001);
        QCOMPARE(m.achieved, n.batteryPerYear);
        QVERIFY(std::abs(m.shortfall - (n.batteryPerYear - 0.0001) / 0.0001) < 1e-9 * m.shortfall);
        // The nearest is the least short of them all: the least battery a year.
        for (const dpu::FleetPlanCandidate& c : p.candidates)
            QVERIFY(c.batteryPerYear >= n.batteryPerYear);
        QVERIFY2(p.why.rfind("No candidate meets every target. The nearest is ", 0) == 0, p.why.c_str());
        QVERIFY(!p.moves.empty());
        QVERIFY2(p.moves.back().rfind("Relaxing the target to fleet.targets.battery_per_year ", 0) == 0, p.moves.back().c_str());
    }

    /// A freshness target the fleet cannot reach: the binding target is the freshness, short by
    /// the target less the best share any candidate holds.
    void unreachableFreshnessBinds()
    {
        dpu::FleetPlanInput in = input();
        in.deployment.availability = 0.5;
        in.deployment.targets.freshShare = 0.99;
        in.deployment.targets.accuracyGapPoints = 0.5;
        const dpu::FleetPlan p = plan(in);
        QVERIFY(!p.recommended.has_value());
        QCOMPARE(p.binding, std::string("fleet.targets.fresh_share"));
        double best = 0;
        for (const dpu::FleetPlanCandidate& c : p.candidates)
            best = std::max(best, c.freshShare);
        const dpu::FleetPlanCandidate& n = p.candidates[*p.nearest];
        QCOMPARE(n.freshShare, best);
        QVERIFY(std::abs(n.misses.front().shortfall - (0.99 - best) / 0.99) < 1e-12);
        QVERIFY2(n.misses.front().words.find("points short of the 99.0 % asked") != std::string::npos, n.misses.front().words.c_str());
    }

    /// No member of the Pareto set is dominated, and every measured candidate outside it is
    /// dominated by one (or copies one).
    void paretoSetHasNoDominatedMember()
    {
        const dpu::FleetPlan p = plan(input());
        QVERIFY(!p.pareto.empty());
        for (size_t a : p.pareto)
            for (const dpu::FleetPlanCandidate& c : p.candidates)
                QVERIFY(!dominates(c, p.candidates[a]));
        for (size_t i = 0; i < p.candidates.size(); ++i) {
            if (std::find(p.pareto.begin(), p.pareto.end(), i) != p.pareto.end())
                continue;
            bool covered = false;
            for (size_t a : p.pareto) {
                const dpu::FleetPlanCandidate& x = p.candidates[a];
                const dpu::FleetPlanCandidate& y = p.candidates[i];
                covered = covered || dominates(x, y)
                          || (x.fleetAccuracy == y.fleetAccuracy && x.batteryPerYear == y.batteryPerYear && x.freshShare == y.freshShare);
            }
            QVERIFY(covered);
        }
        for (size_t k = 1; k < p.pareto.size(); ++k)
            QVERIFY(p.candidates[p.pareto[k - 1]].fleetAccuracy >= p.candidates[p.pareto[k]].fleetAccuracy);
    }

    /// The dominated strategy and the periods longer than the freshness target's days (when only
    /// half the fleet is on in a round) are counted, said and never simulated.
    void pruningIsCounted()
    {
        dpu::FleetPlanInput in = input();
        in.deployment.devices = 100;
        in.deployment.availability = 0.5;
        in.deployment.targets.freshShare = 0.9;
        in.deployment.targets.freshDays = 2;
        const dpu::FleetPlan p = plan(in);
        QCOMPARE(p.space, size_t(48));
        // "worse" is dominated on all 16 settings; the 72 h period cannot hold the freshness of the
        // two others (8 each), but nothing meets the targets here, so those 16 are simulated after
        // all, for the nearest.
        QVERIFY(!p.recommended);
        QCOMPARE(p.pruned, size_t(16));
        QCOMPARE(p.simulated, size_t(32));
        QCOMPARE(p.candidates.size(), p.simulated);
        for (const dpu::FleetPlanCandidate& c : p.candidates)
            QVERIFY(c.label.rfind("worse", 0) != 0);
        QCOMPARE(p.pruning.size(), size_t(3));
        QVERIFY2(p.pruning[0].rfind("worse (q4, k 0.01): dominated by small (q4, k 0.01)", 0) == 0, p.pruning[0].c_str());
        QVERIFY2(p.pruning[1].rfind("16 candidates with a round period over 2 days", 0) == 0, p.pruning[1].c_str());
        QVERIFY2(p.pruning[2].rfind("nothing met the targets: the 16 candidates", 0) == 0, p.pruning[2].c_str());
        QVERIFY(p.seconds > 0);
        // The exhaustive grid simulates all 48 and names the same nearest: the pruning lost nothing.
        in.exhaustive = true;
        const dpu::FleetPlan grid = plan(in);
        QCOMPARE(grid.simulated, grid.space);
        QCOMPARE(grid.pruned, size_t(0));
        QVERIFY(!grid.recommended && grid.nearest && p.nearest);
        QCOMPARE(grid.candidates[*grid.nearest].label, p.candidates[*p.nearest].label);
        QCOMPARE(grid.candidates[*grid.nearest].setting.roundPeriodHours, p.candidates[*p.nearest].setting.roundPeriodHours);
        QCOMPARE(grid.binding, p.binding);
        // With a freshness the 24 h period can hold, the period pruning stands and the grid
        // recommends what the search recommends.
        in.exhaustive = false;
        in.deployment.availability = 0.95;
        in.deployment.targets.freshShare = 0.8;
        const dpu::FleetPlan met = plan(in);
        in.exhaustive = true;
        const dpu::FleetPlan metGrid = plan(in);
        QVERIFY(met.recommended && metGrid.recommended);
        QVERIFY(met.simulated < metGrid.simulated);
        QCOMPARE(met.candidates[*met.recommended].label, metGrid.candidates[*metGrid.recommended].label);
        QCOMPARE(met.candidates[*met.recommended].fleetAccuracy, metGrid.candidates[*metGrid.recommended].fleetAccuracy);
    }

    /// RunControl stops the search between candidates, keeping what was simulated.
    void cancelStopsTheSearch()
    {
        CancelAfter observer(3);
        const dpu::FleetPlan p = dpu::planFleet(input(), &observer, observer.control);
        QVERIFY(p.cancelled);
        QCOMPARE(observer.started, size_t(32));
        QCOMPARE(p.simulated, size_t(3));
        QCOMPARE(p.candidates.size(), size_t(3));
    }

    /// The same input gives the same plan, candidate by candidate and word for word.
    void deterministic()
    {
        dpu::FleetPlanInput in = input();
        in.deployment.targets.freshShare = 0.8;
        in.deployment.targets.freshDays = 3;
        in.deployment.targets.batteryPerYear = 1.0;
        const dpu::FleetPlan a = plan(in);
        const dpu::FleetPlan b = plan(in);
        QCOMPARE(a.candidates.size(), b.candidates.size());
        for (size_t i = 0; i < a.candidates.size(); ++i) {
            QCOMPARE(a.candidates[i].label, b.candidates[i].label);
            QCOMPARE(a.candidates[i].fleetAccuracy, b.candidates[i].fleetAccuracy);
            QCOMPARE(a.candidates[i].batteryPerYear, b.candidates[i].batteryPerYear);
            QCOMPARE(a.candidates[i].freshShare, b.candidates[i].freshShare);
            QCOMPARE(a.candidates[i].freshDays, b.candidates[i].freshDays);
            QCOMPARE(a.candidates[i].airtimePerDaySeconds, b.candidates[i].airtimePerDaySeconds);
        }
        QCOMPARE(a.recommended, b.recommended);
        QCOMPARE(a.pareto, b.pareto);
        QCOMPARE(a.why, b.why);
    }

    /// An estimated cell that would meet the targets where no run does is named as a cell to
    /// run, never recommended, and stays out of the Pareto set.
    void estimatedCellsAreCellsToRunNotRecommendations()
    {
        dpu::FleetPlanInput in = input();
        dpu::FleetPlanStrategy cell = strategy("small", 0.60, 3000, true);
        cell.strategy.name = "cell";
        cell.cellKeys = {{"k", "0.001"}};
        cell.estimateNote = "bytes from the cost model";
        in.strategies = {strategy("big", 0.60, 300000), cell};
        in.deployment.targets.batteryPerYear = 0.1; // 300 KB deltas cost 0.28 batteries a year and more
        const dpu::FleetPlan p = plan(in);
        QVERIFY(!p.recommended.has_value());
        QVERIFY(p.nearest.has_value());
        QVERIFY(!p.candidates[*p.nearest].estimated);
        QCOMPARE(p.cellsToRun.size(), size_t(1));
        const dpu::FleetPlanCell& c = p.cellsToRun.front();
        QVERIFY(p.candidates[c.candidate].estimated);
        QVERIFY(p.candidates[c.candidate].meetsTargets());
        QCOMPARE(c.run, std::string("run-small"));
        QCOMPARE(c.keys, (std::vector<std::pair<std::string, std::string>>{{"k", "0.001"}}));
        QVERIFY2(c.why.rfind("Run run-small again with k = 0.001 (dpu): estimated", 0) == 0, c.why.c_str());
        for (size_t i : p.pareto)
            QVERIFY(!p.candidates[i].estimated);
    }

    /// The default space: what the link allows, the deployment's own values among them.
    void defaultSpaceFollowsTheLink()
    {
        dpu::Deployment d = deployment();
        d.link.spreadingFactor = 0;
        d.link.sfMix = "fuotasim";
        d.roundPeriodHours = 12;
        const dpu::FleetPlanSpace s = dpu::defaultFleetPlanSpace(d);
        QCOMPARE(s.roundPeriodHours, (std::vector<double>{12, 24, 48, 72, 168}));
        QCOMPARE(s.deliveries.size(), size_t(3));
        QCOMPARE(s.dutyCycles, (std::vector<double>{0.01, 0.1}));
        QCOMPARE(s.catchUps.size(), size_t(2));
        QCOMPARE(s.repairSessions, (std::vector<int>{0, 1, 2}));
        dpu::Deployment nb;
        nb.link.link = "nb-iot-nb2";
        const dpu::FleetPlanSpace n = dpu::defaultFleetPlanSpace(nb);
        QCOMPARE(n.deliveries, (std::vector<dpu::FleetDelivery>{dpu::FleetDelivery::Unicast}));
        QVERIFY(n.catchUps.empty() && n.dutyCycles.empty() && n.repairSessions.empty());
        dpu::FleetPlanSpace bad;
        bad.dutyCycles = {0};
        dpu::FleetPlanInput in = input();
        in.space = bad;
        dpu::RunControl control;
        QVERIFY_THROWS_EXCEPTION(dpu::LinkError, dpu::planFleet(in, nullptr, control));
    }
};

QTEST_GUILESS_MAIN(TestFleetPlanner)
#include "test_fleet_planner.moc"
