// SPDX-License-Identifier: MIT
// dpu-cli budget and frontier as a user meets them: the recommendation and the frontier from run folders, text, JSON, picture, errors.
#include "RunFixtures.h"
#include "CliProcess.h"
#include "TestSupport.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <cmath>

namespace {

using Result = dpu::test::CliResult;

Result run(const QStringList& args)
{
    return dpu::test::runCli(args, 60000);
}

/// dpu-cli budget ARGS...
Result cli(const QStringList& args)
{
    return run(QStringList{"budget"} + args);
}

/// The line of the text answer that starts with `label`, without it.
QString field(const QString& out, const QString& label)
{
    for (const QString& line : out.split('\n'))
        if (line.startsWith(label + ' '))
            return line.mid(label.size()).trimmed();
    return {};
}

} // namespace

class TestCliPlanner : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString sweep_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        // The fixture's coding sweep as run folders, a stopped run beside them, and a run of
        // another model (its own frontier) in a second folder.
        sweep_ = tmp_.filePath("sweep");
        for (const dpu::FrontierRun& run : dpu::test::codingSweep())
            dpu::test::writeRunFolder((sweep_ + "/" + QString::fromStdString(run.id)).toStdString(), run.plan, run.records,
                                      "finished", run.cost);
        const dpu::FrontierRun first = dpu::test::codingSweep().front();
        dpu::test::writeRunFolder((sweep_ + "/zz-stopped").toStdString(), first.plan,
                                  {first.records.front()}, "stopped", first.cost);
        dpu::Plan vgg = first.plan;
        vgg.model = "vggnet";
        dpu::test::writeRunFolder(tmp_.filePath("vgg/run").toStdString(), vgg, first.records, "finished", {2000000, 500});
    }

    void recommendsFromRealBytes()
    {
        const Result r = cli({sweep_, "--bytes-per-round", "2000"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(field(r.out, "recommendation"), QStringLiteral("dpu q8, k = 0.01 (measured: finished runs' real bundle bytes)"));
        QCOMPARE(field(r.out, "expected"), QStringLiteral("84.00 % test accuracy (-6.00 points to FU)"));
        QVERIFY2(field(r.out, "bytes").startsWith(QStringLiteral("2000 B per round (2.0 KB), 4000 B per run of 2 rounds")),
                 qPrintable(r.out));
        QCOMPARE(field(r.out, "plan"), QStringLiteral("strategies dpu (and fu to compare), bundle.values \"q8\", k 0.01"));
        QVERIFY2(field(r.out, "why").startsWith(QStringLiteral("dpu q8 at k=0.01: 84.0 % expected")), qPrintable(r.out));
        // A table of every family: exact DPU fits up to k = 0.00325, FU does not fit.
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\ndpu +yes +0\\.00325 +80\\.12 %"))), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\nfu +no "))), qPrintable(r.out));
        // The stopped run is named and not used.
        QVERIFY2(r.err.contains(QStringLiteral("zz-stopped stopped early")), qPrintable(r.err));
    }

    void jsonSaysTheSame()
    {
        const Result r = cli({sweep_, tmp_.filePath("vgg"), "--bytes-total", "4000", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonParseError error;
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(r.out));
        QCOMPARE(j["family"].toString(), QStringLiteral("dpu q8"));
        QCOMPARE(j["k"].toDouble(), 0.01);
        QCOMPARE(j["measured"].toBool(), true);
        QCOMPARE(j["budget"].toObject()["scope"].toString(), QStringLiteral("run"));
        QCOMPARE(j["bytes_per_run"].toDouble(), 4000.0);
        QCOMPARE(j["families"].toArray().size(), 3);
        // The other model's run is its own frontier: named on stderr, not mixed in.
        QVERIFY2(r.err.contains(QStringLiteral("left out run: plan differs in model")), qPrintable(r.err));
    }

    void linkWindowIsABudget()
    {
        // The older keys are the link model's presets: nb-iot is nb-iot-nb2, whose window holds its
        // 5 s attach and then blocks of 512 B at about 116 kbit/s (issue 41: no bare 60 kbit/s).
        const Result r = cli({sweep_, "--link", "nb-iot", "--window", "5.16", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const Result same = cli({sweep_, "--link", "nb-iot-nb2", "--window", "5.16", "--json"});
        QCOMPARE(j, QJsonDocument::fromJson(same.out.toUtf8()).object());
        const QJsonObject lr = j["link_round"].toObject();
        QCOMPARE(lr["link"].toString(), QStringLiteral("nb-iot-nb2"));
        // 0.16 s after the attach: four full blocks of 35.3 ms and one of 252 B (300 B on air) in 18.9 ms.
        QCOMPARE(j["budget"].toObject()["bytes"].toDouble(), 2300.0);
        QVERIFY(lr["wall_time_s"].toDouble() <= 5.16);
        QVERIFY(std::abs(lr["application_bits_per_second"].toDouble() - 127e3 * 512 / 560) < 1e-6);
        // With a byte budget, "lora" answers as lorawan-eu868-sf7 does: its frames, airtime and energy.
        const Result t = cli({sweep_, "--bytes-per-round", "2000", "--link", "LoRa"});
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QCOMPARE(field(t.out, "link"), QStringLiteral("LoRaWAN EU868 SF7/125 kHz (DR5), duty cycle 1 %, frame loss 0 %, multicast to 1 device"));
        QCOMPARE(field(t.out, "rate"), QStringLiteral("4.75 kbit/s of data while sending (no duty cycle, set-up or loss)"));
        QCOMPARE(t.out, cli({sweep_, "--bytes-per-round", "2000", "--link", "lorawan-eu868-sf7"}).out);
        // An alias takes the link model's options: lora at SF9 to 9 devices.
        const Result sf9 = cli({sweep_, "--bytes-per-round", "2000", "--link", "lora", "--sf", "9", "--devices", "9"});
        QVERIFY2(sf9.code == 0, qPrintable(sf9.err));
        QCOMPARE(field(sf9.out, "link"), QStringLiteral("LoRaWAN EU868 SF9/125 kHz (DR3), duty cycle 1 %, frame loss 0 %, multicast to 9 devices"));
        // lte-m means one link: the model's Cat-M1 preset, not a faster bare rate beside it.
        const Result lte = cli({sweep_, "--bytes-per-round", "2000", "--link", "lte-m", "--json"});
        QCOMPARE(QJsonDocument::fromJson(lte.out.toUtf8()).object()["link_round"].toObject()["link_name"].toString(),
                 QStringLiteral("LTE-M Cat-M1 half duplex (CoAP blocks of 1 KB)"));
    }

    void reportLinkTakesTheLinkModelsKeys()
    {
#if DPU_TEST_GUI_BUILD
        const Result ok = run({"report", sweep_, "--out", "/dev/null", "--link", "ble"});
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        const Result bad = run({"report", sweep_, "--out", "/dev/null", "--link", "wifi"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--link: expected one of lorawan-eu868-sf7, ")) && bad.err.contains(QStringLiteral("ble-smp-pipelined"))
                     && bad.err.contains(QStringLiteral("(or lora (lorawan-eu868-sf7), nb-iot (nb-iot-nb2), ble (ble-smp-pipelined)), found 'wifi'")),
                 qPrintable(bad.err));
#endif
    }

    void estimateOrNothingBelowTheRuns()
    {
        const Result e = cli({sweep_, "--bytes-per-round", "300"});
        QVERIFY2(e.code == 0, qPrintable(e.err));
        QVERIFY2(field(e.out, "recommendation").contains(QStringLiteral("estimate: calibrated cost model")), qPrintable(e.out));
        QCOMPARE(field(e.out, "expected"), QStringLiteral("unknown (no finished run of this family near k)"));
        const Result none = cli({sweep_, "--bytes-per-round", "30"});
        QCOMPARE(none.code, 3);
        QCOMPARE(field(none.out, "recommendation"), QStringLiteral("none"));
        QVERIFY2(field(none.out, "why").contains(QStringLiteral("always-shipped")), qPrintable(none.out));
    }

    void frontierTableJsonAndPicture()
    {
        const Result t = run({"frontier", sweep_});
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("FU reference: fu")), qPrintable(t.out));
        // dpu q8 at k = 0.01: 84 %, -6 points, 2000 B its initial deployment and 2000 B per update
        // round, 4000 B a run; FU's bits 2 x 400400 B.
        QVERIFY2(t.out.contains(QRegularExpression(QStringLiteral("\\ndpu q8 +0\\.01 +84\\.00 % +-6\\.00 +2000 +2000 +4000 +0\\.004995 +1\\n"))),
                 qPrintable(t.out));
        const Result j = run({"frontier", sweep_, tmp_.filePath("vgg"), "--json"});
        QVERIFY2(j.code == 0, qPrintable(j.err));
        const QJsonArray groups = QJsonDocument::fromJson(j.out.toUtf8()).array();
        QCOMPARE(groups.size(), 2); // the sweep, and the other model's run
        const QJsonArray families = groups[0].toObject()["families"].toArray();
        QCOMPARE(families.size(), 3);
        QCOMPARE(families[1].toObject()["family"].toString(), QStringLiteral("dpu q8"));
        const QJsonObject p = families[1].toObject()["points"].toArray()[1].toObject();
        QCOMPARE(p["real_bytes_per_update_round"].toDouble(), 2000.0);
        QCOMPARE(p["initial_deployment_bytes"].toDouble(), 2000.0);
        QCOMPARE(p["update_rounds"].toInt(), 1);
        QVERIFY(std::abs(p["ratio_to_fu"].toDouble() - 4000.0 / 800800.0) < 1e-12);
        QVERIFY(std::abs(p["accuracy_to_fu"].toDouble() + 0.06) < 1e-12);
        // The picture, drawn by the application's own chart; a headless build says it cannot.
        const QString png = tmp_.filePath("frontier.png");
        const Result i = run({"frontier", sweep_, "--image", png, "--budget", "1200"});
        if (DPU_TEST_GUI_BUILD) {
            QVERIFY2(i.code == 0, qPrintable(i.err));
            QFile f(png);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(24); // signature, then IHDR: width big-endian at 16
            QVERIFY(head.startsWith("\x89PNG\r\n\x1a\n"));
            const auto width = (uchar(head[16]) << 24) | (uchar(head[17]) << 16) | (uchar(head[18]) << 8) | uchar(head[19]);
            QVERIFY2(width >= 900, qPrintable(QString::number(width))); // 900 points at 2x
        } else {
            QCOMPARE(i.code, 1);
            QVERIFY2(i.err.contains(QStringLiteral("DPU_BUILD_GUI")), qPrintable(i.err));
            QVERIFY(!QFile::exists(png));
        }
        const Result bad = run({"frontier", sweep_, "--image", tmp_.filePath("frontier.gif")});
        QVERIFY(bad.code != 0);
        QVERIFY2(bad.err.contains(QStringLiteral("frontier.gif")), qPrintable(bad.err));
        const Result none = run({"frontier", sweep_ + "/zz-stopped"});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QStringLiteral("no finished runs")), qPrintable(none.err));
    }

    void errorsSayWhatIsWrong()
    {
        const struct {
            QStringList args;
            int code;
            const char* message;
        } cases[] = {
            {{sweep_}, 2, "budget needs --bytes-per-round N, --bytes-total N, --link KEY --window SECONDS or --link KEY --energy JOULES"},
            {{sweep_, "--bytes-per-round", "10", "--bytes-total", "20"}, 2, "give one budget"},
            {{sweep_, "--bytes-per-round", "-5"}, 2, "--bytes-per-round: expected a number of bytes per round in (0, 1e+12], found '-5'"},
            {{sweep_, "--bytes-per-round", "lots"}, 2, "--bytes-per-round: expected a number of bytes per round in (0, 1e+12], found 'lots'"},
            {{sweep_, "--link", "nb-iot", "--window", "nan"}, 2, "--window: expected a number of seconds in (0, 1e+08], found 'nan'"},
            {{sweep_, "--link", "wifi", "--window", "1"}, 2, "--link: expected one of "},
            {{sweep_, "--link", "wifi", "--window", "1"}, 2, "lorawan-eu868-sf7, lorawan-eu868-sf8, "},
            {{sweep_, "--link", "wifi", "--window", "1"}, 2, "ble-smp-pipelined (or lora (lorawan-eu868-sf7), nb-iot (nb-iot-nb2), ble (ble-smp-pipelined)), found 'wifi'"},
            {{sweep_, "--window", "1"}, 2, "--window needs --link with a link model (lorawan-eu868, "},
            {{"--bytes-per-round", "10"}, 2, "budget needs at least one run folder"},
            {{tmp_.filePath("missing"), "--bytes-per-round", "10"}, 1, "missing"},
        };
        for (const auto& c : cases) {
            const Result r = cli(c.args);
            QVERIFY2(r.code == c.code, qPrintable(c.args.join(' ') + ": exit " + QString::number(r.code) + "\n" + r.err));
            QVERIFY2(r.err.contains(QString::fromUtf8(c.message)), qPrintable(c.args.join(' ') + ": " + r.err));
            QVERIFY(r.out.isEmpty());
        }
    }

    void linkModelAnswersInAirtimeWallTimeAndEnergy()
    {
        // dpu q8 at k = 0.01 sends 2000 B a round: over EU868 at SF12 on a 1 % sub-band with 10 %
        // loss, one multicast to 200 devices.
        const QStringList args{sweep_, "--bytes-per-round", "2000", "--link", "lorawan-eu868", "--sf", "12", "--loss", "0.1",
                               "--devices", "200"};
        const Result t = cli(args);
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QCOMPARE(field(t.out, "link"), QStringLiteral("LoRaWAN EU868 SF12/125 kHz (DR0), duty cycle 1 %, frame loss 10 %, multicast to 200 devices"));
        QVERIFY2(field(t.out, "airtime").contains(QRegularExpression(QStringLiteral("^[0-9.]+ min per round \\([0-9]+ frames: 42 fragments \\+ [0-9]+ redundancy"))),
                 qPrintable(t.out));
        QVERIFY2(field(t.out, "wall time").endsWith(QStringLiteral(" h per round")), qPrintable(t.out));
        QVERIFY2(field(t.out, "energy").contains(QStringLiteral("of a 2400 mAh battery at 3.3 V")), qPrintable(t.out));
        const Result j = cli(args + QStringList{"--json"});
        QVERIFY2(j.code == 0, qPrintable(j.err));
        const QJsonObject lr = QJsonDocument::fromJson(j.out.toUtf8()).object()["link_round"].toObject();
        QCOMPARE(lr["bytes"].toInteger(), 2000);
        QCOMPARE(lr["fragments"].toInteger(), 42); // 2000 B in fragments of 51 - 3 B
        QCOMPARE(lr["devices"].toInt(), 200);
        QVERIFY(lr["multicast"].toBool());
        // The multicast's wall time is its airtime under the 1 % duty cycle; a Class C device
        // listens at 4.6 mA and 3.3 V until it decodes (issue 41: it leaves then), at most all of it.
        const double airtime = lr["airtime_s"].toDouble();
        const double listen = lr["listen_s"].toDouble();
        QVERIFY(std::abs(lr["wall_time_s"].toDouble() - airtime / 0.01) < 1e-6);
        QVERIFY(listen <= airtime / 0.01 + 1e-6 && listen > 0.7 * airtime / 0.01); // 42 of about 60 frames suffice
        QVERIFY(std::abs(lr["energy_per_device_j"].toDouble() - listen * 4.6e-3 * 3.3) < 1e-6);
        QVERIFY(std::abs(lr["completion_share"].toDouble() - lr["device_probability"].toDouble()) < 1e-12); // no spread
        QVERIFY(lr["device_probability"].toDouble() >= 0.99);
        QVERIFY(!lr["every_device"].toBool());
        // Every one of the 200 devices completing with 99 %: each needs 0.99^(1/200), so more
        // extra fragments for the same bytes.
        const Result every = cli(args + QStringList{"--target", "0.99", "--every-device", "--json"});
        QVERIFY2(every.code == 0, qPrintable(every.err));
        const QJsonObject ej = QJsonDocument::fromJson(every.out.toUtf8()).object()["link_round"].toObject();
        QVERIFY(ej["every_device"].toBool());
        QCOMPARE(ej["fragments"].toInteger(), 42);
        QVERIFY(ej["redundancy"].toInteger() > lr["redundancy"].toInteger());
        QVERIFY(ej["device_probability"].toDouble() >= std::pow(0.99, 1.0 / 200) - 1e-12);
    }

    void linkModelBudgets()
    {
        // What the 10 % sub-band moves at SF7 in a minute, and what 3 J buy over NB-IoT.
        const Result w = cli({sweep_, "--link", "lorawan-eu868", "--sf", "7", "--duty-cycle", "0.1", "--window", "60", "--json"});
        QVERIFY2(w.code == 0, qPrintable(w.err));
        const QJsonObject wj = QJsonDocument::fromJson(w.out.toUtf8()).object();
        QVERIFY(wj["budget"].toObject()["bytes"].toDouble() > 2000);
        QVERIFY(wj["link_round"].toObject()["wall_time_s"].toDouble() <= 60);
        const Result e = cli({sweep_, "--link", "nb-iot-nb1", "--energy", "3", "--json"});
        QVERIFY2(e.code == 0, qPrintable(e.err));
        const QJsonObject ej = QJsonDocument::fromJson(e.out.toUtf8()).object();
        QVERIFY(ej["budget"].toObject()["bytes"].toDouble() > 0);
        QVERIFY(ej["link_round"].toObject()["energy_per_device_j"].toDouble() <= 3);
        QVERIFY(ej["link_round"].toObject()["energy_per_device_j"].toDouble() > 2); // the attach's 2 J
        const Result help = run({"budget", "--help"});
        QVERIFY(help.out.contains(QStringLiteral("--duty-cycle D")));
        QVERIFY(help.out.contains(QStringLiteral("--energy J")));
    }

    void linkModelErrorsNameTheOption()
    {
        const struct {
            QStringList args;
            int code;
            const char* message;
        } cases[] = {
            {{"--bytes-per-round", "10", "--sf", "9"}, 2, "--sf needs --link with a link model (lorawan-eu868, lorawan-us915, "},
            {{"--bytes-per-round", "10", "--devices", "9"}, 2, "--devices needs --link with a link model"},
            {{"--bytes-per-round", "10", "--loss", "0.1"}, 2, "--loss needs --link with a link model"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--sf-mix", "fuotasim"}, 2, "--sf-mix: budget answers for one spreading factor"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--duty-cycle", "0.05"}, 1, "dutyCycle: EU868's sub-bands"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--sf", "13"}, 2, "--sf: expected a spreading factor from 7 to 12, or 0 (the link's own), found '13'"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--loss", "1.5"}, 2, "--loss: expected a frame loss probability in [0, 1), found '1.5'"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--devices", "0"}, 2, "--devices: expected a number of devices from 1 to 100000000, found '0'"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--target", "1"}, 2, "--target: expected a completion probability in (0, 1), found '1'"},
            {{"--energy", "3"}, 2, "--energy needs --link with a link model"},
            {{"--bytes-per-round", "10", "--link", "lorawan-eu868", "--every-device"}, 2, "--every-device needs --target Q"},
            {{"--link", "lorawan-eu868", "--sf", "12", "--window", "1"}, 1, "--window: not even one byte reaches LoRaWAN EU868 SF12"},
            {{"--link", "wifi", "--bytes-per-round", "10"}, 2, "nb-iot-nb1, nb-iot-nb2, lte-m, ble-smp, ble-smp-pipelined (or lora "},
        };
        for (const auto& c : cases) {
            const Result r = cli(QStringList{sweep_} + c.args);
            QVERIFY2(r.code == c.code, qPrintable(c.args.join(' ') + ": exit " + QString::number(r.code) + "\n" + r.err));
            QVERIFY2(r.err.contains(QString::fromUtf8(c.message)), qPrintable(c.args.join(' ') + ": " + r.err));
            QVERIFY(r.out.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliPlanner)
#include "test_cli_planner.moc"
