// SPDX-License-Identifier: MIT
// Issue 41 item 5 in the link model: devices leave a session once decoded, Class B waits for ping slots and hears beacons, devices' losses differ.
#include "dpu/Fleet.h"
#include "dpu/LinkModel.h"
#include "link/Binomial.h"
#include "link/ClassBTiming.h"
#include "link/LinkSession.h"
#include "link/SessionReception.h"
#include "FleetTestSupport.h"
#include <QtTest/QtTest>
#include <cmath>
#include <map>
#include <random>

namespace {

using dpu::test::errorOf;

/// The mean start-to-start spacing of frames sent every `spacing` s at the earliest, each at a
/// group's ping slot, by walking a calendar of beacon periods with drawn offsets (the
/// specification's slots, written here apart from link/ClassBTiming).
double calendarSpacing(double period, double spacing, int frames, uint64_t seed)
{
    std::mt19937_64 random(seed);
    const int periodSlots = static_cast<int>(std::lround(period / 0.03));
    const int slots = 4096 / periodSlots;
    std::map<int64_t, int> offsets;
    const auto slot = [&](int64_t beacon, int i) {
        auto [it, added] = offsets.try_emplace(beacon, 0);
        if (added)
            it->second = static_cast<int>(random() % static_cast<uint64_t>(periodSlots));
        return beacon * 128.0 + 2.12 + (it->second + i * periodSlots) * 0.03;
    };
    double t = 0, first = 0, last = 0;
    for (int f = 0; f < frames; ++f) {
        for (auto beacon = static_cast<int64_t>(t / 128);; ++beacon) {
            const double start = slot(beacon, 0);
            const double i = t <= start ? 0 : std::ceil((t - start) / period - 1e-9);
            if (i < slots) {
                last = slot(beacon, static_cast<int>(i));
                break;
            }
        }
        if (f == 0)
            first = last;
        t = last + spacing;
    }
    return (last - first) / (frames - 1);
}

/// The frame a device decodes with: P(the need-th success at frame k) = C(k-1, need-1) s^need
/// (1-s)^(k-need), by direct summation in long double (small sessions only). Returns the
/// expected seconds it listens, leaving at the end of that frame (frame k ends at
/// (k - 1) spacing + T), or at the session's end (frames x spacing) when it never decodes.
double expectedListening(int need, int frames, double loss, double spacing, double frameSeconds)
{
    double seconds = 0, decoded = 0;
    for (int k = need; k <= frames; ++k) {
        long double c = 1;
        for (int i = 0; i < need - 1; ++i)
            c = c * (k - 1 - i) / (i + 1);
        const double p = static_cast<double>(c * std::pow(1.0L - loss, need) * std::pow(static_cast<long double>(loss), k - need));
        seconds += p * ((k - 1) * spacing + frameSeconds);
        decoded += p;
    }
    return seconds + (1 - decoded) * frames * spacing;
}

} // namespace

class TestLinkClasses : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void devicesLeaveOnceDecoded()
    {
        // 10 KB at SF12 on the 10 % sub-band, 10 % loss, Class C.
        dpu::Link link = dpu::lorawanEu868(12, 0.1);
        link.frameLoss = 0.1;
        const dpu::LinkRound leave = dpu::linkRound(link, 10240, 1);
        link.leaveWhenDecoded = false;
        const dpu::LinkRound stay = dpu::linkRound(link, 10240, 1);
        // The old model: the whole session; the session itself (frames, wall time) is the same.
        QCOMPARE(leave.frames, stay.frames);
        COMPARE_NEAR(leave.wallTime, stay.wallTime, 1e-9);
        COMPARE_NEAR(stay.energyPerDevice, stay.wallTime * link.rxWatts, 1e-9);
        // Leaving: the device listens until the end of the frame it decodes with,
        // delay + (K - 1) spacing + T, K = need + failures (negative binomial), else to the end.
        const auto need = static_cast<int>(leave.fragments + 3);
        const double spacing = leave.frameSeconds / 0.1;
        QVERIFY(leave.listenSeconds < stay.listenSeconds);
        COMPARE_NEAR(leave.listenSeconds, expectedListening(need, static_cast<int>(leave.frames), 0.1, spacing, leave.frameSeconds), 1e-6);
        COMPARE_NEAR(leave.energyPerDevice, leave.listenSeconds * link.rxWatts, 1e-9);
        // A few percent less than the whole session: the redundancy the others still need.
        QVERIFY(leave.energyPerDevice < 0.97 * stay.energyPerDevice && leave.energyPerDevice > 0.85 * stay.energyPerDevice);
        COMPARE_NEAR(leave.completionShare, leave.deviceProbability, 1e-12);
        // A retransmitting link has nothing to leave: the same figures either way.
        dpu::Link nb = dpu::nbIot(1);
        const double before = dpu::linkRound(nb, 10240, 1).energyPerDevice;
        nb.leaveWhenDecoded = false;
        QCOMPARE(dpu::linkRound(nb, 10240, 1).energyPerDevice, before);
    }

    void leavingInTheFleetSimulation()
    {
        // One release to 200 devices at SF12: the devices decode at different frames, so they
        // complete (and stop spending) before the session's end, unless they stay to it.
        dpu::FleetConfig config;
        dpu::FleetGroup group;
        group.devices = 200;
        group.link = dpu::lorawanEu868(12, 0.1);
        group.link.frameLoss = 0.1;
        config.groups.push_back(group);
        config.policy.repairSessions = 0;
        dpu::FleetStrategy s;
        s.name = "dpu";
        s.versions = {{0, 0.5, 0}, {1, 0.6, 10240}};
        const dpu::FleetResult leave = dpu::simulateFleet(config, s);
        config.groups[0].link.leaveWhenDecoded = false;
        const dpu::FleetResult stay = dpu::simulateFleet(config, s);
        const dpu::FleetRound &l = leave.rounds.front(), &w = stay.rounds.front();
        QCOMPARE(l.completed, w.completed); // the same draws decide who decodes
        QVERIFY(l.completed >= 195);
        QVERIFY(l.energyMean < w.energyMean && l.energyMax <= w.energyMax);
        QVERIFY(l.receptions < w.receptions);
        QVERIFY(leave.timeToShare[1][1] < stay.timeToShare[1][1]);
        COMPARE_NEAR(stay.timeToShare[1][1], w.wallTime, 1e-6); // staying: everyone at the end
        // The simulation's mean agrees with linkRound()'s expectation.
        const dpu::LinkRound r = dpu::linkRound(group.link, 10240, 1);
        COMPARE_NEAR(l.energyMean, r.energyPerDevice, 0.01 * r.energyPerDevice);
    }

    void classBSpacingAgainstACalendar_data()
    {
        QTest::addColumn<int>("periodicity");
        QTest::addColumn<double>("spacing");
        for (int p : {0, 2, 4, 5, 7})
            for (double g : {3.7, 27.9, 100.0, 279.3}) // SF7 / SF12 frames at 10 % and 1 %
                QTest::addRow("p=%d, %.1f s", p, g) << p << g;
    }
    void classBSpacingAgainstACalendar()
    {
        QFETCH(int, periodicity);
        QFETCH(double, spacing);
        const double period = 0.96 * std::ldexp(1.0, periodicity);
        const dpu::link::ClassBTiming t = dpu::link::classBTiming(period, spacing);
        const double walked = calendarSpacing(period, spacing, 20000, 7);
        COMPARE_NEAR(t.frameSpacing, walked, 0.01 * walked);
        QVERIFY(t.frameSpacing >= spacing); // never faster than the duty cycle
        QCOMPARE(t.slotsPerBeacon, 128 >> periodicity);
        COMPARE_NEAR(t.slotsPerSecond, (128 >> periodicity) / 128.0, 1e-12);
        // A session starting at a random phase waits about half a ping period (plus the guard's share).
        QVERIFY(t.firstFrameDelay > 0.4 * period && t.firstFrameDelay < 0.5 * period + 3);
    }

    void classBLinks()
    {
        const dpu::Link c = dpu::lorawanEu868(12, 0.1);
        const dpu::Link b = dpu::withLoRaDeviceClass(c, dpu::LoRaDeviceClass::B, 4);
        QCOMPARE(b.listening, dpu::LinkListening::PingSlots);
        COMPARE_NEAR(b.pingSlotPeriodSeconds, 15.36, 1e-12);
        QCOMPARE(dpu::pingPeriodicityOf(b), 4);
        // The EU868 beacon: SF9/125 kHz, 17 B, 10 preamble symbols, no header: 152.58 ms.
        COMPARE_NEAR(b.beaconSeconds, 0.152576, 1e-6);
        // US915's: SF12/500 kHz, 23 B.
        const dpu::Link us = dpu::withLoRaDeviceClass(dpu::lorawanUs915Downlink(8), dpu::LoRaDeviceClass::B);
        QVERIFY(us.beaconSeconds > 0.3 && us.beaconSeconds < 0.4);
        QCOMPARE(dpu::withLoRaDeviceClass(b, dpu::LoRaDeviceClass::C).listening, dpu::LinkListening::WholeSession);
        QVERIFY(errorOf([] { dpu::withLoRaDeviceClass(dpu::nbIot(1), dpu::LoRaDeviceClass::B); }).startsWith(QStringLiteral("deviceClass: ")));
        QVERIFY(errorOf([&] { dpu::withLoRaDeviceClass(c, dpu::LoRaDeviceClass::B, 8); }).startsWith(QStringLiteral("pingPeriodicity: ")));
        dpu::Link bad = b;
        bad.pingSlotPeriodSeconds = 200;
        QVERIFY(errorOf([&] { dpu::validateLink(bad); }).startsWith(QStringLiteral("pingSlotPeriodSeconds: ")));
    }

    void classBSessionAndEnergy()
    {
        dpu::Link link = dpu::withLoRaDeviceClass(dpu::lorawanEu868(12, 0.1), dpu::LoRaDeviceClass::B, 4);
        link.leaveWhenDecoded = false;
        const dpu::LinkRound r = dpu::linkRound(link, 10240, 1);
        const dpu::link::ClassBTiming t = dpu::link::classBTiming(15.36, r.frameSeconds / 0.1);
        // The session: the wait for the first slot, then a frame every expected spacing.
        COMPARE_NEAR(r.wallTime, t.firstFrameDelay + r.frames * t.frameSpacing, 1e-6);
        QVERIFY(r.wallTime > r.airtime / 0.1 * 1.05); // slower than the duty cycle alone
        // Energy: the frames, a 30 ms window at every slot no frame covered (a 2.8 s frame covers
        // one slot of 15.36 s), a beacon every 128 s.
        const double slots = r.wallTime * 8 / 128.0;
        const double radio = r.airtime + (slots - r.frames) * 0.03 + r.wallTime / 128.0 * link.beaconSeconds;
        COMPARE_NEAR(r.energyPerDevice, radio * link.rxWatts, 1e-9);
        // Class B spends a fraction of Class C's energy on the same session.
        dpu::Link c = dpu::withLoRaDeviceClass(link, dpu::LoRaDeviceClass::C);
        QVERIFY(r.energyPerDevice < 0.2 * dpu::linkRound(c, 10240, 1).energyPerDevice);
        // A frame longer than the ping period covers the slots it spans: at 0.96 s, three.
        dpu::Link fast = dpu::withLoRaDeviceClass(dpu::lorawanEu868(12, 0.1), dpu::LoRaDeviceClass::B, 0);
        fast.leaveWhenDecoded = false;
        const dpu::LinkRound f = dpu::linkRound(fast, 10240, 1);
        const double fastSlots = f.wallTime * 128 / 128.0;
        COMPARE_NEAR(f.energyPerDevice,
                     (f.airtime + (fastSlots - 3.0 * f.frames) * 0.03 + f.wallTime / 128.0 * fast.beaconSeconds) * fast.rxWatts, 1e-9);
    }

    void lossesDifferBetweenDevices()
    {
        dpu::Link link = dpu::lorawanEu868(12, 0.1);
        link.frameLoss = 0.1;
        link.frameLossSpread = 0.05;
        const std::vector<double> losses = dpu::link::deviceLosses(link);
        QCOMPARE(losses.size(), size_t(dpu::link::kLossClasses));
        double mean = 0;
        for (double l : losses)
            mean += l / static_cast<double>(losses.size());
        COMPARE_NEAR(mean, 0.1, 1e-12);
        COMPARE_NEAR(losses.front(), 0.05 + 0.05 / 32, 1e-12);
        COMPARE_NEAR(losses.back(), 0.15 - 0.05 / 32, 1e-12);
        // Planned for the mean loss (the same frames), the lossier devices are left behind.
        const dpu::LinkRound spread = dpu::linkRound(link, 10240, 1);
        link.frameLossSpread = 0;
        const dpu::LinkRound even = dpu::linkRound(link, 10240, 1);
        QCOMPARE(spread.frames, even.frames);
        QCOMPARE(spread.deviceProbability, even.deviceProbability);
        QVERIFY(even.completionShare >= 0.99);
        QVERIFY(spread.completionShare > 0.85 && spread.completionShare < 0.95);
        // By class: the mean of each class's completion.
        double share = 0;
        for (double l : losses)
            share += dpu::link::binomialAtLeast(spread.frames, 1 - l, spread.fragments + 3) / static_cast<double>(losses.size());
        COMPARE_NEAR(spread.completionShare, share, 1e-9);
        // Ranges: the spread stays within [0, loss] and below 1 - loss.
        link.frameLossSpread = 0.2;
        QVERIFY(errorOf([&] { dpu::validateLink(link); }).startsWith(QStringLiteral("frameLossSpread: ")));
        link.frameLossSpread = -0.01;
        QVERIFY(errorOf([&] { dpu::validateLink(link); }).startsWith(QStringLiteral("frameLossSpread: ")));
    }

    void theFleetShowsWhomTheMeanLeavesBehind()
    {
        dpu::FleetConfig config;
        dpu::FleetGroup group;
        group.devices = 1000;
        group.link = dpu::lorawanEu868(12, 0.1);
        group.link.frameLoss = 0.1;
        group.link.frameLossSpread = 0.05;
        group.sfMix = dpu::fuotaSimSpreadingFactorMix();
        config.groups.push_back(group);
        config.policy.repairSessions = 0;
        dpu::FleetStrategy s;
        s.name = "dpu";
        s.versions = {{0, 0.5, 0}, {1, 0.6, 10240}};
        const dpu::FleetResult r = dpu::simulateFleet(config, s);
        const double expected = dpu::linkRound(group.link, 10240, 1).completionShare;
        COMPARE_NEAR(r.rounds[0].completed / 1000.0, expected, 0.03);
        // Without the spread the same session reaches 99 %.
        config.groups[0].link.frameLossSpread = 0;
        QVERIFY(dpu::simulateFleet(config, s).rounds[0].completed >= 980);
        // Loss classes are even over any run of devices.
        std::vector<int> count(32, 0);
        for (int d = 0; d < 320; ++d)
            ++count[static_cast<size_t>(dpu::link::lossClassOf(5, d, 32))];
        for (int c : count)
            QVERIFY(c >= 8 && c <= 12);
        QCOMPARE(dpu::link::lossClassOf(5, 17, 1), 0);
    }
};

QTEST_GUILESS_MAIN(TestLinkClasses)
#include "test_link_classes.moc"
