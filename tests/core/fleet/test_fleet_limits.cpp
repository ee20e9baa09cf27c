// SPDX-License-Identifier: MIT
// What the fleet accepts from a hostile caller (issue 45): SF-mix weights, trace files that are no files or too large, numbers out of range, and every limit of the simulation.
#include "dpu/Fleet.h"
#include "dpu/DeploymentModel.h"
#include "FleetTestSupport.h"
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <future>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using dpu::test::errorOf;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Versions at rounds 1..rounds, 10 KB deltas, a 400 KB full model.
dpu::FleetStrategy strategy(int rounds, int64_t delta = 10240)
{
    dpu::FleetStrategy s;
    s.name = "dpu";
    s.fullModelBytes = 400000;
    for (int r = 1; r <= rounds; ++r)
        s.versions.push_back({r, 0.5, r == 1 ? 0 : delta});
    return s;
}

dpu::FleetConfig fleet(int devices, const dpu::Link& link = dpu::lorawanEu868(7, 0.01))
{
    dpu::FleetConfig c;
    dpu::FleetGroup g;
    g.devices = devices;
    g.link = link;
    c.groups.push_back(g);
    return c;
}

/// The error simulateFleet() gives for the config after `change`.
QString refusal(const std::function<void(dpu::FleetConfig&, dpu::FleetStrategy&)>& change)
{
    dpu::FleetConfig c = fleet(10);
    dpu::FleetStrategy s = strategy(3);
    change(c, s);
    return errorOf([&] { dpu::simulateFleet(c, s); });
}

/// Fails unless `error` starts with `prefix`, printing the error.
#define VERIFY_STARTS(error, prefix)                                                                                   \
    do {                                                                                                               \
        const QString e_ = (error);                                                                                    \
        QVERIFY2(e_.startsWith(prefix), qPrintable(e_));                                                               \
    } while (0)

/// AvailabilityTrace::read(path)'s error, run on another thread: a read that blocks (a FIFO
/// opened for reading waits for a writer) fails the test after 10 s instead of hanging it; the
/// FIFO is then opened for writing and closed, which lets the blocked read end.
QString readErrorWithin10s(const std::string& path)
{
    auto result = std::async(std::launch::async, [path] { return errorOf([&] { dpu::AvailabilityTrace::read(path); }); });
    if (result.wait_for(std::chrono::seconds(10)) == std::future_status::ready)
        return result.get();
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
        ::close(fd);
    result.wait();
    return QStringLiteral("(blocked for 10 s)");
}

} // namespace

class TestFleetLimits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sfMixWeightsThatOverflowAreRefused()
    {
        // dpu-cli fleet --sf-mix 7:1e308,8:1e308 crashed: the sum was infinite, the shares NaN.
        QCOMPARE(errorOf([] { dpu::parseSpreadingFactorMix("7:1e308,8:1e308"); }),
                 QStringLiteral("sfMix: weight of SF7 must be 0 or more, at most 1000000000, found 1e308"));
        QCOMPARE(errorOf([] { dpu::parseSpreadingFactorMix("7:45,8:1e999"); }),
                 QStringLiteral("sfMix: weight of SF8 must be 0 or more, at most 1000000000, found 1e999"));
        for (const char* bad : {"7:nan", "7:inf", "7:-inf", "7:1000000001", "7:-1"})
            VERIFY_STARTS(errorOf([&] { dpu::parseSpreadingFactorMix(bad); }), QStringLiteral("sfMix: weight of SF7 must be 0 or more"));
        VERIFY_STARTS(errorOf([] { dpu::parseSpreadingFactorMix("99999999999:1"); }), QStringLiteral("sfMix: expected SF:weight"));
        QCOMPARE(dpu::parseSpreadingFactorMix("7:1000000000,8:1000000000").size(), size_t(2)); // the bound itself

        // The settings the CLI and the window share refuse it before anything is simulated.
        dpu::Deployment settings;
        settings.link.sfMix = "7:1e308,8:1e308";
        VERIFY_STARTS(errorOf([&] { dpu::fleetConfigOf(settings, 3, 0); }), QStringLiteral("sfMix: weight of SF7"));
        VERIFY_STARTS(errorOf([&] { dpu::linkOf(settings.link); }), QStringLiteral("sfMix: "));

        // A mix filled in by a program: the simulation refuses it naming the group.
        for (double share : {1e308, kInf, kNaN, -1.0}) {
            const QString e = refusal([&](dpu::FleetConfig& c, dpu::FleetStrategy&) { c.groups[0].sfMix = {{7, share}, {8, 1}}; });
            VERIFY_STARTS(e, QStringLiteral("groups[0]: sfMix: weight of SF7 must be 0 or more, at most 1000000000, found "));
        }

        // The counts themselves never index past the devices, whatever the weights.
        const std::vector<std::pair<int, int>> half{{7, 100}, {8, 100}};
        QCOMPARE(dpu::spreadingFactorCounts(200, {{7, 1e308}, {8, 1e308}}), half);
        const std::vector<std::pair<int, int>> all8{{8, 200}};
        QCOMPARE(dpu::spreadingFactorCounts(200, {{7, kNaN}, {8, 1}}), all8);
        QCOMPARE(dpu::spreadingFactorCounts(200, {{7, kInf}, {8, 1}}), all8);
        QVERIFY(dpu::spreadingFactorCounts(200, {{7, kNaN}}).empty());
        QVERIFY(dpu::spreadingFactorCounts(-5, {{7, 1}}).empty());
        int total = 0;
        for (const auto& c : dpu::spreadingFactorCounts(1000000, {{7, 1e-300}, {8, 3}, {9, 1e9}, {12, 0.1}}))
            total += c.second;
        QCOMPARE(total, 1000000);
    }

    void traceThatIsNoFileIsRefusedAtOnce()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("trace.fifo")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(readErrorWithin10s(fifo), QString::fromStdString(fifo + ": is a FIFO (named pipe), not a regular file: a trace must be "
                                                                         "a file (CSV or FedScale JSON)"));
        const std::string link = dir.filePath(QStringLiteral("link.csv")).toStdString();
        QCOMPARE(::symlink(fifo.c_str(), link.c_str()), 0);
        VERIFY_STARTS(readErrorWithin10s(link), QString::fromStdString(link + ": is a FIFO (named pipe), not a regular file"));
        const std::string folder = dir.path().toStdString();
        VERIFY_STARTS(readErrorWithin10s(folder), QString::fromStdString(folder + ": is a folder, not a regular file"));
        // /dev/zero never ends: it ran out of memory.
        VERIFY_STARTS(readErrorWithin10s("/dev/zero"), QStringLiteral("/dev/zero: is a character device, not a regular file"));
        VERIFY_STARTS(readErrorWithin10s(folder + "/missing.csv"),
                      QString::fromStdString(folder + "/missing.csv: cannot read the trace: No such file or directory"));
        // The settings the window and the CLI share name the path too.
        dpu::Deployment settings;
        settings.availabilityTrace = "/dev/zero";
        VERIFY_STARTS(errorOf([&] { dpu::fleetConfigOf(settings, 3, 0); }), QStringLiteral("/dev/zero: is a character device"));
    }

    void traceOverTheSizeLimitIsRefused()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("big.csv")).toStdString();
        {
            std::ofstream(path) << "device,round\n";
        }
        // A sparse file: its size without its disk space.
        QCOMPARE(::truncate(path.c_str(), dpu::kMaxTraceFileBytes + 1), 0);
        QCOMPARE(readErrorWithin10s(path),
                 QString::fromStdString(path + ": the trace has 268435457 bytes, over the limit of 268435456 (256 MiB)"));
        // At the limit it is read; its line of 256 MiB of zero bytes is refused with a short message.
        QCOMPARE(::truncate(path.c_str(), dpu::kMaxTraceFileBytes), 0);
        const QString atLimit = readErrorWithin10s(path);
        VERIFY_STARTS(atLimit, QString::fromStdString(path + ":2: expected 'device,round'"));
        QVERIFY2(atLimit.size() < 400, qPrintable(QString::number(atLimit.size())));
    }

    void fedScaleNumberOutOfRangeNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("trace.json")).toStdString();
        std::ofstream(path) << "{\n  \"a\": {\"active\": [0], \"inactive\": [10], \"finish_time\": 20},\n"
                               "  \"b\": {\"active\": [0], \"inactive\": [1e999], \"finish_time\": 20}\n}\n";
        QCOMPARE(errorOf([&] { dpu::AvailabilityTrace::read(path); }),
                 QString::fromStdString(path + ":3: the number 1e999 is out of range (a time in seconds must fit a double, up to "
                                               "about 1.8e308)"));
        const std::string digits(400, '9'); // an integer beyond a double as well
        QCOMPARE(errorOf([&] { dpu::AvailabilityTrace::parseFedScale("{\"a\": {\"finish_time\": " + digits + "}}", "f.json"); })
                     .left(26),
                 QStringLiteral("f.json:1: the number 99999"));
        // Every error of a client names the file, the client, the field and the value found.
        const auto error = [](const std::string& text) { return errorOf([&] { dpu::AvailabilityTrace::parseFedScale(text, "f.json"); }); };
        QCOMPARE(error(R"({"a": {"active": ["x"], "inactive": [1], "finish_time": 9}})"),
                 QStringLiteral("f.json: client 'a': 'active' holds \"x\", not a number of seconds"));
        QCOMPARE(error(R"({"a": {"active": [1], "inactive": [2], "finish_time": -1}})"),
                 QStringLiteral("f.json: client 'a': expected 'finish_time', the trace's period in seconds (above 0), found -1"));
        QCOMPARE(error(R"({"a": {"active": 5, "inactive": [2], "finish_time": 9}})"),
                 QStringLiteral("f.json: client 'a': expected a list 'active' of times in seconds, found 5"));
        QCOMPARE(error(R"({"a": {"active": [[1]], "inactive": [2], "finish_time": 9}})"),
                 QStringLiteral("f.json: client 'a': 'active' holds a list, not a number of seconds"));
        QCOMPARE(error(R"({"a": 7})"), QStringLiteral("f.json: client 'a': expected an object {\"active\": [...], \"inactive\": "
                                                      "[...], \"finish_time\": ...}, found 7"));
        QCOMPARE(error(R"({"a": {"active": [], "inactive": [], "finish_time": 9}, "a": {}})"),
                 QStringLiteral("f.json: client 'a': appears twice"));
        QCOMPARE(error(R"({"a": {"active": [], "active": [], "finish_time": 9}})"),
                 QStringLiteral("f.json: client 'a': 'active' appears twice"));
        VERIFY_STARTS(error("{\"a\": {\"active\": [], \"inactive\": [], \"finish_time\": 9}} trailing"),
                      QStringLiteral("f.json:1: not a FedScale trace (JSON): "));
        VERIFY_STARTS(error("{}"), QStringLiteral("f.json: expected an object of clients"));
        // Fields FedScale has and the fleet does not use are skipped, however nested.
        const auto t = dpu::AvailabilityTrace::parseFedScale(
            R"({"a": {"model": {"x": [1, {"y": null}]}, "active": [5], "duration": [[]], "inactive": [6], "finish_time": 9}})", "f.json");
        QCOMPARE(t.devices(), size_t(1));
        QVERIFY(t.available(0, 1, 5.5));
        QVERIFY(!t.available(0, 1, 7));
    }

    void traceWithMoreDevicesThanAFleetIsRefused()
    {
        std::string text;
        text.reserve(12 * (dpu::kMaxTraceDevices + 1));
        for (size_t d = 0; d <= dpu::kMaxTraceDevices; ++d)
            text += std::to_string(d) + ",1\n";
        QCOMPARE(errorOf([&] { dpu::AvailabilityTrace::parseCsv(text, "t.csv"); }),
                 QStringLiteral("t.csv:1000001: names more than 1000000 devices, the most a fleet has (kMaxFleetDevices): the "
                                "rest could never be read"));
    }

    void fleetLimitsNameTheFieldAndTheRange()
    {
        using C = dpu::FleetConfig;
        using S = dpu::FleetStrategy;
        QCOMPARE(refusal([](C& c, S&) { c.groups[0].devices = 1000001; }),
                 QStringLiteral("groups[0].devices: expected 1 .. 1000000, found 1000001"));
        QCOMPARE(refusal([](C& c, S&) { c.groups[0].devices = 0; }), QStringLiteral("groups[0].devices: expected 1 .. 1000000, found 0"));
        QCOMPARE(refusal([](C& c, S&) {
                     c.groups[0].devices = 600000;
                     c.groups.push_back(c.groups[0]);
                 }),
                 QStringLiteral("groups[1].devices: the groups hold 1200000 devices so far, over the fleet's limit of 1000000"));
        QCOMPARE(refusal([](C& c, S&) { c.drainRounds = 1001; }), QStringLiteral("drainRounds: expected 0 .. 1000, found 1001"));
        QCOMPARE(refusal([](C& c, S&) { c.drainRounds = -1; }), QStringLiteral("drainRounds: expected 0 .. 1000, found -1"));
        QCOMPARE(refusal([](C& c, S&) { c.policy.maxStaleness = 10001; }),
                 QStringLiteral("policy.maxStaleness: expected 0 .. 10000 versions (0: never), found 10001"));
        QCOMPARE(refusal([](C& c, S&) { c.policy.maxStaleness = -1; }),
                 QStringLiteral("policy.maxStaleness: expected 0 .. 10000 versions (0: never), found -1"));
        QCOMPARE(refusal([](C& c, S&) { c.policy.repairSessions = 101; }),
                 QStringLiteral("policy.repairSessions: expected 0 .. 100, found 101"));
        QCOMPARE(refusal([](C& c, S&) { c.lastRound = 10001; }),
                 QStringLiteral("lastRound: expected 0 .. 10000 (0: the last version's round), found 10001"));
        QCOMPARE(refusal([](C& c, S&) { c.lastRound = -3; }),
                 QStringLiteral("lastRound: expected 0 .. 10000 (0: the last version's round), found -3"));
        QCOMPARE(refusal([](C&, S& s) { s.versions.back().round = 10001; }),
                 QStringLiteral("strategy 'dpu'.versions[2].round: expected 0 .. 10000, found 10001"));
        QCOMPARE(refusal([](C&, S& s) { s.versions.front().round = std::numeric_limits<int>::min(); }),
                 QStringLiteral("strategy 'dpu'.versions[0].round: expected 0 .. 10000, found -2147483648"));
        QCOMPARE(refusal([](C&, S& s) { s.versions[1].deltaBytes = 10000000001; }),
                 QStringLiteral("strategy 'dpu'.versions[1].deltaBytes: expected 0 .. 10000000000 B, found 10000000001"));
        QCOMPARE(refusal([](C&, S& s) { s.fullModelBytes = std::numeric_limits<int64_t>::max(); }),
                 QStringLiteral("strategy 'dpu'.fullModelBytes: expected 0 .. 10000000000 B, found 9223372036854775807"));
        QCOMPARE(refusal([](C&, S& s) { s.deviceFileBytes = -1; }),
                 QStringLiteral("strategy 'dpu'.deviceFileBytes: expected 0 .. 10000000000 B, found -1"));
        QCOMPARE(refusal([](C& c, S&) { c.sampleBytes = 1000000001; }),
                 QStringLiteral("sampleBytes: expected 0 .. 1000000000, found 1000000001"));
        QCOMPARE(refusal([](C& c, S&) { c.newSamplesPerRound = -1; }),
                 QStringLiteral("newSamplesPerRound: expected 0 .. 1000000000, found -1"));
        QCOMPARE(refusal([](C& c, S&) {
                     c.sampleBytes = 1000000;
                     c.newSamplesPerRound = 1000000;
                 }),
                 QStringLiteral("sampleBytes: a round's upload, sampleBytes x newSamplesPerRound = 1000000 x 1000000, is over "
                                "10000000000 B"));
        for (double period : {kNaN, kInf, -kInf, 0.0, 0.5, 3.6e9 * 1.0000001})
            VERIFY_STARTS(refusal([&](C& c, S&) { c.roundPeriodSeconds = period; }),
                          QStringLiteral("roundPeriodSeconds: expected 1 .. 3.6e+09 s (1,000,000 hours), found "));
        QCOMPARE(refusal([](C& c, S&) { c.roundPeriodSeconds = kNaN; }),
                 QStringLiteral("roundPeriodSeconds: expected 1 .. 3.6e+09 s (1,000,000 hours), found nan"));
        for (double a : {kNaN, kInf, -0.5, 1.5})
            VERIFY_STARTS(refusal([&](C& c, S&) { c.groups[0].availability = a; }), QStringLiteral("groups[0].availability: expected"));
        for (double q : {kNaN, kInf, 0.0, 1.0})
            VERIFY_STARTS(refusal([&](C& c, S&) { c.policy.target.probability = q; }), QStringLiteral("policy.target.probability: "));
        // The bounds themselves are accepted.
        QCOMPARE(refusal([](C& c, S&) {
                     c.drainRounds = 1;
                     c.policy.repairSessions = 100;
                     c.policy.maxStaleness = 10000;
                     c.roundPeriodSeconds = 3.6e9;
                     c.lastRound = 10000;
                     c.sampleBytes = 1000000000;
                     c.newSamplesPerRound = 10;
                 }),
                 QStringLiteral("(no error)"));
    }

    void numbersAsDoublesAreWholeAndInRange()
    {
        // What a command line or a settings file gives as a double (the seed, the drain, ...):
        // converted only once it is a whole number in range, never cast from NaN or 1e300.
        QCOMPARE(dpu::wholeFleetNumber(42, "seed", 0, dpu::kMaxExactSeed), int64_t(42));
        QCOMPARE(dpu::wholeFleetNumber(9007199254740992.0, "seed", 0, dpu::kMaxExactSeed), dpu::kMaxExactSeed);
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(kNaN, "seed", 0, dpu::kMaxExactSeed); }),
                 QStringLiteral("seed: expected a whole number in 0 .. 9007199254740992, found nan"));
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(kInf, "seed", 0, dpu::kMaxExactSeed); }),
                 QStringLiteral("seed: expected a whole number in 0 .. 9007199254740992, found inf"));
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(-1, "seed", 0, dpu::kMaxExactSeed); }),
                 QStringLiteral("seed: expected a whole number in 0 .. 9007199254740992, found -1"));
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(1e300, "drainRounds", 0, dpu::kMaxDrainRounds); }),
                 QStringLiteral("drainRounds: expected a whole number in 0 .. 1000, found 1e+300"));
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(2.5, "policy.repairSessions", 0, dpu::kMaxRepairSessions); }),
                 QStringLiteral("policy.repairSessions: expected a whole number in 0 .. 100, found 2.5"));
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(1000001, "devices", 1, dpu::kMaxFleetDevices); }),
                 QStringLiteral("devices: expected a whole number in 1 .. 1000000, found 1000001"));
        QCOMPARE(errorOf([] { dpu::wholeFleetNumber(9.3e18, "x", 0, std::numeric_limits<int64_t>::max()); }),
                 QStringLiteral("x: expected a whole number in 0 .. 9223372036854775807, found 9.3e+18"));
        // Every integer limit: NaN, the infinities and one past each end, refused by name and range.
        const struct {
            const char* field;
            int64_t min, max;
        } limits[] = {{"devices", 1, dpu::kMaxFleetDevices},
                      {"drainRounds", 0, dpu::kMaxDrainRounds},
                      {"policy.maxStaleness", 0, dpu::kMaxStaleness},
                      {"policy.repairSessions", 0, dpu::kMaxRepairSessions},
                      {"lastRound", 0, dpu::kMaxFleetRound},
                      {"seed", 0, dpu::kMaxExactSeed},
                      {"sampleBytes", 0, dpu::kMaxSampleBytes},
                      {"newSamplesPerRound", 0, dpu::kMaxNewSamplesPerRound}};
        for (const auto& l : limits) {
            const QString expected = QStringLiteral("%1: expected a whole number in %2 .. %3, found ").arg(l.field).arg(l.min).arg(l.max);
            // Past 2^53 a double's next value is 2 away: max + 1 would round back to max.
            const double above = std::max(static_cast<double>(l.max) + 1, std::nextafter(static_cast<double>(l.max), kInf));
            for (double v : {kNaN, kInf, -kInf, static_cast<double>(l.min) - 1, above})
                VERIFY_STARTS(errorOf([&] { dpu::wholeFleetNumber(v, l.field, l.min, l.max); }), expected);
            QCOMPARE(dpu::wholeFleetNumber(static_cast<double>(l.max), l.field, l.min, l.max), l.max);
        }
    }

    void linkFieldsThatWouldOverflowAreRefused()
    {
        dpu::Link link = dpu::lorawanEu868(7);
        link.maxPayloadBytes = std::numeric_limits<int>::max();
        QCOMPARE(errorOf([&] { dpu::validateLink(link); }), QStringLiteral("maxPayloadBytes: expected 1 .. 65535 B, found 2147483647"));
        link = dpu::lorawanEu868(7);
        link.frameOverheadBytes = 70000;
        VERIFY_STARTS(errorOf([&] { dpu::validateLink(link); }), QStringLiteral("frameOverheadBytes: expected 0 .. 65535 B"));
        link = dpu::nbIot(1);
        link.repetitions = 4096;
        QCOMPARE(errorOf([&] { dpu::validateLink(link); }), QStringLiteral("repetitions: expected 1 .. 2048, found 4096"));
        // A retransmitting link at a loss of 0.999999: a 1 MB bundle's transmissions spread over
        // billions of values (a table of 16 GB); refused instead of allocated.
        dpu::FleetConfig c = fleet(1, dpu::nbIot(1));
        c.groups[0].link.frameLoss = 0.999999;
        VERIFY_STARTS(errorOf([&] { dpu::simulateFleet(c, strategy(2, 1000000)); }), QStringLiteral("frameLoss: "));
        // An erasure code at a loss a double cannot tell from 1 needs more frames than int64 counts.
        c = fleet(1);
        c.groups[0].link.frameLoss = 1 - 0x1p-53;
        VERIFY_STARTS(errorOf([&] { dpu::simulateFleet(c, strategy(2, 10000000)); }), QStringLiteral("frameLoss: "));
    }

    void largestFleetRunsWithinItsBounds()
    {
        // The limit itself: a million devices over a few rounds, unicast catch-ups on a shared
        // gateway at availability 0.5 (the most sessions a round builds). docs/fleet.md gives the
        // measurement at 1,000 drain rounds.
        dpu::FleetConfig c = fleet(dpu::kMaxFleetDevices);
        c.groups[0].availability = 0.5;
        c.groups[0].link.delivery = dpu::LinkDelivery::Unicast;
        c.groups[0].sfMix = dpu::fuotaSimSpreadingFactorMix();
        c.drainRounds = 2;
        const dpu::FleetResult r = dpu::simulateFleet(c, strategy(3));
        QCOMPARE(r.devices, dpu::kMaxFleetDevices);
        QCOMPARE(r.rounds.size(), size_t(4));
        QVERIFY(r.rounds[0].available > 490000 && r.rounds[0].available < 510000);
    }
};

QTEST_GUILESS_MAIN(TestFleetLimits)
#include "test_fleet_limits.moc"
