// SPDX-License-Identifier: MIT
// Run folders read back: plan and records, run.json, completeness, errors naming the file and line, labelled exports.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <sstream>

namespace {

dpu::RoundRecord record(const char* strategy, uint64_t seed, int round, double accuracy)
{
    dpu::RoundRecord r = dpu::test::roundRecord(strategy, seed, round, accuracy, 1000.0 * round, 900 * round);
    r.layers = {{"fc1.weight", 100, 3}};
    return r;
}

void writeText(const QString& path, const std::string& text)
{
    dpu::test::writeFile(path.toStdString(), std::vector<uint8_t>(text.begin(), text.end()));
}

QString makeRun(const QString& dir, const dpu::Plan& plan, const std::vector<dpu::RoundRecord>& records,
                const std::string& state = {})
{
    return QString::fromStdString(dpu::test::writeRunFolder(dir.toStdString(), plan, records, state));
}

dpu::Plan twoRoundPlan()
{
    dpu::Plan p;
    p.name = "two-rounds";
    p.split.rounds = 2;
    p.strategies = {"dpu", "fu"};
    p.seeds = {1};
    p.k = 0.05;
    return p;
}

} // namespace

class TestRunFolder : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void readsPlanRecordsAndStatus()
    {
        const dpu::Plan plan = twoRoundPlan();
        const std::vector<dpu::RoundRecord> records{record("dpu", 1, 1, 0.5), record("fu", 1, 1, 0.6),
                                                    record("dpu", 1, 2, 0.7), record("fu", 1, 2, 0.8)};
        const QString dir = makeRun(tmp_.filePath("a"), plan, records, "finished");
        QVERIFY(dpu::isRunFolder(dir.toStdString()));
        const dpu::RunFolder run = dpu::loadRunFolder(dir.toStdString());
        QCOMPARE(run.plan.name, std::string("two-rounds"));
        QCOMPARE(run.plan.k, 0.05);
        QCOMPARE(run.records.size(), size_t(4));
        QCOMPARE(run.records[3].strategy, std::string("fu"));
        QCOMPARE(run.records[3].testAccuracy, 0.8);
        QCOMPARE(run.records[0].layers.at(0).updated, int64_t(3));
        QVERIFY(run.status.known);
        QCOMPARE(run.status.state, std::string("finished"));
        QCOMPARE(run.status.host, std::string("testhost"));
        QCOMPARE(run.status.partialWeights, int64_t(1000));
        QVERIFY(run.complete());
        QVERIFY(!run.hasBundles);
        QCOMPARE(run.label(), std::string("a"));
        QDir(dir).mkdir("bundles");
        QVERIFY(dpu::loadRunFolder((dir + "/").toStdString()).hasBundles);
        QCOMPARE(dpu::loadRunFolder((dir + "/").toStdString()).label(), std::string("a"));
    }

    /// A run folder, a folder of runs and a sweep folder (its cells/ID) each name their runs.
    void findsTheRunsAFolderNames()
    {
        const dpu::Plan plan = twoRoundPlan();
        const std::vector<dpu::RoundRecord> records{record("dpu", 1, 1, 0.5)};
        const QString parent = tmp_.filePath("found");
        const QString b = makeRun(parent + "/b", plan, records, "finished");
        const QString a = makeRun(parent + "/a", plan, records, "finished");
        QCOMPARE(dpu::findRunFolders(a.toStdString()), std::vector<std::string>{a.toStdString()});
        QCOMPARE(dpu::findRunFolders(parent.toStdString()), (std::vector<std::string>{a.toStdString(), b.toStdString()}));
        const QString sweep = tmp_.filePath("found-sweep");
        const QString cell = makeRun(sweep + "/cells/0123456789ab", plan, records, "finished");
        QVERIFY(QDir().mkpath(sweep + "/cells/pending-cell")); // a cell that has not run: not a run
        writeText(sweep + "/sweep.json", "{}");
        QCOMPARE(dpu::findRunFolders(sweep.toStdString()), std::vector<std::string>{cell.toStdString()});
        const QString empty = tmp_.filePath("found-none");
        QVERIFY(QDir().mkpath(empty + "/x"));
        const std::string none = dpu::test::thrownMessage<dpu::Error>([&] { dpu::findRunFolders(empty.toStdString()); });
        QVERIFY2(none.find("not a run folder") != std::string::npos && none.find(empty.toStdString()) == 0, none.c_str());
    }

    void completenessFollowsStatusOrRounds()
    {
        const dpu::Plan plan = twoRoundPlan();
        const std::vector<dpu::RoundRecord> all{record("dpu", 1, 1, 0.5), record("fu", 1, 1, 0.6),
                                                record("dpu", 1, 2, 0.7), record("fu", 1, 2, 0.8)};
        // Stopped per run.json, though every record is there: the user stopped it.
        QVERIFY(!dpu::loadRunFolder(makeRun(tmp_.filePath("stopped"), plan, all, "stopped").toStdString()).complete());
        // No run.json (an older folder): whole when every seed and strategy reached round 2.
        QVERIFY(dpu::loadRunFolder(makeRun(tmp_.filePath("old-whole"), plan, all).toStdString()).complete());
        const std::vector<dpu::RoundRecord> part(all.begin(), all.begin() + 3);
        QVERIFY(!dpu::loadRunFolder(makeRun(tmp_.filePath("old-part"), plan, part).toStdString()).complete());
        QVERIFY(!dpu::loadRunFolder(makeRun(tmp_.filePath("old-empty"), plan, {}).toStdString()).complete());
    }

    void errorsNameTheFileAndLine()
    {
        const std::string missing = tmp_.filePath("nope").toStdString();
        QVERIFY(!dpu::isRunFolder(missing));
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(missing), missing, "no such folder");

        const QString noPlan = tmp_.filePath("noplan");
        QDir().mkpath(noPlan);
        writeText(noPlan + "/results.jsonl", "");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(noPlan.toStdString()), "noplan/plan.json", "missing");

        const QString noResults = tmp_.filePath("noresults");
        writeText(noResults + "/plan.json", dpu::planToJson(twoRoundPlan()));
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(noResults.toStdString()), "noresults/results.jsonl", "missing");

        const QString badPlan = makeRun(tmp_.filePath("badplan"), twoRoundPlan(), {});
        writeText(badPlan + "/plan.json", "{\"k\": 7}");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badPlan.toStdString()), "k", "(0, 1]");

        const QString corrupt = makeRun(tmp_.filePath("corrupt"), twoRoundPlan(), {record("dpu", 1, 1, 0.5)});
        writeText(corrupt + "/results.jsonl", dpu::recordToJson(record("dpu", 1, 1, 0.5)) + "\n\n{\"strategy\": \"dpu\", trunc\n");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(corrupt.toStdString()), "corrupt/results.jsonl", "line 3");

        const QString badStatus = makeRun(tmp_.filePath("badstatus"), twoRoundPlan(), {}, "finished");
        writeText(badStatus + "/run.json", "{\"state\": \"exploded\", \"rounds\": 1, \"partial_weights\": 1, \"dense_weights\": 1}");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badStatus.toStdString()), "badstatus/run.json", "exploded");
        // More bias codes than dense values, or a negative count: refused by name.
        writeText(badStatus + "/run.json", R"({"state": "finished", "rounds": 1, "partial_weights": 10, "dense_weights": 4,
                                               "coded_dense_weights": 5, "coded_dense_scales": 1})");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badStatus.toStdString()), "badstatus/run.json",
                                 "coded_dense_weights 5");
        writeText(badStatus + "/run.json", R"({"state": "finished", "rounds": 1, "partial_weights": 10, "dense_weights": 4,
                                               "coded_dense_weights": 4, "coded_dense_scales": -1})");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badStatus.toStdString()), "badstatus/run.json",
                                 "coded_dense_scales: expected a whole number from 0 to 9223372036854775807, found -1");
        // A count that is no whole number is refused as written, never converted (1e308 would
        // not fit an integer at all, 0.5 would read as 0).
        const std::pair<const char*, const char*> counts[] = {
            {"1e308", "1e+308"}, {"0.5", "0.5"}, {"-1", "-1"}, {"\"3\"", "\"3\""}, {"18446744073709551615", "18446744073709551615"}};
        for (const auto& [written, found] : counts) {
            writeText(badStatus + "/run.json", std::string(R"({"state": "finished", "rounds": 1, "dense_weights": 4, "partial_weights": )")
                                                   + written + "}");
            DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badStatus.toStdString()), "badstatus/run.json",
                                     std::string("partial_weights: expected a whole number from 0 to 9223372036854775807, found ") + found);
        }
        writeText(badStatus + "/run.json", R"({"state": "finished", "rounds": 1e10, "partial_weights": 1, "dense_weights": 1})");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badStatus.toStdString()), "badstatus/run.json",
                                 "rounds: expected a whole number from 0 to 2147483647, found 10000000000.0");
        writeText(badStatus + "/run.json", R"({"state": "finished", "partial_weights": 1, "dense_weights": 1})");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::loadRunFolder(badStatus.toStdString()), "badstatus/run.json",
                                 "rounds: missing");
    }

    /// run.json's counts of an INT8 model's biases as codes come back, price the run's cost model
    /// (runCostModel) and are written only where there are some; older files read as none.
    void statusCarriesBiasCodes()
    {
        dpu::RunStatus s;
        s.known = true;
        s.state = "finished";
        s.partialWeights = 668672;
        s.denseWeights = 1034;
        QVERIFY(dpu::runStatusToJson(s).find("coded_dense") == std::string::npos);
        s.codedDenseWeights = 1034;
        s.codedDenseScales = 3;
        const dpu::RunStatus back = dpu::runStatusFromJson(dpu::runStatusToJson(s));
        QCOMPARE(back.codedDenseWeights, int64_t(1034));
        QCOMPARE(back.codedDenseScales, int64_t(3));
        dpu::RunFolder run;
        run.status = back;
        const dpu::CostModel cost = dpu::runCostModel(run);
        QCOMPARE(cost.partialWeights, int64_t(668672));
        QCOMPARE(cost.denseWeights, int64_t(1034));
        QCOMPARE(cost.codedDenseWeights, int64_t(1034));
        QCOMPARE(cost.codedDenseScales, int64_t(3));
    }

    void labelledExportsTellRunsApart()
    {
        dpu::LabelledRun a{"run-a", "sweep-k0.01", 0.01, {record("dpu", 1, 1, 0.5)}};
        dpu::LabelledRun b{"run-b", "sweep, k0.1", 0.1, {record("dpu", 1, 1, 0.75)}, "q4"};
        const std::string csv = dpu::labelledRunsToCsv({a, b});
        std::istringstream lines(csv);
        std::string header, rowA, rowB, extra;
        std::getline(lines, header);
        std::getline(lines, rowA);
        std::getline(lines, rowB);
        QVERIFY(!std::getline(lines, extra));
        QVERIFY(header.rfind("run,plan,k,coding,strategy,seed,round,", 0) == 0);
        QVERIFY2(rowA.rfind("run-a,sweep-k0.01,0.01,fp32,dpu,1,1,", 0) == 0, rowA.c_str());
        QVERIFY2(rowB.rfind("run-b,\"sweep, k0.1\",0.1,q4,dpu,1,1,", 0) == 0, rowB.c_str()); // quoted: a comma
        // Same number of cells in the header and a row (the quoted comma is one cell).
        QCOMPARE(std::count(header.begin(), header.end(), ','), std::count(rowA.begin(), rowA.end(), ','));

        const QJsonArray json = QJsonDocument::fromJson(QByteArray::fromStdString(dpu::labelledRunsToJson({a, b}))).array();
        QCOMPARE(json.size(), 2);
        const QJsonObject second = json[1].toObject();
        QCOMPARE(second["run"].toString(), QStringLiteral("run-b"));
        QCOMPARE(second["plan"].toString(), QStringLiteral("sweep, k0.1"));
        QCOMPARE(second["k"].toDouble(), 0.1);
        QCOMPARE(second["coding"].toString(), QStringLiteral("q4"));
        QCOMPARE(second["test_accuracy"].toDouble(), 0.75);
        // Each object still reads back as a record.
        const QByteArray first = QJsonDocument(json[0].toObject()).toJson(QJsonDocument::Compact);
        QCOMPARE(dpu::recordFromJson(first.toStdString()).testAccuracy, 0.5);
    }
};

QTEST_APPLESS_MAIN(TestRunFolder)
#include "test_run_folder.moc"
