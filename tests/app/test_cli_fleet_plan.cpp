// SPDX-License-Identifier: MIT
// dpu-cli fleet plan on a tiny run folder: text and JSON agree with core's planFleet, targets from options and from the plan, bad targets named by option.
#include "CliProcess.h"
#include "RunFixtures.h"
#include "dpu/FleetPlanInputs.h"
#include "dpu/RunFolder.h"
#include "dpu/Sweep.h"
#include <nlohmann/json.hpp>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

using Result = dpu::test::CliResult;

Result plan(const QStringList& args)
{
    return dpu::test::runCli(QStringList{"fleet", "plan"} + args, 60000);
}

QJsonObject json(const Result& r)
{
    return dpu::test::jsonOf(r);
}

/// The deployment the options of fleetArgs() state, over the run's plan's.
dpu::Deployment stated(const dpu::Plan& plan)
{
    dpu::Deployment d = plan.fleet;
    d.link = dpu::DeploymentLink{};
    d.link.link = "lorawan-eu868";
    d.link.sfMix = "7:1,9:1";
    d.link.frameLoss = 0.1;
    d.devices = 60;
    d.availability = 0.8;
    return d;
}

const QStringList fleetArgs{"--devices", "60", "--link", "lorawan-eu868", "--sf-mix", "7:1,9:1", "--loss", "0.1", "--availability", "0.8"};

} // namespace

class TestCliFleetPlan : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;
    dpu::Plan plan_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        // Five rounds: DPU deploys 2000 B deltas in rounds 1, 2, 3 and 5, FU its 4040 B model every round.
        run_ = tmp_.filePath("run");
        plan_ = dpu::test::sweepPlan(0.01, 5, {"dpu", "fu"});
        const auto records = dpu::test::joined(
            {dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75, 0.74, 0.80}, {300, 300, 300, 0, 300}, {2000, 2000, 2000, 0, 2000}, 4040),
             dpu::test::strategyRounds("fu", 1, {0.62, 0.72, 0.78, 0.80, 0.82}, {4040, 4040, 4040, 4040, 4040}, {4040, 4040, 4040, 4040, 4040}, 4040)});
        dpu::test::writeRunFolder(run_.toStdString(), plan_, records, "finished", {1000, 10});
    }

    void help()
    {
        const Result r = plan({"--help"});
        QCOMPARE(r.code, 0);
        for (const char* option : {"  --fresh-share S ", "  --fresh-days D ", "  --accuracy-gap X ", "  --battery-per-year B ",
                                   "  --airtime-per-day S ", "  --periods H,... ", "  --keep PART,... ", "  --json "})
            QVERIFY2(r.out.contains(QString::fromUtf8(option)), option);
        QVERIFY(r.out.contains(QStringLiteral("  --sweep-out FILE ")));
        QVERIFY(dpu::test::runCli({"--help"}).out.contains(QStringLiteral("  fleet plan RUN_DIR...")));
        QVERIFY(dpu::test::runCli({"fleet", "--help"}).out.contains(QStringLiteral("dpu-cli fleet plan RUN_DIR...")));
    }

    /// The command's JSON is core's plan of the same runs and deployment, and its text says the same.
    void textAndJsonAgreeWithCore()
    {
        const QStringList targets{"--fresh-share", "0.8", "--fresh-days", "2", "--battery-per-year", "0.5"};
        const Result j = plan(QStringList{run_} + fleetArgs + targets + QStringList{"--json"});
        QVERIFY2(j.code == 0, qPrintable(j.err));
        const QJsonObject got = json(j);

        dpu::Deployment d = stated(plan_);
        d.targets.freshShare = 0.8;
        d.targets.freshDays = 2;
        d.targets.batteryPerYear = 0.5;
        const std::vector<dpu::RunFolder> runs{dpu::loadRunFolder(run_.toStdString())};
        dpu::RunControl control;
        const dpu::FleetPlanInput input = dpu::fleetPlanInputOf(runs, d, {});
        const dpu::FleetPlan core = dpu::planFleet(input, nullptr, control);
        QVERIFY(core.recommended.has_value());
        QCOMPARE(got["space"].toInt(), int(core.space));
        QCOMPARE(got["simulated"].toInt(), int(core.simulated));
        QCOMPARE(got["pruned"].toInt(), int(core.pruned));
        QCOMPARE(got["why"].toString().toStdString(), core.why);
        const QJsonObject rec = got["recommended"].toObject();
        const dpu::FleetPlanCandidate& c = core.candidates[*core.recommended];
        QCOMPARE(rec["index"].toInt(), int(*core.recommended));
        QCOMPARE(rec["strategy"].toString().toStdString(), c.label);
        QCOMPARE(rec["fleet_accuracy"].toDouble(), c.fleetAccuracy);
        QCOMPARE(rec["battery_per_year"].toDouble(), c.batteryPerYear);
        QCOMPARE(rec["fresh_share"].toDouble(), c.freshShare);
        QCOMPARE(rec["setting_text"].toString().toStdString(), dpu::fleetSettingText(c.setting));
        QVERIFY(rec["meets_targets"].toBool());
        QCOMPARE(got["pareto"].toArray().size(), int(core.pareto.size()));
        for (int i = 0; i < got["pareto"].toArray().size(); ++i)
            QCOMPARE(got["pareto"].toArray()[i].toObject()["index"].toInt(), int(core.pareto[size_t(i)]));
        QCOMPARE(got["targets"].toObject()["fresh_days"].toDouble(), 2.0);
        QVERIFY(got["nearest"].isNull());

        const Result t = plan(QStringList{run_} + fleetArgs + targets);
        QCOMPARE(t.code, 0);
        QVERIFY2(t.out.contains(QString::fromStdString("\n" + core.why + "\n")), qPrintable(t.out));
        QVERIFY2(t.out.contains("  use it    " + rec["options"].toString() + "\n"), qPrintable(t.out));
        QVERIFY2(t.out.contains(QStringLiteral("search    %1 candidates: %2 simulated, %3 pruned, in ").arg(core.space).arg(core.simulated).arg(core.pruned)),
                 qPrintable(t.out));
        QVERIFY(t.out.contains(QStringLiteral("\nPareto set: %1 candidates").arg(core.pareto.size())));
    }

    /// Targets nobody meets: exit 3, the nearest, the binding target and what would move it.
    void nothingMeetsTheTargets()
    {
        const QStringList targets{"--battery-per-year", "0.000001"};
        const Result j = plan(QStringList{run_} + fleetArgs + targets + QStringList{"--json", "--periods", "24,72"});
        QCOMPARE(j.code, 3);
        const QJsonObject got = json(j);
        QVERIFY(got["recommended"].isNull());
        QCOMPARE(got["binding"].toString(), QStringLiteral("fleet.targets.battery_per_year"));
        const QJsonObject nearest = got["nearest"].toObject();
        const QJsonObject miss = nearest["misses"].toArray()[0].toObject();
        QCOMPARE(miss["achieved"].toDouble(), nearest["battery_per_year"].toDouble());
        QCOMPARE(miss["asked"].toDouble(), 0.000001);
        QVERIFY(!got["moves"].toArray().isEmpty());
        for (const QJsonValue& c : got["pareto"].toArray())
            QVERIFY(c.toObject()["setting"].toObject()["round_period_h"].toDouble() == 24
                    || c.toObject()["setting"].toObject()["round_period_h"].toDouble() == 72);
        const Result t = plan(QStringList{run_} + fleetArgs + targets);
        QCOMPARE(t.code, 3);
        QVERIFY2(t.out.contains(QStringLiteral("\nNo candidate meets every target. The nearest is ")), qPrintable(t.out));
        QVERIFY(t.out.contains(QStringLiteral("\nWhat would move fleet.targets.battery_per_year:\n  - ")));
    }

    /// The plan's own fleet.targets are the targets when no option gives them.
    void targetsFromThePlan()
    {
        const QString planned = tmp_.filePath("planned");
        dpu::Plan p = plan_;
        p.fleet.targets.batteryPerYear = 0.000001;
        dpu::test::writeRunFolder(planned.toStdString(), p, dpu::loadRunFolder(run_.toStdString()).records, "finished", {1000, 10});
        const Result r = plan({planned, "--json", "--keep", "period,order,repairs", "--no-estimates"});
        QCOMPARE(r.code, 3);
        QCOMPARE(json(r)["targets"].toObject()["battery_per_year"].toDouble(), 0.000001);
        QVERIFY(json(r)["cells_to_run"].toArray().isEmpty());
        QCOMPARE(plan({planned, "--json", "--battery-per-year", "1000", "--keep", "period,order,repairs"}).code, 0);
    }

    /// --sweep-out writes the cells to run as a sweep file that dpu-cli sweep reads: one cell per
    /// cell to run, in order, each carrying the keys the JSON names; without cells nothing is written.
    void sweepOutWritesTheCellsToRun()
    {
        const QString file = tmp_.filePath("cells.sweep.json");
        // A battery nobody's runs keep within: the cell at half DPU's k falls less short than the nearest.
        const QStringList targets{"--battery-per-year", "0.000001", "--periods", "24,72"};
        const Result j = plan(QStringList{run_} + fleetArgs + targets + QStringList{"--json", "--sweep-out", file});
        QVERIFY2(j.code == 3, qPrintable(j.err));
        const QJsonArray cells = json(j)["cells_to_run"].toArray();
        QVERIFY2(!cells.isEmpty(), qPrintable(j.out.left(2000)));
        QCOMPARE(json(j)["sweep_out"].toString(), file);
        const dpu::Sweep sweep = dpu::loadSweepFile(file.toStdString());
        QVERIFY(sweep.listed);
        QCOMPARE(sweep.cells.size(), size_t(cells.size()));
        for (int i = 0; i < cells.size(); ++i) {
            const dpu::Plan& cell = sweep.cells[size_t(i)].plan;
            const nlohmann::json planJson = nlohmann::json::parse(dpu::planToJson(cell));
            const QJsonObject keys = cells[i].toObject()["keys"].toObject();
            QVERIFY(!keys.isEmpty());
            for (auto it = keys.begin(); it != keys.end(); ++it) {
                const std::string pointer = "/" + QString(it.key()).replace('.', '/').toStdString();
                const nlohmann::json want = nlohmann::json::parse(QJsonDocument(QJsonArray{it.value()}).toJson().toStdString())[0];
                QVERIFY2(planJson.at(nlohmann::json::json_pointer(pointer)) == want, it.key().toUtf8().constData());
            }
            // The rest is the run's plan, with the cell's strategy alone.
            QCOMPARE(cells[i].toObject()["run"].toString(), QStringLiteral("run"));
            QCOMPARE(cell.strategies.size(), size_t(1));
            QVERIFY(cells[i].toObject()["candidate"].toObject()["strategy"].toString().startsWith(QString::fromStdString(cell.strategies[0])));
            QCOMPARE(cell.seeds, plan_.seeds);
            QCOMPARE(cell.split.rounds, plan_.split.rounds);
        }
        const Result t = plan(QStringList{run_} + fleetArgs + targets + QStringList{"--sweep-out", file});
        QCOMPARE(t.code, 3);
        QVERIFY2(t.out.contains("  queue them: dpu-cli sweep run " + file + " --out DIR"), qPrintable(t.out));

        // No cells to run: a clear message, exit 4, nothing written.
        const QString none = tmp_.filePath("none.sweep.json");
        const Result n = plan(QStringList{run_} + fleetArgs + targets + QStringList{"--no-estimates", "--sweep-out", none});
        QCOMPARE(n.code, 4);
        QVERIFY2(n.err.contains("--sweep-out " + none + ": the plan names no cell to run"), qPrintable(n.err));
        QVERIFY(!QFile::exists(none));
        // What no sweep file may be: refused by name before the search.
        QVERIFY(QFile::link(file, tmp_.filePath("link.json")));
        for (const auto& [path, found] : std::vector<std::pair<QString, QString>>{
                 {tmp_.path(), "a folder"}, {tmp_.filePath("link.json"), "a symbolic link"}, {"/dev/null", "a device node"}}) {
            const Result r = plan(QStringList{run_} + fleetArgs + QStringList{"--sweep-out", path});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--sweep-out: expected a new file or a regular file to replace, found " + found + ": " + path),
                     qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
    }

    void badTargetsNameTheOption()
    {
        const struct {
            QStringList args;
            const char* message;
        } cases[] = {
            {{"--fresh-share", "1.5"}, "--fresh-share: expected a share of the fleet in (0, 1], found '1.5'"},
            {{"--battery-per-year", "0"}, "--battery-per-year: expected a share of a battery in (0, 1000], found '0'"},
            {{"--airtime-per-day", "nan"}, "--airtime-per-day: expected a number of seconds per day in (0, 86400], found 'nan'"},
            {{"--fresh-days", "3"}, "--fresh-days: a freshness measure needs the share of the fleet it must hold for; expected "
                                    "fleet.targets.fresh_share set or no fleet.targets.fresh_days, found fleet.targets.fresh_share unset"},
            {{"--fresh-share", "0.9"}, "--fresh-share: says what share of the fleet is fresh; expected fleet.targets.fresh_days or "
                                       "fleet.targets.accuracy_gap with it, found neither"},
            {{"--fresh-share", "0.9", "--fresh-days", "3", "--accuracy-gap", "1"},
             "--accuracy-gap: measures freshness another way than fleet.targets.fresh_days; expected one of them, found both"},
            {{"--periods", "24,x"}, "--periods: expected hours between rounds"},
            {{"--keep", "colour"}, "--keep: expected period, delivery, sub-band, catch-up, order or repairs, found 'colour'"},
        };
        for (const auto& c : cases) {
            const Result r = plan(QStringList{run_} + c.args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(QString::fromUtf8(c.message)), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        QCOMPARE(plan({}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliFleetPlan)
#include "test_cli_fleet_plan.moc"
