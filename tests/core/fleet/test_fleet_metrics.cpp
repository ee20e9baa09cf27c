// SPDX-License-Identifier: MIT
// The figures every view reports (dpu/FleetMetrics.h, dpu/UpdateBytes.h): round 1's deployment and the drain rounds never enter a per-update-round or per-year figure.
#include "dpu/FleetMetrics.h"
#include "dpu/FleetRuns.h"
#include "dpu/UpdateBytes.h"
#include "FleetTestSupport.h"
#include <QtTest/QtTest>
#include <cmath>

namespace {

/// An INT8-like run on the fleet: round 1 installed a 235,500 B model, rounds 2, 3 and 5
/// released 14,000 B deltas, round 4 deployed nothing.
dpu::FleetStrategy int8Like()
{
    dpu::FleetStrategy s;
    s.name = "dpu";
    s.initialDeploymentBytes = 235500;
    s.fullModelBytes = 235500;
    s.versions = {{1, 0.60, 0}, {2, 0.70, 14000}, {3, 0.75, 14000}, {5, 0.80, 14000}};
    return s;
}

dpu::FleetConfig fleet(double availability, double loss, int drain)
{
    dpu::FleetConfig c;
    dpu::FleetGroup g;
    g.devices = 100;
    g.link = dpu::lorawanEu868(7, 0.01);
    g.link.frameLoss = loss;
    g.availability = availability;
    c.groups.push_back(g);
    c.lastRound = 5;
    c.drainRounds = drain;
    c.roundPeriodSeconds = 12 * 3600.0;
    c.seed = 3;
    return c;
}

dpu::RoundRecord record(int round, uint64_t seed, bool deployed, int64_t bytes, double analyticBits = 0)
{
    dpu::RoundRecord r;
    r.strategy = "dpu";
    r.seed = seed;
    r.round = round;
    r.deployed = deployed;
    r.bundleBytes = deployed ? bytes : 0;
    r.analyticBits = deployed ? analyticBits : 0;
    r.bundleKind = !deployed ? "" : round == 1 ? "full" : "delta";
    r.testAccuracy = 0.5 + 0.05 * round;
    return r;
}

} // namespace

class TestFleetMetrics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// A perfect fleet, by hand: every release is one multicast of 14,000 B that every device
    /// completes at the same energy E, round 4 costs nothing, the drain rounds nothing.
    void perUpdateRoundIsOverTheReleasesByHand()
    {
        const dpu::FleetConfig config = fleet(1, 0, 3);
        const dpu::FleetStrategy s = int8Like();
        const dpu::FleetResult r = dpu::simulateFleet(config, s);
        QCOMPARE(r.rounds.size(), size_t(7)); // rounds 2..5 of the run, 6..8 to drain
        QCOMPARE(r.runRounds, 4);
        const double e = r.rounds[0].energyMean;
        QVERIFY(e > 0);
        QCOMPARE(r.rounds[1].energyMean, e);
        QCOMPARE(r.rounds[2].energyMean, 0.0); // round 4 released nothing
        QCOMPARE(r.rounds[3].energyMean, e);
        const dpu::FleetMetrics m = dpu::fleetMetrics(config, s, r);
        QCOMPARE(m.initialDeploymentBytes, int64_t(235500));
        QCOMPARE(m.updateRounds, 3);
        QCOMPARE(m.runRounds, 4);
        COMPARE_NEAR(m.bytesPerUpdateRound, 14000.0, 1e-9); // not (235,500 + 3 x 14,000) / 4
        COMPARE_NEAR(m.downloadBytesPerDevice, 3 * 14000.0, 1e-9); // each device heard each release once
        COMPARE_NEAR(m.energyPerUpdateRound, e, 1e-12);      // not 3E/7 over the drain rounds
        COMPARE_NEAR(m.airtimePerUpdateRound, r.rounds[0].airtime, 1e-9);
        // A year at one round every 12 h: 730.5 rounds at the run's mean, 3E over 4 rounds.
        COMPARE_NEAR(m.roundsPerYear, 730.5, 1e-9);
        COMPARE_NEAR(m.energyPerYear, 3 * e / 4 * 730.5, 1e-9);
        COMPARE_NEAR(m.batteryPerYear, m.energyPerYear / dpu::batteryJoules(config.groups[0].link), 1e-15);
        COMPARE_NEAR(m.meanServerAccuracy, (0.70 + 0.75 + 0.75 + 0.80) / 4, 1e-12);
        COMPARE_NEAR(m.meanFleetAccuracy, m.meanServerAccuracy, 1e-12);
        QCOMPARE(m.catchUpRounds, 3);
        QCOMPARE(m.catchUpEnergy, 0.0);
        QCOMPARE(m.catchUpBytes, 0.0);
        QCOMPARE(dpu::cadenceText(config.roundPeriodSeconds), std::string("12 h"));
        QCOMPARE(dpu::cadenceText(86400), std::string("24 h"));
        QCOMPARE(dpu::cadenceText(7 * 86400), std::string("7 d"));
        QCOMPARE(dpu::cadenceText(1800), std::string("30 min"));
    }

    /// Rounds to drain add the catch-up after the last release and change nothing else: the
    /// run's rounds meet the same fleet (its draws depend on seed, device and round only).
    void drainRoundsNeverDiluteAFigure()
    {
        const dpu::FleetStrategy s = int8Like();
        const dpu::FleetConfig none = fleet(0.8, 0.1, 0), ten = fleet(0.8, 0.1, 10);
        const dpu::FleetMetrics a = dpu::fleetMetrics(none, s, dpu::simulateFleet(none, s));
        const dpu::FleetMetrics b = dpu::fleetMetrics(ten, s, dpu::simulateFleet(ten, s));
        QCOMPARE(b.energyPerUpdateRound, a.energyPerUpdateRound);
        QCOMPARE(b.bytesPerUpdateRound, a.bytesPerUpdateRound);
        QCOMPARE(b.airtimePerUpdateRound, a.airtimePerUpdateRound);
        QCOMPARE(b.energyPerYear, a.energyPerYear);
        QCOMPARE(b.batteryPerYear, a.batteryPerYear);
        QCOMPARE(b.meanFleetAccuracy, a.meanFleetAccuracy);
        QCOMPARE(a.catchUpRounds, 0);
        QCOMPARE(b.catchUpRounds, 10);
        QVERIFY(b.catchUpEnergy > 0); // devices that slept or lost frames catch up there
        QVERIFY(b.catchUpBytes > 0);
        // Catch-ups inside the run count: the lossy fleet spends more per update round than the
        // same fleet without loss (devices that are off spend nothing, and a device leaves a
        // session once decoded: at equal availability). The bytes per update round are the update
        // bundle's, whatever the fleet; what a device listened to is the fleet's.
        const dpu::FleetConfig lossless = fleet(0.8, 0, 0);
        QVERIFY(a.energyPerUpdateRound > dpu::fleetMetrics(lossless, s, dpu::simulateFleet(lossless, s)).energyPerUpdateRound);
        QCOMPARE(a.bytesPerUpdateRound, 14000.0);
        QVERIFY(a.downloadBytesPerDevice > 0 && a.downloadBytesPerDevice != 3 * 14000.0);
    }

    void noUpdateRoundNoPerRoundFigure()
    {
        dpu::FleetStrategy s = int8Like();
        s.versions.resize(1);
        const dpu::FleetConfig config = fleet(1, 0, 2);
        const dpu::FleetMetrics m = dpu::fleetMetrics(config, s, dpu::simulateFleet(config, s));
        QCOMPARE(m.updateRounds, 0);
        QVERIFY(std::isnan(m.bytesPerUpdateRound) && std::isnan(m.energyPerUpdateRound) && std::isnan(m.airtimePerUpdateRound));
        QCOMPARE(m.energyPerYear, 0.0);
        QCOMPARE(m.initialDeploymentBytes, int64_t(235500));
    }

    /// The records' side, as the frontier, the Budget tab and the report's tables count it: two
    /// seeds, each a full first round and 14,000 B deltas after it.
    void updateBytesLeaveTheInitialDeploymentOut()
    {
        const std::vector<dpu::RoundRecord> seed1{record(1, 1, true, 235500), record(2, 1, true, 14000), record(3, 1, true, 14000),
                                                  record(4, 1, false, 0), record(5, 1, true, 14000)};
        const std::vector<dpu::RoundRecord> seed2{record(3, 2, true, 13000), record(1, 2, true, 230000), record(2, 2, false, 0)};
        dpu::UpdateBytes bytes;
        std::vector<const dpu::RoundRecord*> one, two;
        for (const auto& r : seed1)
            one.push_back(&r);
        for (const auto& r : seed2)
            two.push_back(&r); // out of order: the round decides which is first
        bytes.addUnit(one);
        bytes.addUnit(two);
        QCOMPARE(bytes.units(), 2);
        QCOMPARE(bytes.updateRounds(), 4);
        QCOMPARE(bytes.initialDeploymentBytes(), (235500 + 230000) / 2.0);
        QCOMPARE(bytes.bytesPerUpdateRound(), (3 * 14000 + 13000) / 4.0);
        QCOMPARE(bytes.maxBytesPerUpdateRound(), 14000.0);
        QCOMPARE(bytes.totalBytesPerUnit(), (235500 + 3 * 14000 + 230000 + 13000) / 2.0);
        QVERIFY(!bytes.analytic());
        // A round deployed without a measured bundle counts its analytic bytes, and says so.
        dpu::UpdateBytes old;
        const dpu::RoundRecord a = record(1, 1, true, 0, 8000), b = record(2, 1, true, 0, 1600);
        old.addUnit({&a, &b});
        QCOMPARE(old.initialDeploymentBytes(), 1000.0);
        QCOMPARE(old.bytesPerUpdateRound(), 200.0);
        QVERIFY(old.analytic());
        QVERIFY(std::isnan(dpu::UpdateBytes().bytesPerUpdateRound()));

        // The fleet reads the same split from a run: round 1's bundle is the initial deployment.
        dpu::RunFolder run;
        run.plan.seeds = {1};
        run.records = seed1;
        const dpu::FleetRunInput in = dpu::fleetStrategiesOf(run, 1);
        QCOMPARE(in.strategies.size(), size_t(1));
        QCOMPARE(in.strategies[0].initialDeploymentBytes, int64_t(235500));
        QCOMPARE(in.strategies[0].versions.size(), size_t(4));
        QCOMPARE(in.strategies[0].versions[0].deltaBytes, int64_t(0));
        QCOMPARE(in.strategies[0].versions[3].deltaBytes, int64_t(14000));
    }
};

QTEST_GUILESS_MAIN(TestFleetMetrics)
#include "test_fleet_metrics.moc"
