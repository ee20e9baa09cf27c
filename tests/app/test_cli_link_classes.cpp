// SPDX-License-Identifier: MIT
// dpu-cli fleet and budget with the link model of issue 41 item 5: loss spread over the devices, Class B with its ping period, devices that listen to the end; as options and as plan keys.
#include "CliProcess.h"
#include "RunFixtures.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

using Result = dpu::test::CliResult;

Result cli(const QStringList& args)
{
    return dpu::test::runCli(args, 60000);
}

QJsonObject json(const Result& r)
{
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

/// The first strategy's energy per device in the first round.
double firstRoundEnergy(const QJsonObject& j)
{
    return j["strategies"].toArray()[0].toObject()["rounds"].toArray()[0].toObject()["energy_mean_j"].toDouble();
}

} // namespace

class TestCliLinkClasses : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;
    std::vector<dpu::RoundRecord> records_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        run_ = tmp_.filePath("run");
        const dpu::Plan plan = dpu::test::sweepPlan(0.01, 3, {"dpu"});
        records_ = dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75}, {300, 300, 300}, {2000, 2000, 2000}, 4040);
        dpu::test::writeRunFolder(run_.toStdString(), plan, records_, "finished", {1000, 10});
    }

    void fleetOptions()
    {
        const QStringList base{"fleet", run_, "--devices", "50", "--link", "lorawan-eu868", "--sf", "12", "--duty-cycle", "0.1",
                               "--loss", "0.1", "--repairs", "0"};
        const Result c = cli(base + QStringList{"--json"});
        QVERIFY2(c.code == 0, qPrintable(c.err));
        const Result b = cli(base + QStringList{"--class", "b", "--ping-periodicity", "4", "--json"});
        QVERIFY2(b.code == 0, qPrintable(b.err));
        const QJsonObject group = json(b)["groups"].toArray()[0].toObject();
        QCOMPARE(group["device_class"].toString(), QStringLiteral("b"));
        QCOMPARE(group["ping_period_s"].toDouble(), 15.36);
        QCOMPARE(json(c)["groups"].toArray()[0].toObject()["device_class"].toString(), QStringLiteral("c"));
        // Class B listens at ping slots: a fraction of Class C's energy.
        QVERIFY(firstRoundEnergy(json(b)) < 0.3 * firstRoundEnergy(json(c)));
        // Listening to the end costs more than leaving once decoded.
        const Result stay = cli(base + QStringList{"--listen-to-end", "--json"});
        QVERIFY(firstRoundEnergy(json(stay)) > firstRoundEnergy(json(c)));
        QCOMPARE(json(stay)["groups"].toArray()[0].toObject()["leave_when_decoded"].toBool(), false);
        // In words.
        const Result text = cli(base + QStringList{"--class", "b", "--loss-spread", "0.05", "--listen-to-end"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(QStringLiteral("frame loss 10 % +- 5 % over the devices, multicast in Class B (a ping slot every 0.96 s), "
                                                  "devices listen to each session's end")),
                 qPrintable(text.out.left(400)));
        QVERIFY(cli({"fleet", "--help"}).out.contains(QStringLiteral("--ping-periodicity P")));
    }

    void planKeys()
    {
        const QString planned = tmp_.filePath("planned");
        dpu::Plan plan = dpu::test::sweepPlan(0.01, 3, {"dpu"});
        plan.fleet.link.frameLoss = 0.1;
        plan.fleet.link.frameLossSpread = 0.04;
        plan.fleet.link.deviceClass = dpu::DeviceClassChoice::B;
        plan.fleet.link.pingPeriodicity = 2;
        plan.fleet.link.leaveWhenDecoded = false;
        dpu::test::writeRunFolder(planned.toStdString(), plan, records_, "finished", {1000, 10});
        const Result r = cli({"fleet", planned, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject group = json(r)["groups"].toArray()[0].toObject();
        QCOMPARE(group["frame_loss_spread"].toDouble(), 0.04);
        QCOMPARE(group["device_class"].toString(), QStringLiteral("b"));
        QCOMPARE(group["ping_period_s"].toDouble(), 3.84);
        QCOMPARE(group["leave_when_decoded"].toBool(), false);
        // An option replaces its key; the others stay the plan's.
        const QJsonObject c = json(cli({"fleet", planned, "--class", "c", "--json"}))["groups"].toArray()[0].toObject();
        QCOMPARE(c["device_class"].toString(), QStringLiteral("c"));
        QCOMPARE(c["frame_loss_spread"].toDouble(), 0.04);
    }

    void budgetShowsWhomTheMeanLeavesBehind()
    {
        const QStringList args{"budget", run_, "--bytes-per-round", "2000", "--link", "lorawan-eu868", "--sf", "12",
                               "--loss", "0.1", "--loss-spread", "0.05", "--devices", "200"};
        const Result t = cli(args);
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QStringLiteral("of the devices expected to complete (planned for the mean loss)")), qPrintable(t.out));
        const QJsonObject lr = json(cli(args + QStringList{"--json"}))["link_round"].toObject();
        QVERIFY(lr["completion_share"].toDouble() < lr["device_probability"].toDouble());
    }

    void badInput()
    {
        const auto error = [&](const QStringList& extra, int code, const QString& text) {
            const Result r = cli(QStringList{"fleet", run_, "--devices", "10"} + extra);
            QVERIFY2(r.code == code && r.err.contains(text), qPrintable(r.err));
        };
        error({"--link", "lorawan-eu868", "--class", "a"}, 2, QStringLiteral("--class: expected preset, c or b, found 'a'"));
        error({"--link", "lorawan-eu868", "--ping-periodicity", "8"}, 2, QStringLiteral("--ping-periodicity"));
        error({"--link", "lorawan-eu868", "--loss", "0.1", "--loss-spread", "0.2"}, 2, QStringLiteral("--loss-spread: expected 0 .. the loss"));
        error({"--link", "nb-iot-nb1", "--class", "b"}, 2, QStringLiteral("--class: only a LoRa link has a LoRaWAN device class"));
    }
};

QTEST_GUILESS_MAIN(TestCliLinkClasses)
#include "test_cli_link_classes.moc"
