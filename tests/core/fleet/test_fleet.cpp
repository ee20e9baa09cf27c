// SPDX-License-Identifier: MIT
// The fleet simulation: availability traces and their errors, spreading-factor mixes, determinism for a seed, and its accounting.
#include "dpu/Fleet.h"
#include "dpu/FleetMetrics.h"
#include "FleetTestSupport.h"
#include <QtTest/QtTest>
#include <QTemporaryDir>
#include <cmath>
#include <ctime>
#include <fstream>

namespace {

using dpu::test::errorOf;

/// Version 0 at round 1 (what the devices run), then one version per round 2..rounds, each a
/// delta of `delta` bytes, accuracy rising from 0.50 by 0.04.
dpu::FleetStrategy strategy(int rounds, int64_t delta = 10240, int64_t full = 400000)
{
    dpu::FleetStrategy s;
    s.name = "dpu";
    s.fullModelBytes = full;
    for (int r = 1; r <= rounds; ++r)
        s.versions.push_back({r, 0.50 + 0.04 * (r - 1), r == 1 ? 0 : delta});
    return s;
}

dpu::FleetConfig fleet(int devices, const dpu::Link& link, double availability = 1)
{
    dpu::FleetConfig c;
    dpu::FleetGroup g;
    g.devices = devices;
    g.link = link;
    g.availability = availability;
    c.groups.push_back(g);
    c.seed = 7;
    return c;
}

void compareResults(const dpu::FleetResult& a, const dpu::FleetResult& b)
{
    QCOMPARE(a.rounds.size(), b.rounds.size());
    for (size_t i = 0; i < a.rounds.size(); ++i) {
        const dpu::FleetRound &x = a.rounds[i], &y = b.rounds[i];
        QCOMPARE(x.versionShare, y.versionShare);
        QCOMPARE(x.fleetAccuracy, y.fleetAccuracy);
        QCOMPARE(x.airtime, y.airtime);
        QCOMPARE(x.wallTime, y.wallTime);
        QCOMPARE(x.energyMean, y.energyMean);
        QCOMPARE(x.energyMax, y.energyMax);
        QCOMPARE(x.bytesOnAir, y.bytesOnAir);
        QCOMPARE(x.sessions, y.sessions);
        QCOMPARE(x.available, y.available);
        QCOMPARE(x.completed, y.completed);
    }
    for (size_t v = 0; v < a.timeToShare.size(); ++v)
        for (int k = 0; k < 3; ++k)
            QVERIFY((std::isnan(a.timeToShare[v][k]) && std::isnan(b.timeToShare[v][k])) || a.timeToShare[v][k] == b.timeToShare[v][k]);
}

} // namespace

class TestFleet : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void csvTrace()
    {
        const auto t = dpu::AvailabilityTrace::parseCsv("device,round\nA,1\nA,3\n# comment\n\n B , 2\r\nA,1\n", "t.csv");
        QCOMPARE(t.devices(), size_t(2));
        QCOMPARE(t.deviceId(1), std::string("B"));
        QVERIFY(t.available(0, 1, 0));
        QVERIFY(!t.available(0, 2, 0));
        QVERIFY(t.available(0, 3, 0));
        QVERIFY(t.available(1, 2, 0));
        QCOMPARE(errorOf([] { dpu::AvailabilityTrace::parseCsv("A,1\nB,x\n", "t.csv"); }),
                 QStringLiteral("t.csv:2: expected 'device,round' with a round of 1 or more, found 'B,x'"));
        QVERIFY(errorOf([] { dpu::AvailabilityTrace::parseCsv("A,1\n\nA,0\n", "t.csv"); }).startsWith(QStringLiteral("t.csv:3: ")));
        QVERIFY(errorOf([] { dpu::AvailabilityTrace::parseCsv("A 1\n", "t.csv"); }).startsWith(QStringLiteral("t.csv:1: ")));
        QVERIFY(errorOf([] { dpu::AvailabilityTrace::parseCsv(",4\n", "t.csv"); }).startsWith(QStringLiteral("t.csv:1: ")));
        QCOMPARE(errorOf([] { dpu::AvailabilityTrace::parseCsv("# nothing\n", "t.csv"); }), QStringLiteral("t.csv: no 'device,round' lines"));
        // From a file: the message names the file and the line.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("avail.csv")).toStdString();
        std::ofstream(path) << "device,round\nn1,1\nn1,two\n";
        QCOMPARE(errorOf([&] { dpu::AvailabilityTrace::read(path); }),
                 QString::fromStdString(path + ":3: expected 'device,round' with a round of 1 or more, found 'n1,two'"));
        QVERIFY(errorOf([&] { dpu::AvailabilityTrace::read(path + ".missing"); }).contains(QStringLiteral("cannot read the trace")));
    }

    void fedScaleTrace()
    {
        const std::string text = R"({"7": {"duration": 300, "inactive": [50, 150], "finish_time": 200, "active": [0, 100], "model": "x"},
                                     "3": {"active": [10], "inactive": [20], "finish_time": 100}})";
        const auto t = dpu::AvailabilityTrace::parseFedScale(text, "trace.json");
        QCOMPARE(t.devices(), size_t(2));
        QCOMPARE(t.deviceId(0), std::string("7")); // the file's order
        QVERIFY(t.available(0, 1, 20));
        QVERIFY(!t.available(0, 1, 75));
        QVERIFY(t.available(0, 9, 220)); // repeats every finish_time: 220 s reads 20 s
        QVERIFY(t.available(1, 1, 15));
        QVERIFY(!t.available(1, 1, 25));
        // read() tells the formats apart by the first character.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.json")).toStdString();
        std::ofstream(path) << "\n  " << text;
        QCOMPARE(dpu::AvailabilityTrace::read(path).devices(), size_t(2));
        QVERIFY(errorOf([] { dpu::AvailabilityTrace::parseFedScale("{\n\"a\": {\n\"active\": [1,,2]}}", "f.json"); })
                    .startsWith(QStringLiteral("f.json:3: not a FedScale trace")));
        QCOMPARE(errorOf([] { dpu::AvailabilityTrace::parseFedScale(R"({"a": {"active": [1, 2], "inactive": [3], "finish_time": 9}})", "f.json"); }),
                 QStringLiteral("f.json: client 'a': 'active' has 2 times, 'inactive' 1: expected one inactive time per active one"));
        QVERIFY(errorOf([] { dpu::AvailabilityTrace::parseFedScale(R"({"a": {"active": [1], "inactive": [3]}})", "f.json"); })
                    .contains(QStringLiteral("finish_time")));
        QVERIFY(errorOf([] { dpu::AvailabilityTrace::parseFedScale("[]", "f.json"); }).startsWith(QStringLiteral("f.json: expected an object")));
    }

    void spreadingFactorMixes()
    {
        const auto fuota = dpu::fuotaSimSpreadingFactorMix();
        double total = 0;
        for (const auto& s : fuota)
            total += s.share;
        COMPARE_NEAR(total, 1.0, 1e-12);
        // 200 nodes: exact counts by the largest remainder.
        const std::vector<std::pair<int, int>> expected{{7, 90}, {8, 44}, {9, 22}, {10, 16}, {11, 16}, {12, 12}};
        QCOMPARE(dpu::spreadingFactorCounts(200, fuota), expected);
        const auto c = dpu::spreadingFactorCounts(7, {{9, 1}, {7, 1}, {8, 1}});
        QCOMPARE(c.size(), size_t(3));
        QCOMPARE(c[0].second + c[1].second + c[2].second, 7);
        QCOMPARE(c[0].first, 7);
        const auto parsed = dpu::parseSpreadingFactorMix("7:45,8:22,9:11,10:8,11:8,sf12:6");
        QCOMPARE(dpu::spreadingFactorCounts(200, parsed), expected);
        QVERIFY(errorOf([] { dpu::parseSpreadingFactorMix("7-45"); }).startsWith(QStringLiteral("sfMix: expected SF:weight")));
        QVERIFY(errorOf([] { dpu::parseSpreadingFactorMix("7:1,7:2"); }).contains(QStringLiteral("SF7 appears twice")));
        QVERIFY(errorOf([] { dpu::parseSpreadingFactorMix("7:-1"); }).contains(QStringLiteral("0 or more")));
        QVERIFY(errorOf([] { dpu::parseSpreadingFactorMix("7:1x"); }).startsWith(QStringLiteral("sfMix: ")));
    }

    void perfectFleetRunsTheLatestAfterEveryRound()
    {
        // Availability 1 and no loss: every device completes each round's multicast.
        const dpu::Link link = dpu::lorawanEu868(7, 0.01);
        dpu::FleetConfig config = fleet(100, link);
        const dpu::FleetStrategy s = strategy(10);
        const dpu::FleetResult r = dpu::simulateFleet(config, s);
        QCOMPARE(r.rounds.size(), size_t(9)); // rounds 2..10
        const dpu::LinkRound one = dpu::linkRound(link, 10240, 1);
        QCOMPARE(one.frames, int64_t(47 + 3));
        // Without loss every device decodes with the last frame and leaves as it ends.
        const double frame = dpu::frameAirtime(link, 222);
        const double decoded = one.frames * frame / 0.01 - (1 / 0.01 - 1) * frame;
        for (const dpu::FleetRound& round : r.rounds) {
            QCOMPARE(round.latestVersion, round.round - 1);
            QCOMPARE(round.versionShare[static_cast<size_t>(round.latestVersion)], 1.0);
            QCOMPARE(round.completed, 100);
            QCOMPARE(round.fleetAccuracy, round.serverAccuracy);
            QCOMPARE(round.sessions, 1);
            QCOMPARE(round.bundleBytes, int64_t(10240));
            QCOMPARE(round.downloadBytes, int64_t(10240) * 100);
            QCOMPARE(round.bytesOnAir, one.frames * 235);
            COMPARE_NEAR(round.airtime, one.frames * dpu::frameAirtime(link, 222), 1e-9);
            COMPARE_NEAR(round.wallTime, round.airtime / 0.01, 1e-6);
            // Class C, leaving with the last frame: the session less that frame's off-time.
            COMPARE_NEAR(round.energyMean, decoded * link.rxWatts, 1e-9);
            QCOMPARE(round.energyMax, round.energyMean);
            COMPARE_NEAR(round.startSeconds, (round.round - 2) * 86400.0, 1e-9);
        }
        for (size_t v = 1; v < r.timeToShare.size(); ++v)
            for (int k = 0; k < 3; ++k)
                COMPARE_NEAR(r.timeToShare[v][k], decoded, 1e-6);
        const dpu::FleetMetrics m = dpu::fleetMetrics(config, s, r);
        COMPARE_NEAR(m.energyPerYear, m.energyPerUpdateRound * 365.25, 1e-9); // every round updates
        COMPARE_NEAR(m.meanFleetAccuracy, m.meanServerAccuracy, 1e-12);
        COMPARE_NEAR(m.bytesPerUpdateRound, 10240.0, 1e-9);
    }

    void deterministicForASeed()
    {
        dpu::Link link = dpu::lorawanEu868(7, 0.01);
        link.frameLoss = 0.15;
        dpu::FleetConfig config = fleet(500, link, 0.7);
        config.groups[0].sfMix = dpu::fuotaSimSpreadingFactorMix();
        config.policy.maxStaleness = 4;
        const dpu::FleetStrategy s = strategy(12);
        const dpu::FleetResult a = dpu::simulateFleet(config, s);
        compareResults(a, dpu::simulateFleet(config, s));
        config.seed = 8;
        const dpu::FleetResult b = dpu::simulateFleet(config, s);
        bool differs = false;
        for (size_t i = 0; i < a.rounds.size(); ++i)
            differs = differs || a.rounds[i].available != b.rounds[i].available || a.rounds[i].energyMean != b.rounds[i].energyMean;
        QVERIFY(differs);
        // Every strategy meets the same fleet: availability depends on seed, device and round only.
        config.seed = 7;
        const dpu::FleetResult fu = dpu::simulateFleet(config, strategy(12, 400000));
        for (size_t i = 0; i < a.rounds.size(); ++i)
            QCOMPARE(fu.rounds[i].available, a.rounds[i].available);
    }

    void accountingUnderLossAndAvailability()
    {
        dpu::Link link = dpu::lorawanEu868(9, 0.1);
        link.frameLoss = 0.2;
        dpu::FleetConfig config = fleet(300, link, 0.8);
        config.policy.repairSessions = 0;
        const dpu::FleetResult r = dpu::simulateFleet(config, strategy(8));
        const double frame = dpu::frameAirtime(link, link.maxPayloadBytes);
        for (const dpu::FleetRound& round : r.rounds) {
            double total = 0;
            for (double share : round.versionShare)
                total += share;
            COMPARE_NEAR(total, 1.0, 1e-12);
            // One SF: the bytes on air are the frames the airtime took.
            COMPARE_NEAR(round.airtime, static_cast<double>(round.bytesOnAir) / dpu::frameBytes(link) * frame, 1e-6);
            QVERIFY(round.available > 200 && round.available < 280);
            QVERIFY(round.served <= round.available);
            QVERIFY(round.energyMean <= round.energyMax);
            QVERIFY(round.completed <= 300);
            double accuracy = 0;
            for (size_t v = 0; v < round.versionShare.size(); ++v)
                accuracy += round.versionShare[v] * (0.50 + 0.04 * static_cast<double>(v));
            COMPARE_NEAR(round.fleetAccuracy, accuracy, 1e-12);
            QVERIFY(round.fleetAccuracy <= round.serverAccuracy + 1e-12);
        }
        // Repairs bring more devices to the latest version, in more sessions.
        config.policy.repairSessions = 3;
        const dpu::FleetResult repaired = dpu::simulateFleet(config, strategy(8));
        QVERIFY(repaired.rounds[0].completed > r.rounds[0].completed);
        QVERIFY(repaired.rounds[0].sessions > r.rounds[0].sessions);
        QVERIFY(dpu::fleetMetrics(config, strategy(8), repaired).meanFleetAccuracy
                > dpu::fleetMetrics(config, strategy(8), r).meanFleetAccuracy);
    }

    void catchUpAndFullModelByTrace()
    {
        // A on rounds 1-3, B on 1 and 3, C on 3 only (simulation rounds; the run's rounds 2-4).
        auto trace = std::make_shared<dpu::AvailabilityTrace>(
            dpu::AvailabilityTrace::parseCsv("A,1\nB,1\nC,3\nA,2\nA,3\nB,3\n", "t.csv"));
        dpu::FleetConfig config = fleet(3, dpu::lorawanEu868(7, 0.1));
        config.groups[0].trace = trace;
        config.policy.maxStaleness = 2;
        dpu::FleetStrategy s = strategy(4);
        s.versions[2].deltaBytes = 5000;
        s.versions[3].deltaBytes = 7000;
        const dpu::FleetResult r = dpu::simulateFleet(config, s);
        QCOMPARE(r.rounds.size(), size_t(3));
        QCOMPARE(r.rounds[0].bundleBytes, int64_t(10240)); // one multicast to A and B
        QCOMPARE(r.rounds[0].served, 2);
        QCOMPARE(r.rounds[1].bundleBytes, int64_t(5000)); // A alone
        QCOMPARE(r.rounds[1].available, 1);
        // Round 3: A's delta (multicast), B's catch-up from version 1 (5000 + 7000, unicast), C three
        // versions behind the latest: the full model.
        QCOMPARE(r.rounds[2].bundleBytes, int64_t(7000 + 12000 + 400000));
        QCOMPARE(r.rounds[2].sessions, 3);
        QCOMPARE(r.rounds[2].fullModels, 1);
        QCOMPARE(r.rounds[2].versionShare[3], 1.0);
        // With the catch-up multicast per version, B and C would still get separate sessions.
        config.policy.catchUp = dpu::CatchUpDelivery::MulticastPerVersion;
        QCOMPARE(dpu::simulateFleet(config, s).rounds[2].sessions, 3);
        // A callback's catch-up bytes replace the chain's sum.
        s.catchUpBytes = [](int from, int to) { return int64_t(1000) * (to - from); };
        config.policy.maxStaleness = 0;
        QCOMPARE(dpu::simulateFleet(config, s).rounds[2].bundleBytes, int64_t(1000 + 2000 + 3000));
        s.catchUpBytes = [](int, int) { return int64_t(-1); };
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, s); }).startsWith(QStringLiteral("catchUpBytes: ")));
    }

    void multicastAtTheSlowestSpreadingFactor()
    {
        dpu::FleetConfig config = fleet(10, dpu::lorawanEu868(7, 0.1));
        config.groups[0].sfMix = {{7, 1}, {12, 1}};
        const dpu::FleetStrategy s = strategy(2);
        const dpu::FleetRound once = dpu::simulateFleet(config, s).rounds[0];
        const dpu::Link sf12 = dpu::lorawanEu868(12, 0.1);
        const dpu::LinkRound at12 = dpu::linkRound(sf12, 10240, 1);
        QCOMPARE(once.sessions, 1);
        COMPARE_NEAR(once.airtime, at12.airtime, 1e-9);
        config.policy.multicastPerSpreadingFactor = true;
        const dpu::FleetRound perSf = dpu::simulateFleet(config, s).rounds[0];
        QCOMPARE(perSf.sessions, 2);
        COMPARE_NEAR(perSf.airtime, at12.airtime + dpu::linkRound(dpu::lorawanEu868(7, 0.1), 10240, 1).airtime, 1e-9);
        COMPARE_NEAR(perSf.wallTime, perSf.airtime / 0.1, 1e-6); // one gateway, one after the other
    }

    void unicastSharesTheGatewayAndDefers()
    {
        // 10 KB unicast at SF12 on a 1 % sub-band: about 18 h per device; a day holds two.
        dpu::Link link = dpu::lorawanEu868(12, 0.01);
        link.delivery = dpu::LinkDelivery::Unicast;
        dpu::FleetConfig config = fleet(5, link);
        const dpu::FleetRound round = dpu::simulateFleet(config, strategy(2)).rounds[0];
        const dpu::LinkRound one = dpu::linkRound(link, 10240, 1);
        QCOMPARE(round.served, 2);
        QCOMPARE(round.deferred, 3);
        COMPARE_NEAR(round.wallTime, 2 * one.wallTime, 1e-6);
        QCOMPARE(round.bundleBytes, int64_t(2 * 10240));
        // Cellular devices download in parallel: everyone, in one device's session time.
        dpu::FleetConfig cell = fleet(50, dpu::nbIot(1));
        const dpu::FleetRound c = dpu::simulateFleet(cell, strategy(2)).rounds[0];
        QCOMPARE(c.served, 50);
        QCOMPARE(c.completed, 50);
        COMPARE_NEAR(c.wallTime, dpu::linkRound(dpu::nbIot(1), 10240, 1).deviceSeconds, 1e-9);
        COMPARE_NEAR(c.energyMean, dpu::linkRound(dpu::nbIot(1), 10240, 1).energyPerDevice, 1e-9);
    }

    void uploadsOfThePapersAppendix()
    {
        dpu::FleetConfig config = fleet(100, dpu::lorawanEu868(7, 0.01));
        config.groups[0].uplink = std::make_shared<dpu::Link>(dpu::lorawanEu868Uplink(7));
        config.sampleBytes = 784; // a 28x28 byte image
        config.newSamplesPerRound = 1000;
        const dpu::FleetResult r = dpu::simulateFleet(config, strategy(4));
        const dpu::LinkRound up = dpu::linkRound(dpu::lorawanEu868Uplink(7), 7840, 1);
        for (const dpu::FleetRound& round : r.rounds) {
            COMPARE_NEAR(round.uploadBytesPerNode, 7840.0, 1e-9);
            COMPARE_NEAR(round.uploadAirtimePerNode, up.airtime, 1e-12);
            COMPARE_NEAR(round.uploadEnergyPerNode, up.energyPerDevice, 1e-12);
        }
        const dpu::FleetMetrics m = dpu::fleetMetrics(config, strategy(4), r);
        COMPARE_NEAR(m.uploadBytesPerRound, 7840.0, 1e-9);
        COMPARE_NEAR(m.uploadEnergyPerYear, up.energyPerDevice * 365.25, 1e-9);
    }

    void drainRoundsAndTimeToShare()
    {
        dpu::Link link = dpu::lorawanEu868(8, 0.01);
        link.frameLoss = 0.1;
        dpu::FleetConfig config = fleet(1000, link, 0.6);
        config.policy.catchUp = dpu::CatchUpDelivery::MulticastPerVersion;
        config.drainRounds = 10;
        const dpu::FleetResult r = dpu::simulateFleet(config, strategy(5));
        QCOMPARE(r.rounds.size(), size_t(14));
        // The last version reaches 50 % before 90 % before 99 %, each after its release.
        const auto& t = r.latestTimeToShare;
        QVERIFY(t[0] > 0 && t[0] <= t[1] && t[1] <= t[2]);
        QVERIFY(!std::isnan(t[2]));
        QCOMPARE(r.rounds.back().versionShare[4], 1.0);
        QCOMPARE(r.rounds.back().latestVersion, 4);
        // Without drain rounds, 99 % of the fleet cannot run it a round after its release.
        config.drainRounds = 0;
        QVERIFY(std::isnan(dpu::simulateFleet(config, strategy(5)).latestTimeToShare[2]));
        // Unicast catch-ups over LoRa cannot keep up (about 25 sessions of 10 KB a day at SF8 on
        // 1 %); served longest-behind first, the devices left on version 0 after round 2 are
        // served before any later one; smallest bundles first, they starve from the round the
        // server has smaller catch-ups to send.
        config.policy.catchUp = dpu::CatchUpDelivery::Unicast;
        config.drainRounds = 3;
        const dpu::FleetResult queue = dpu::simulateFleet(config, strategy(5));
        QVERIFY(queue.rounds.back().versionShare[0] < queue.rounds[0].versionShare[0]);
        config.policy.order = dpu::CatchUpOrder::SmallestFirst;
        const dpu::FleetResult smallest = dpu::simulateFleet(config, strategy(5));
        QCOMPARE(smallest.rounds.back().versionShare[0], smallest.rounds[1].versionShare[0]);
        QVERIFY(smallest.rounds.back().versionShare[4] > queue.rounds.back().versionShare[4]);
    }

    void tenThousandDevicesInUnderASecond()
    {
        // The issue's bound, in CPU seconds (the machine may be busy): 10,000 devices x 100 rounds
        // (bench_fleet: about 0.04 s in a release build).
        dpu::Link link = dpu::lorawanEu868(7, 0.01);
        link.frameLoss = 0.1;
        dpu::FleetConfig config = fleet(10000, link, 0.8);
        config.groups[0].sfMix = dpu::fuotaSimSpreadingFactorMix();
        config.policy.catchUp = dpu::CatchUpDelivery::MulticastPerVersion;
        config.policy.maxStaleness = 10;
        const std::clock_t start = std::clock();
        const dpu::FleetResult r = dpu::simulateFleet(config, strategy(101));
        const double cpu = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
        QCOMPARE(r.rounds.size(), size_t(100));
        QVERIFY2(cpu < 1.0, qPrintable(QString::number(cpu)));
    }

    void applyingTakesTheProcessorsTimeAndEnergy()
    {
        // The table is the fit of QEMU's counts: the q8c chain of tests/data/mcu, round 2 (mcu_apply
        // prints it), took 463,723,840 instructions on the M4 and 799,907,000 on the M0.
        const int64_t file = 2679416;
        COMPARE_NEAR(dpu::applyInstructions(dpu::measuredCortexM(false), dpu::Coding::Q8c, file, 20159), 463723840.0, 463723840.0 * 0.01);
        COMPARE_NEAR(dpu::applyInstructions(dpu::measuredCortexM(true), dpu::Coding::Q8c, file, 20159), 799907000.0, 799907000.0 * 0.01);
        for (int c = 0; c < 6; ++c) // the M0 (no FPU, no 32x32->64 multiply) needs more for every coding
            QVERIFY(dpu::applyInstructions(dpu::measuredCortexM(true), dpu::Coding(c), file, 10240)
                    > dpu::applyInstructions(dpu::measuredCortexM(false), dpu::Coding(c), file, 10240));

        // A perfect fleet: every device completes each multicast, then applies the bundle.
        const dpu::Link link = dpu::lorawanEu868(7, 0.01);
        const dpu::FleetConfig plain = fleet(100, link);
        dpu::FleetConfig config = plain;
        dpu::DeviceCpu& cpu = config.groups[0].cpu;
        cpu = dpu::measuredCortexM(false);
        cpu.clockHz = 64e6;
        cpu.activeAmps = 0.003;
        cpu.volts = 3;
        dpu::FleetStrategy s = strategy(5);
        s.coding = dpu::Coding::Q8c;
        s.deviceFileBytes = file;
        const dpu::FleetResult without = dpu::simulateFleet(plain, s);
        const dpu::FleetResult with = dpu::simulateFleet(config, s);
        const double seconds = dpu::applyInstructions(cpu, dpu::Coding::Q8c, file, 10240) / 64e6;
        QVERIFY(seconds > 5 && seconds < 10); // about 7 s for 2.7 MB at 64 MHz, one instruction a cycle
        COMPARE_NEAR(dpu::applySeconds(cpu, dpu::Coding::Q8c, file, 10240), seconds, 1e-12);
        for (size_t i = 0; i < with.rounds.size(); ++i) {
            const dpu::FleetRound &a = with.rounds[i], &b = without.rounds[i];
            COMPARE_NEAR(a.applySecondsMax, seconds, 1e-9);
            COMPARE_NEAR(a.applyEnergyMean, seconds * 0.003 * 3, 1e-12);
            COMPARE_NEAR(a.energyMean, b.energyMean + a.applyEnergyMean, 1e-9);
            QCOMPARE(a.wallTime, b.wallTime); // the transmitter does not wait for the devices
            QCOMPARE(b.applySecondsMax, 0.0);
        }
        for (size_t v = 1; v < with.timeToShare.size(); ++v) // a device runs a version once applied
            for (int k = 0; k < 3; ++k)
                COMPARE_NEAR(with.timeToShare[v][k], without.timeToShare[v][k] + seconds, 1e-6);
        cpu.cyclesPerInstruction = 2; // twice the cycles: twice the time
        COMPARE_NEAR(dpu::simulateFleet(config, s).rounds[0].applySecondsMax, 2 * seconds, 1e-9);
    }

    void badInput()
    {
        dpu::FleetConfig config = fleet(10, dpu::lorawanEu868(7));
        config.groups[0].sfMix = {{6, 1}, {7, 1}};
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); })
                    .startsWith(QStringLiteral("groups[0]: spreadingFactor: SF6 is not a spreading factor of LoRaWAN EU868")));
        config.groups[0].sfMix.clear();
        config.groups[0].link.frameLoss = -0.01;
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); }).startsWith(QStringLiteral("groups[0]: frameLoss: ")));
        config.groups[0].link.frameLoss = 0;
        config.groups[0].availability = 1.5;
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); }).startsWith(QStringLiteral("groups[0].availability: ")));
        config.groups[0].availability = 1;
        dpu::FleetStrategy s = strategy(3);
        s.versions[2].round = 2;
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, s); }).startsWith(QStringLiteral("strategy 'dpu'.versions[2].round: ")));
        config.policy.maxStaleness = 3;
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3, 100, 0)); }).contains(QStringLiteral("fullModelBytes")));
        config.policy.maxStaleness = 0;
        config.roundPeriodSeconds = 0;
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); }).startsWith(QStringLiteral("roundPeriodSeconds: ")));
        config.roundPeriodSeconds = 86400;
        config.groups[0].cpu.clockHz = -1;
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); }).startsWith(QStringLiteral("groups[0]: cpu.clockHz: ")));
        config.groups[0].cpu.clockHz = 64e6; // a processor, but no device file to apply to
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); }).contains(QStringLiteral("deviceFileBytes")));
        config.groups.clear();
        QVERIFY(errorOf([&] { dpu::simulateFleet(config, strategy(3)); }).startsWith(QStringLiteral("groups: ")));
    }
};

QTEST_GUILESS_MAIN(TestFleet)
#include "test_fleet.moc"
