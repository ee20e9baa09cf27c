// SPDX-License-Identifier: MIT
// The fleet's input from runs and settings: fleetStrategiesOf (versions, real bytes, full model, seeds) and Deployment (link, mix, processor, config).
#include "dpu/FleetRuns.h"
#include "dpu/DeploymentModel.h"
#include "FleetTestSupport.h"
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <fstream>
#include <cmath>

namespace {

using dpu::test::errorOf;

/// A round of `strategy`: deployed when bytes > 0 (kind "full" for FU, "delta" otherwise).
dpu::RoundRecord record(const std::string& strategy, uint64_t seed, int round, double accuracy, int64_t bytes)
{
    dpu::RoundRecord r;
    r.strategy = strategy;
    r.seed = seed;
    r.round = round;
    r.testAccuracy = accuracy;
    r.deployed = bytes > 0;
    r.bundleBytes = bytes;
    r.bundleKind = bytes == 0 ? "" : strategy == "fu" ? "full" : "delta";
    return r;
}

/// Five rounds, seeds 1 and 2: DPU deploys 2000 B deltas in rounds 1, 2, 3 and 5 (seed 2: 3000 B
/// in rounds 1 and 4), FU 4040 B full models every round, "never" deploys nothing; I = 1000,
/// 10 dense values, q8 values.
dpu::RunFolder run(bool withFu = true)
{
    dpu::RunFolder f;
    f.plan.seeds = {1, 2};
    f.plan.split.perRound = 700;
    f.plan.bundle.values = dpu::Coding::Q8;
    f.status.partialWeights = 1000;
    f.status.denseWeights = 10;
    const double acc[] = {0.60, 0.70, 0.75, 0.74, 0.80};
    const int64_t bytes[] = {2000, 2000, 2000, 0, 2000};
    // Records arrive interleaved and out of order, as a resumed run may write them.
    for (int r = 5; r >= 1; --r) {
        f.records.push_back(record("dpu", 1, r, acc[r - 1], bytes[r - 1]));
        f.records.push_back(record("dpu", 2, r, acc[r - 1] - 0.1, r == 1 || r == 4 ? 3000 : 0));
        if (withFu)
            f.records.push_back(record("fu", 1, r, acc[r - 1] + 0.02, 4040));
        f.records.push_back(record("never", 1, r, 0.1, 0));
    }
    return f;
}

} // namespace

class TestFleetRuns : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void versionsAreTheDeployedRounds()
    {
        const dpu::FleetRunInput in = dpu::fleetStrategiesOf(run(), 1);
        QCOMPARE(in.strategies.size(), size_t(2));
        QCOMPARE(in.lastRound, 5);
        QCOMPARE(in.newSamplesPerRound, int64_t(700));
        const dpu::FleetStrategy& dpu = in.strategies[0];
        QCOMPARE(QString::fromStdString(dpu.name), QStringLiteral("dpu"));
        QCOMPARE(dpu.versions.size(), size_t(4)); // round 4 failed the gate
        const int rounds[] = {1, 2, 3, 5};
        for (size_t v = 0; v < 4; ++v) {
            QCOMPARE(dpu.versions[v].round, rounds[v]);
            // The first version is what the devices were installed with: no delta.
            QCOMPARE(dpu.versions[v].deltaBytes, v == 0 ? int64_t(0) : int64_t(2000));
        }
        QCOMPARE(dpu.versions[3].testAccuracy, 0.80);
        // FU's largest full bundle is the full model for every strategy of the run.
        QCOMPARE(dpu.fullModelBytes, int64_t(4040));
        QCOMPARE(in.strategies[1].versions.size(), size_t(5));
        QCOMPARE(in.strategies[1].versions[1].deltaBytes, int64_t(4040));
        // The apply's inputs: the plan's coding, the fp32 device file.
        QVERIFY(dpu.coding == dpu::Coding::Q8);
        QCOMPARE(dpu.deviceFileBytes, int64_t(4 * 1010));
        QVERIFY(!dpu.catchUpBytes); // the chain or the full model until real catch-ups land
        QCOMPARE(in.neverDeployed.size(), size_t(1));
        QCOMPARE(QString::fromStdString(in.neverDeployed[0]), QStringLiteral("never"));
    }

    void seedsAndNames()
    {
        const dpu::FleetRunInput in = dpu::fleetStrategiesOf(run(), 2, "runA/");
        QCOMPARE(in.strategies.size(), size_t(1)); // seed 2 has DPU alone
        const dpu::FleetStrategy& s = in.strategies[0];
        QCOMPARE(QString::fromStdString(s.name), QStringLiteral("runA/dpu"));
        QCOMPARE(s.versions.size(), size_t(2));
        QCOMPARE(s.versions[1].round, 4);
        QCOMPARE(s.versions[1].deltaBytes, int64_t(3000));
        QCOMPARE(s.versions[1].testAccuracy, 0.74 - 0.1);
        QCOMPARE(errorOf([] { dpu::fleetStrategiesOf(run(), 9); }), QStringLiteral("seed: the run has no seed 9"));
    }

    void fullModelWithoutFu()
    {
        // No full bundle: the fp32 weights, 4 x (I + dense); nothing known: 0 (the caller's error).
        dpu::RunFolder f = run(false);
        QCOMPARE(dpu::fleetStrategiesOf(f, 1).strategies[0].fullModelBytes, int64_t(4040));
        f.status = {};
        const dpu::FleetStrategy s = dpu::fleetStrategiesOf(f, 1).strategies[0];
        QCOMPARE(s.fullModelBytes, int64_t(0));
        QCOMPARE(s.deviceFileBytes, int64_t(0));
    }

    /// An INT8 deployed model: its devices store one byte a partial weight, so the full model
    /// without a full bundle and the device file the apply streams are the codes' size, and
    /// with a full bundle the device file is that bundle's size (the codes and scales whole).
    void int8ModelStoresItsCodes()
    {
        dpu::RunFolder f = run(false);
        f.plan.deployed = dpu::DeployedForm::Int8;
        dpu::FleetStrategy s = dpu::fleetStrategiesOf(f, 1).strategies[0];
        QCOMPARE(s.fullModelBytes, int64_t(1000 + 4 * 10));
        QCOMPARE(s.deviceFileBytes, int64_t(1000 + 4 * 10));
        f = run(true);
        f.plan.deployed = dpu::DeployedForm::Int8;
        s = dpu::fleetStrategiesOf(f, 1).strategies[0];
        QCOMPARE(s.fullModelBytes, int64_t(4040));
        QCOMPARE(s.deviceFileBytes, int64_t(4040));
        // A sparse model's device file keeps its zeros: the fp32 weights.
        f.plan.deployed = dpu::DeployedForm::Sparse;
        QCOMPARE(dpu::fleetStrategiesOf(f, 1).strategies[0].deviceFileBytes, int64_t(4 * 1010));
    }

    void linkSettings()
    {
        dpu::DeploymentLink s;
        s.sfMix = "fuotasim";
        dpu::Link l = dpu::linkOf(s);
        QCOMPARE(l.modulation.spreadingFactor, 7); // the mix's fastest
        QCOMPARE(l.dutyCycle, 0.01);
        QVERIFY(l.delivery == dpu::LinkDelivery::Multicast);
        QCOMPARE(dpu::sfMixOf(s).size(), size_t(6));
        QCOMPARE(dpu::sfMixOf(s).front().spreadingFactor, 7);
        s.sfMix = "12:1,9:3";
        QCOMPARE(dpu::sfMixOf(s).front().spreadingFactor, 9); // sorted
        QCOMPARE(dpu::linkOf(s).modulation.spreadingFactor, 9);
        s = {};
        s.spreadingFactor = 12;
        s.dutyCycle = 0.1;
        s.frameLoss = 0.2;
        s.delivery = dpu::DeliveryChoice::Unicast;
        l = dpu::linkOf(s);
        QCOMPARE(l.modulation.spreadingFactor, 12);
        QCOMPARE(l.maxPayloadBytes, 51);
        QCOMPARE(l.dutyCycle, 0.1);
        QCOMPARE(l.frameLoss, 0.2);
        QVERIFY(l.delivery == dpu::LinkDelivery::Unicast);
        s = {};
        s.link = "nb-iot-nb1";
        s.dutyCycle = 0.5;
        QCOMPARE(dpu::linkOf(s).dutyCycle, 0.5); // outside EU868 any share
        s.link = "LoRaWAN-US915"; // keys in any case, as linkPreset() takes them
        s.dutyCycle = NAN;
        s.spreadingFactor = 10;
        QCOMPARE(dpu::linkOf(s).modulation.spreadingFactor, 10);
        QCOMPARE(dpu::linkOf(s).modulation.bandwidthHz, 500e3);
        // What the user got wrong, by field.
        s = {};
        s.dutyCycle = 0.05;
        QVERIFY(errorOf([&] { dpu::linkOf(s); }).startsWith(QStringLiteral("dutyCycle: EU868's sub-bands")));
        s = {};
        s.spreadingFactor = 6;
        QVERIFY(errorOf([&] { dpu::linkOf(s); }).contains(QStringLiteral("SF6 is not a spreading factor of LoRaWAN EU868")));
        s = {};
        s.link = "wifi";
        QVERIFY(errorOf([&] { dpu::linkOf(s); }).contains(QStringLiteral("lorawan-eu868-sf7")));
        s = {};
        s.sfMix = "7:x";
        QVERIFY(errorOf([&] { dpu::linkOf(s); }).startsWith(QStringLiteral("sfMix: ")));
        QVERIFY(errorOf([&] { dpu::slowestLinkOf(s); }).startsWith(QStringLiteral("sfMix: ")));
    }

    void slowestLinkOfAMix()
    {
        // The per-device figures of the plan form and the report: the mix's slowest SF, the
        // sub-band, loss and delivery kept; without a mix (or off LoRa) linkOf() itself.
        dpu::DeploymentLink s;
        s.sfMix = "fuotasim";
        s.dutyCycle = 0.1;
        s.frameLoss = 0.1;
        dpu::Link l = dpu::slowestLinkOf(s);
        QCOMPARE(l.modulation.spreadingFactor, 12);
        QCOMPARE(l.maxPayloadBytes, 51);
        QCOMPARE(l.dutyCycle, 0.1);
        QCOMPARE(l.frameLoss, 0.1);
        QVERIFY(l.modulation.lowDataRateOptimize);
        s.sfMix = "7:3,9:1,12:0"; // an SF without a share is no device's
        QCOMPARE(dpu::slowestLinkOf(s).modulation.spreadingFactor, 9);
        s.sfMix.clear();
        s.spreadingFactor = 8;
        QCOMPARE(dpu::slowestLinkOf(s).key, dpu::linkOf(s).key);
        s = {};
        s.link = "nb-iot-nb2";
        QCOMPARE(dpu::slowestLinkOf(s).key, std::string("nb-iot-nb2"));
        QCOMPARE(dpu::atSlowestSpreadingFactor(dpu::linkOf(s), dpu::fuotaSimSpreadingFactorMix()).key,
                 std::string("nb-iot-nb2"));
    }

    void processorAndConfig()
    {
        dpu::Deployment s;
        s.devices = 50;
        s.availability = 0.8;
        s.roundPeriodHours = 1;
        s.drainRounds = 2;
        s.seed = 5;
        s.link.sfMix = "7:1,12:1";
        s.cpu = {dpu::CpuChoice::CortexM0, 48, 1.5, 2.6, 3.3};
        const dpu::FleetConfig c = dpu::fleetConfigOf(s, 5, 700);
        QCOMPARE(c.groups.size(), size_t(1));
        const dpu::FleetGroup& g = c.groups[0];
        QCOMPARE(g.devices, 50);
        QCOMPARE(g.availability, 0.8);
        QCOMPARE(g.sfMix.size(), size_t(2));
        QCOMPARE(g.cpu.clockHz, 48e6);
        QCOMPARE(g.cpu.cyclesPerInstruction, 1.5);
        QCOMPARE(g.cpu.activeAmps, 2.6e-3);
        QCOMPARE(g.cpu.volts, 3.3);
        QCOMPARE(g.cpu.instructions[0].perFileByte, dpu::measuredCortexM(true).instructions[0].perFileByte);
        QCOMPARE(c.roundPeriodSeconds, 3600.0);
        QCOMPARE(c.drainRounds, 2);
        QCOMPARE(c.seed, uint64_t(5));
        QCOMPARE(c.lastRound, 5);
        QCOMPARE(c.newSamplesPerRound, int64_t(700));
        QCOMPARE(dpu::deviceCpuOf({}).clockHz, 0.0); // no processor: applying takes no time
        // The run's strategies on that fleet: the processor's apply is charged.
        const dpu::FleetRunInput in = dpu::fleetStrategiesOf(run(), 1);
        const dpu::FleetResult r = dpu::simulateFleet(c, in.strategies[0]);
        QCOMPARE(r.rounds.size(), size_t(5 - 1 + 2));
        QVERIFY(r.rounds[0].applyEnergyMean > 0);
        QVERIFY(r.rounds[0].applySecondsMax > 0);
        s.cpu.cpu = dpu::CpuChoice::None;
        QCOMPARE(dpu::simulateFleet(dpu::fleetConfigOf(s, 5, 700), in.strategies[0]).rounds[0].applyEnergyMean, 0.0);
    }

    void traceAndPolicyFromTheSettings()
    {
        // The window states a trace file and the server's policy; the config carries both.
        QTemporaryDir dir;
        const std::string trace = dir.path().toStdString() + "/on.csv";
        {
            std::ofstream f(trace);
            f << "device,round\n0,1\n0,2\n1,2\n";
        }
        dpu::Deployment s;
        s.devices = 2;
        s.availabilityTrace = trace;
        s.policy.catchUp = dpu::CatchUpDelivery::MulticastPerVersion;
        s.policy.order = dpu::CatchUpOrder::SmallestFirst;
        s.policy.maxStaleness = 3;
        const dpu::FleetConfig c = dpu::fleetConfigOf(s, 5, 700);
        QVERIFY(c.groups[0].trace != nullptr);
        QVERIFY(c.groups[0].trace->available(0, 1, 0));
        QVERIFY(!c.groups[0].trace->available(1, 1, 0)); // device 1 sleeps through round 1
        QVERIFY(c.groups[0].trace->available(1, 2, 0));
        QVERIFY(c.policy.catchUp == dpu::CatchUpDelivery::MulticastPerVersion);
        QVERIFY(c.policy.order == dpu::CatchUpOrder::SmallestFirst);
        QCOMPARE(c.policy.maxStaleness, 3);
        QVERIFY(dpu::fleetConfigOf(dpu::Deployment{}, 5, 700).groups[0].trace == nullptr);
        // A malformed line: the error names the file and the line.
        {
            std::ofstream f(trace);
            f << "device,round\n0,1\n0,second\n";
        }
        const QString error = errorOf([&] { dpu::fleetConfigOf(s, 5, 700); });
        QVERIFY2(error.contains(QString::fromStdString(trace + ":3")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestFleetRuns)
#include "test_fleet_runs.moc"
