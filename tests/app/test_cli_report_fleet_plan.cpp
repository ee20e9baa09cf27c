// SPDX-License-Identifier: MIT
// dpu-cli report --fleet-plan: its page's words give the answer dpu-cli fleet plan --json gives on the same runs and options.
#include "ArgList.h"
#include "CliProcess.h"
#include "PdfText.h"
#include "CommandNumbers.h"
#include "ReportFleetPlanOf.h"
#include "RunFixtures.h"
#include "report/ReportFleetPlanText.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

using Result = dpu::test::CliResult;

/// The deployment and its targets: a battery nobody keeps within, so that the plan also names the
/// nearest, what binds and a cell to run; then generous ones with a recommendation.
const QStringList kTight{"--devices", "60", "--link", "lorawan-eu868", "--sf-mix", "7:1,9:1", "--loss", "0.1",
                         "--availability", "0.8", "--battery-per-year", "0.000001", "--periods", "24,72"};
const QStringList kMet{"--devices", "60", "--link", "lorawan-eu868", "--loss", "0.1", "--fresh-share", "0.8",
                       "--fresh-days", "2", "--battery-per-year", "0.5", "--keep", "order,repairs"};

QJsonObject fleetPlanJson(const QString& run, const QStringList& options)
{
    const Result r = dpu::test::runCli(QStringList{"fleet", "plan", run, "--json", "--quiet"} + options, 60000);
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

/// The page's plan as report --fleet-plan makes it from these options (the command's own reading).
dpu::ui::ReportFleetPlan reportPlan(const QString& run, const QStringList& options)
{
    std::vector<std::string> argv;
    for (const QString& o : options)
        argv.push_back(o.toStdString());
    dpu::cli::ArgList args(argv, dpu::cli::numberOptionsOf("report"));
    const dpu::cli::FleetPlanArgs given = dpu::cli::readFleetPlanArgs(args);
    const std::optional<dpu::ui::ReportFleetPlan> planned
        = dpu::cli::reportFleetPlanOf(given, dpu::cli::fleetPlanRunsOf({run.toStdString()}));
    return planned ? *planned : dpu::ui::ReportFleetPlan{};
}

QString html(const QString& text)
{
    return text.toHtmlEscaped();
}

} // namespace

class TestCliReportFleetPlan : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        // Five rounds: DPU deploys 2000 B deltas in rounds 1, 2, 3 and 5, FU its 4040 B model every round.
        run_ = tmp_.filePath("run");
        const dpu::Plan plan = dpu::test::sweepPlan(0.01, 5, {"dpu", "fu"});
        const auto records = dpu::test::joined(
            {dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75, 0.74, 0.80}, {300, 300, 300, 0, 300}, {2000, 2000, 2000, 0, 2000}, 4040),
             dpu::test::strategyRounds("fu", 1, {0.62, 0.72, 0.78, 0.80, 0.82}, {4040, 4040, 4040, 4040, 4040}, {4040, 4040, 4040, 4040, 4040}, 4040)});
        dpu::test::writeRunFolder(run_.toStdString(), plan, records, "finished", {1000, 10});
    }

    /// One answer per question: the page's words name what fleet plan --json names.
    void thePageSaysWhatFleetPlanSays_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<bool>("recommends");
        QTest::newRow("nothing meets the targets") << kTight << false;
        QTest::newRow("a recommendation") << kMet << true;
    }
    void thePageSaysWhatFleetPlanSays()
    {
        QFETCH(QStringList, options);
        QFETCH(bool, recommends);
        const QJsonObject cli = fleetPlanJson(run_, options);
        QVERIFY(!cli.isEmpty());
        QCOMPARE(!cli["recommended"].isNull(), recommends);
        QCOMPARE(cli["cells_to_run"].toArray().isEmpty(), recommends); // the tight targets name a cell to run
        const dpu::ui::ReportFleetPlan page = reportPlan(run_, options);
        QVERIFY(!page.plan.candidates.empty());
        const QString words = dpu::ui::ReportFleetPlanText::words(page);
        QVERIFY2(words.contains(html(cli["why"].toString())), qPrintable(words));
        QVERIFY(words.contains(QStringLiteral("%1 candidates in the space, %2 simulated, %3 pruned")
                                   .arg(cli["space"].toInt()).arg(cli["simulated"].toInt()).arg(cli["pruned"].toInt())));
        const QJsonObject chosen = cli[cli["recommended"].isNull() ? "nearest" : "recommended"].toObject();
        QVERIFY(!chosen.isEmpty());
        const std::optional<size_t> index = page.plan.recommended ? page.plan.recommended : page.plan.nearest;
        QVERIFY(index.has_value());
        QCOMPARE(int(*index), chosen["index"].toInt());
        const dpu::FleetPlanCandidate& c = page.plan.candidates[*index];
        QCOMPARE(QString::fromStdString(c.label), chosen["strategy"].toString());
        QCOMPARE(c.fleetAccuracy, chosen["fleet_accuracy"].toDouble());
        QCOMPARE(c.batteryPerYear, chosen["battery_per_year"].toDouble());
        QCOMPARE(c.freshShare, chosen["fresh_share"].toDouble());
        QVERIFY(words.contains(html(chosen["strategy"].toString())));
        for (const QJsonValue& move : cli["moves"].toArray())
            QVERIFY(words.contains(html(move.toString())));
        for (const QJsonValue& cell : cli["cells_to_run"].toArray())
            QVERIFY(words.contains(html(cell.toObject()["why"].toString())));
        QCOMPARE(page.targets.batteryPerYear, std::optional<double>(cli["targets"].toObject()["battery_per_year"].toDouble()));
        // The Pareto set the page tables is the one fleet plan lists.
        QCOMPARE(int(page.plan.pareto.size()), cli["pareto"].toArray().size());
        for (size_t i = 0; i < page.plan.pareto.size(); ++i)
            QCOMPARE(int(page.plan.pareto[i]), cli["pareto"].toArray()[int(i)].toObject()["index"].toInt());
    }

    /// The command itself: a PDF with the page (its words as fleet plan's), beside --fleet's.
    void theCommandWritesThePage()
    {
        const QString pdf = tmp_.filePath("plan.pdf");
        const Result r = dpu::test::runCli(QStringList{"report", run_, "--out", pdf, "--fleet-plan", "--fleet"} + kTight, 120000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject cli = fleetPlanJson(run_, kTight);
        QVERIFY2(r.out.contains(QStringLiteral("with a fleet page of 2 series and a fleet plan page of %1 candidates")
                                    .arg(cli["simulated"].toInt())), qPrintable(r.out));
        const QString text = dpu::test::pdfText(pdf, false).simplified();
        QVERIFY2(text.contains(QStringLiteral("Fleet plan")), "pdftotext (poppler-utils) reads the report");
        QVERIFY2(text.contains(cli["why"].toString().simplified()), qPrintable(text.right(3000)));
        QVERIFY(text.contains(cli["nearest"].toObject()["strategy"].toString()));
    }

    void searchOptionsNeedTheFleetPlan()
    {
        for (const char* option : {"--periods", "--keep", "--no-estimates", "--exhaustive"}) {
            QStringList args{"report", run_, "--out", tmp_.filePath("x.pdf"), option};
            if (QByteArray(option) == "--periods" || QByteArray(option) == "--keep")
                args << (QByteArray(option) == "--periods" ? "24" : "order");
            const Result r = dpu::test::runCli(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(QString::fromUtf8(option) + " needs --fleet-plan"), qPrintable(r.err));
        }
        const Result loss = dpu::test::runCli({"report", run_, "--out", tmp_.filePath("x.pdf"), "--loss", "0.1"});
        QCOMPARE(loss.code, 2);
        QVERIFY2(loss.err.contains("--loss needs --fleet or --fleet-plan"), qPrintable(loss.err));
        QVERIFY(!QFile::exists(tmp_.filePath("x.pdf")));
    }
};

QTEST_GUILESS_MAIN(TestCliReportFleetPlan)
#include "test_cli_report_fleet_plan.moc"
