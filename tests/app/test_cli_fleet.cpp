// SPDX-License-Identifier: MIT
// dpu-cli fleet as a user meets it: a fleet behind LoRaWAN from run folders, text, JSON, traces, the appendix's uploads, errors.
#include "CliProcess.h"
#include "RunFixtures.h"
#include "dpu/PlanFields.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>

namespace {

using Result = dpu::test::CliResult;

Result fleet(const QStringList& args)
{
    return dpu::test::runCli(QStringList{"fleet"} + args, 60000);
}

QJsonObject json(const Result& r)
{
    return dpu::test::jsonOf(r);
}

} // namespace

class TestCliFleet : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;
    std::vector<dpu::RoundRecord> records_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        // Five rounds: DPU deploys 2000 B deltas in rounds 1, 2, 3 and 5 (round 4 fails the gate),
        // FU ships the full model (4040 B) every round.
        run_ = tmp_.filePath("run");
        const dpu::Plan plan = dpu::test::sweepPlan(0.01, 5, {"dpu", "fu"});
        records_ = dpu::test::joined(
            {dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75, 0.74, 0.80}, {300, 300, 300, 0, 300}, {2000, 2000, 2000, 0, 2000}, 4040),
             dpu::test::strategyRounds("fu", 1, {0.62, 0.72, 0.78, 0.80, 0.82}, {4040, 4040, 4040, 4040, 4040}, {4040, 4040, 4040, 4040, 4040}, 4040)});
        dpu::test::writeRunFolder(run_.toStdString(), plan, records_, "finished", {1000, 10});
    }

    void help()
    {
        const Result r = fleet({"--help"});
        // Every deployment key's option is one fleet takes and explains.
        for (const dpu::PlanField& f : dpu::planFields())
            if (f.path.rfind("fleet.", 0) == 0) {
                QVERIFY2(!f.option.empty(), f.path.c_str());
                QVERIFY2(r.out.contains(QString::fromStdString("  " + f.option + " ")), f.option.c_str());
            }
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("--sf-mix SF:W")));
        QVERIFY(r.out.contains(QStringLiteral("lorawan-eu868-sf12")));
        QVERIFY(dpu::test::runCli({"--help"}).out.contains(QStringLiteral("  fleet RUN_DIR...")));
    }

    void textForEveryStrategy()
    {
        const Result r = fleet({run_, "--devices", "200", "--link", "lorawan-eu868", "--sf-mix", "fuotasim", "--availability", "0.8",
                                "--loss", "0.1", "--multicast", "--drain", "5", "--rounds"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(QStringLiteral("fleet     200 devices, LoRaWAN EU868 SF7/125 kHz (DR5), SF mix SF7:90 SF8:44 "
                                                 "SF9:22 SF10:16 SF11:16 SF12:12 (multicast at the slowest), duty cycle 1 %, "
                                                 "frame loss 10 %, multicast, availability 0.8 per round")),
                 qPrintable(r.out));
        // Per strategy its figures, named as the Fleet tab and the report name them (issue 41):
        // DPU's round 1 is its initial deployment, rounds 2, 3 and 5 its update rounds.
        QVERIFY2(r.out.contains(QStringLiteral("\ndpu: 4 versions (the initial deployment and 3 update rounds) over 4 rounds of the run\n"
                                               "  initial deployment                2000 B (2.0 KB), ")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral(" per device\n  bytes per update round            ")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("\nfu: 5 versions (the initial deployment and 4 update rounds)")), qPrintable(r.out));
        for (const char* name : {"airtime per update round", "energy per update round", "energy per year", "battery per year",
                                 "last version to 50 / 90 / 99 %", "fleet accuracy", "catch-up after the last release   5 rounds: "})
            QVERIFY2(r.out.contains(QStringLiteral("\n  ") + QString::fromUtf8(name)), name);
        QVERIFY2(r.out.contains(QStringLiteral(" per device, at one round every 24 h\n")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("\nfigures   Bytes per update round: the update bundle")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("catch-up bundles are estimated")), qPrintable(r.err));
        // --rounds: rounds 2..5 and five drain rounds per strategy, marked as the catch-up.
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\n +10 +3 .*  catch-up\\n"))), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\n +5 +3 .*[0-9]\\n"))), qPrintable(r.out)); // the run's own
    }

    void jsonIsDeterministicAndAccounts()
    {
        const QStringList args{run_, "--devices", "300", "--link", "lorawan-eu868", "--sf-mix", "7:1,9:1", "--availability", "0.7",
                               "--loss", "0.2", "--catch-up", "multicast", "--json"};
        const Result a = fleet(args);
        QVERIFY2(a.code == 0, qPrintable(a.err));
        QCOMPARE(fleet(args).out, a.out); // the same seed, the same fleet
        const QJsonObject j = json(a);
        const QJsonArray strategies = j["strategies"].toArray();
        QCOMPARE(strategies.size(), 2);
        const QJsonObject dpu = strategies[0].toObject();
        QCOMPARE(dpu["strategy"].toString(), QStringLiteral("dpu"));
        const QJsonArray rounds = dpu["rounds"].toArray();
        QCOMPARE(rounds.size(), 4);
        for (const QJsonValue& v : rounds) {
            double total = 0;
            for (const QJsonValue& s : v.toObject()["version_share"].toArray())
                total += s.toDouble();
            QVERIFY(std::abs(total - 1) < 1e-9);
            QVERIFY(v.toObject()["fleet_accuracy"].toDouble() <= v.toObject()["server_accuracy"].toDouble() + 1e-12);
        }
        // Round 4 deployed nothing: the server stays on round 3's version.
        QCOMPARE(rounds[2].toObject()["latest_version"].toInt(), 2);
        QCOMPARE(rounds[2].toObject()["server_accuracy"].toDouble(), 0.75);
        QCOMPARE(j["groups"].toArray()[0].toObject()["sf_counts"].toObject()["sf9"].toInt(), 150);
        // Another fleet seed, another fleet.
        QVERIFY(fleet(args + QStringList{"--fleet-seed", "2"}).out != a.out);
        // Rounds to drain add the catch-up after the last release and change no other figure.
        const QJsonObject drained = json(fleet(args + QStringList{"--drain", "6"}))["strategies"].toArray()[0].toObject();
        for (const char* figure : {"energy_per_update_round_j", "bytes_per_update_round", "airtime_per_update_round_s",
                                   "energy_per_year_j", "battery_share_per_year", "mean_fleet_accuracy", "initial_deployment_bytes"})
            QVERIFY2(drained[figure].toDouble() == dpu[figure].toDouble(), figure);
        QCOMPARE(dpu["update_rounds"].toInt(), 3);
        QCOMPARE(dpu["initial_deployment_bytes"].toInt(), 2000);
        QCOMPARE(dpu["catch_up_after_last_release"].toObject()["rounds"].toInt(), 0);
        QCOMPARE(drained["catch_up_after_last_release"].toObject()["rounds"].toInt(), 6);
        QVERIFY(drained["catch_up_after_last_release"].toObject()["energy_j"].toDouble() > 0);
    }

    /// The plan's fleet keys (issue 23) are the simulation's defaults: an option replaces one,
    /// --link replaces the whole link (the plan's loss and sub-band belong to its link).
    void planFleetKeysFillInTheOptions()
    {
        const QString planned = tmp_.filePath("planned");
        dpu::Plan plan = dpu::test::sweepPlan(0.01, 5, {"dpu", "fu"});
        plan.fleet.link.link = "nb-iot-nb1";
        plan.fleet.link.frameLoss = 0.05;
        plan.fleet.devices = 40;
        plan.fleet.availability = 0.5;
        plan.fleet.roundPeriodHours = 6;
        dpu::test::writeRunFolder(planned.toStdString(), plan, records_, "finished", {1000, 10});
        const QJsonObject fromPlan = json(fleet({planned, "--json"}));
        const QJsonObject group = fromPlan["groups"].toArray()[0].toObject();
        QCOMPARE(group["devices"].toInt(), 40);
        QCOMPARE(group["link"].toString(), QStringLiteral("nb-iot-nb1"));
        QCOMPARE(group["frame_loss"].toDouble(), 0.05);
        QCOMPARE(group["availability"].toDouble(), 0.5);
        QCOMPARE(fromPlan["round_period_s"].toDouble(), 6 * 3600.0);
        const QJsonObject devices = json(fleet({planned, "--devices", "7", "--loss", "0.2", "--json"}))["groups"].toArray()[0].toObject();
        QCOMPARE(devices["devices"].toInt(), 7);
        QCOMPARE(devices["link"].toString(), QStringLiteral("nb-iot-nb1"));
        QCOMPARE(devices["frame_loss"].toDouble(), 0.2);
        const QJsonObject link = json(fleet({planned, "--link", "lorawan-eu868-sf9", "--json"}))["groups"].toArray()[0].toObject();
        QCOMPARE(link["link"].toString(), QStringLiteral("lorawan-eu868-sf9"));
        QCOMPARE(link["frame_loss"].toDouble(), 0.0);
        QCOMPARE(link["devices"].toInt(), 40);
        // Without fleet keys: the plan's defaults, 200 devices on LoRaWAN EU868 (1 % sub-band).
        const QJsonObject plain = json(fleet({run_, "--json"}))["groups"].toArray()[0].toObject();
        QCOMPARE(plain["devices"].toInt(), 200);
        QCOMPARE(plain["link"].toString(), QStringLiteral("lorawan-eu868-sf7"));
        QCOMPARE(plain["duty_cycle"].toDouble(), 0.01);
        QCOMPARE(plain["availability"].toDouble(), 1.0);
    }

    void perfectFleetFollowsTheServer()
    {
        const Result r = fleet({run_, "--devices", "50", "--link", "lorawan-eu868-sf9", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const QJsonValue& s : json(r)["strategies"].toArray())
            for (const QJsonValue& v : s.toObject()["rounds"].toArray()) {
                const QJsonObject round = v.toObject();
                QCOMPARE(round["version_share"].toArray()[round["latest_version"].toInt()].toDouble(), 1.0);
                QCOMPARE(round["fleet_accuracy"].toDouble(), round["server_accuracy"].toDouble());
            }
    }

    void uploadsAndCellularLinks()
    {
        // The appendix: 784 B samples, the plan's 1000 new samples per round, 100 nodes: 7840 B each.
        const Result r = fleet({run_, "--devices", "100", "--link", "nb-iot-nb1", "--sample-bytes", "784", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject dpu = json(r)["strategies"].toArray()[0].toObject();
        QCOMPARE(dpu["rounds"].toArray()[0].toObject()["upload_bytes_per_node"].toDouble(), 7840.0);
        QCOMPARE(dpu["upload_bytes_per_round"].toDouble(), 7840.0);
        QVERIFY(dpu["rounds"].toArray()[0].toObject()["energy_mean_j"].toDouble() > 2.0); // the attach's 2 J
    }

    void traces()
    {
        const QString csv = tmp_.filePath("avail.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("device,round\nn1,1\nn2,2\nn1,3\n");
        f.close();
        const Result ok = fleet({run_, "--devices", "2", "--link", "lorawan-eu868-sf7", "--availability", csv, "--json"});
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        QCOMPARE(json(ok)["strategies"].toArray()[0].toObject()["rounds"].toArray()[0].toObject()["available"].toInt(), 1);
        QVERIFY(f.open(QIODevice::Append));
        f.write("n2;4\n");
        f.close();
        const Result bad = fleet({run_, "--devices", "2", "--link", "lorawan-eu868-sf7", "--availability", csv});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains(csv + QStringLiteral(":5: expected 'device,round'")), qPrintable(bad.err));
        QVERIFY(bad.out.isEmpty());
    }

    void badInput()
    {
        const auto error = [&](const QStringList& extra, int code, const QString& text) {
            const Result r = fleet(QStringList{run_, "--devices", "10"} + extra);
            QVERIFY2(r.code == code && r.err.contains(text), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        };
        error({"--link", "lorawan-eu868", "--sf-mix", "6:1,7:1"}, 2, QStringLiteral("--sf-mix: SF6 is not a spreading factor of LoRaWAN EU868"));
        error({"--link", "lorawan-eu868", "--loss", "-0.1"}, 2, QStringLiteral("--loss: expected a frame loss probability in [0, 1), found '-0.1'"));
        error({"--link", "lorawan-eu868", "--duty-cycle", "0.05"}, 2, QStringLiteral("--duty-cycle: EU868's sub-bands"));
        error({"--link", "wifi"}, 2, QStringLiteral("--link: expected one of lorawan-eu868-sf7"));
        error({"--link", "ble-smp", "--multicast"}, 2, QStringLiteral("has no multicast"));
        error({"--link", "lorawan-eu868", "--seed", "9"}, 2, QStringLiteral("has no seed 9"));
        error({"--link", "lorawan-eu868", "--catch-up", "broadcast"}, 2, QStringLiteral("--catch-up: expected unicast or multicast"));
        error({"--link", "lorawan-eu868", "--catch-up-bytes", "exact"}, 2,
              QStringLiteral("--catch-up-bytes: expected estimate or real, found 'exact'"));
        // Real catch-up sizes need the run's bundles: this run has only its records.
        error({"--link", "lorawan-eu868", "--availability", "0.5", "--drain", "3", "--catch-up-bytes", "real"}, 1, run_);
        const Result none = fleet({run_, "--link", "lorawan-eu868", "--devices", "0"});
        QCOMPARE(none.code, 2);
        QVERIFY(none.err.contains(QStringLiteral("--devices")));
        const Result missing = fleet({tmp_.filePath("nothing"), "--devices", "3", "--link", "lte-m"});
        QCOMPARE(missing.code, 1);
        // A bad option is reported before a bad folder, though the plan fills in what is left out.
        const Result both = fleet({tmp_.filePath("nothing"), "--devices", "0"});
        QCOMPARE(both.code, 2);
        QVERIFY(both.err.contains(QStringLiteral("--devices")));
    }

    void deviceProcessor()
    {
        // Every device hears every round: each applies DPU's 2000 B fp32 deltas to its 4040 B
        // file, 131.8 x 4040 + 257.1 x 2000 Cortex-M4F instructions, at 64 MHz and 3 mA at 3 V.
        const QStringList fleetArgs{run_, "--devices", "20", "--link", "lorawan-eu868-sf9", "--json"};
        const Result r = fleet(fleetArgs + QStringList{"--cpu", "cortex-m4", "--clock-mhz", "64", "--run-ma", "3"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject j = json(r);
        const QJsonObject cpu = j["groups"].toArray()[0].toObject()["cpu"].toObject();
        QCOMPARE(cpu["clock_hz"].toDouble(), 64e6);
        QCOMPARE(cpu["cycles_per_instruction"].toDouble(), 1.0);
        QCOMPARE(cpu["volts"].toDouble(), 3.0);
        const QJsonObject round = j["strategies"].toArray()[0].toObject()["rounds"].toArray()[0].toObject();
        const double seconds = (131.8 * 4040 + 257.1 * 2000) / 64e6;
        QVERIFY2(std::abs(round["apply_seconds_max"].toDouble() - seconds) < 1e-12, qPrintable(QString::number(round["apply_seconds_max"].toDouble())));
        QVERIFY(std::abs(round["apply_energy_mean_j"].toDouble() - seconds * 3e-3 * 3) < 1e-12);
        // Twice the cycles per instruction: twice the time.
        const Result slow = fleet(fleetArgs + QStringList{"--cpu", "cortex-m4", "--clock-mhz", "64", "--run-ma", "3", "--cpi", "2"});
        const QJsonObject slowRound = json(slow)["strategies"].toArray()[0].toObject()["rounds"].toArray()[0].toObject();
        QVERIFY(std::abs(slowRound["apply_seconds_max"].toDouble() - 2 * seconds) < 1e-12);
        // No processor: nothing applied, no cpu in the fleet.
        const QJsonObject none = json(fleet(fleetArgs));
        QVERIFY(!none["groups"].toArray()[0].toObject().contains(QStringLiteral("cpu")));
        QCOMPARE(none["strategies"].toArray()[0].toObject()["rounds"].toArray()[0].toObject()["apply_seconds_max"].toDouble(), 0.0);
        // The text names the processor.
        const Result text = fleet({run_, "--devices", "20", "--link", "lorawan-eu868-sf9", "--cpu", "cortex-m0", "--clock-mhz", "48",
                                   "--run-ma", "2.6", "--volts", "3.3"});
        QVERIFY2(text.out.contains(QStringLiteral("Cortex-M0+ (ARMv6-M, soft float), -Os at 48 MHz, 1 cycles per instruction, 2.6 mA at 3.3 V")),
                 qPrintable(text.out));
        QVERIFY(fleet({"--help"}).out.contains(QStringLiteral("--cpu cortex-m4|cortex-m0")));
        QVERIFY(dpu::test::runCli({"--help"}).out.contains(QStringLiteral("--clock-mhz F")));
    }

    void badProcessor()
    {
        const auto error = [&](const QStringList& extra, const QString& text) {
            const Result r = fleet(QStringList{run_, "--devices", "10", "--link", "lorawan-eu868"} + extra);
            QVERIFY2(r.code == 2 && r.err.contains(text), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        };
        error({"--cpu", "cortex-m7", "--clock-mhz", "64", "--run-ma", "3"}, QStringLiteral("--cpu: expected none, cortex-m4 or cortex-m0, found 'cortex-m7'"));
        error({"--cpu", "cortex-m4"}, QStringLiteral("--cpu needs --clock-mhz F"));
        error({"--cpu", "cortex-m4", "--clock-mhz", "0", "--run-ma", "3"}, QStringLiteral("--clock-mhz: expected a clock in MHz from 0.001 to 10000, found '0'"));
        error({"--cpu", "cortex-m4", "--clock-mhz", "64", "--run-ma", "-1"}, QStringLiteral("--run-ma: expected a current in mA from 0 to 10000, found '-1'"));
        error({"--cpu", "cortex-m4", "--clock-mhz", "64", "--run-ma", "3", "--cpi", "0"},
              QStringLiteral("--cpi: expected cycles per instruction in (0, 100], found '0'"));
        error({"--cpu", "cortex-m4", "--clock-mhz", "64", "--run-ma", "3", "--volts", "-3"}, QStringLiteral("--volts: expected a supply in volts in (0, 100], found '-3'"));
        error({"--cpu", "cortex-m4", "--clock-mhz", "fast", "--run-ma", "3"}, QStringLiteral("--clock-mhz: expected a clock in MHz from 0.001 to 10000, found 'fast'"));
        error({"--clock-mhz", "64"}, QStringLiteral("--clock-mhz needs --cpu"));
    }
};

QTEST_GUILESS_MAIN(TestCliFleet)
#include "test_cli_fleet.moc"
