// SPDX-License-Identifier: MIT
// dpu-cli sweep: a 4-cell sweep run locally two at a time, its status, the merged results, a re-run that skips finished cells, and sweep cancel.
#include "SweepCliSupport.h"
#include "TestSupport.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <map>
#include <set>

namespace {

const QByteArray kSweep = dpu::test::tinySweepJson(2);

using Result = dpu::test::CliResult;
using dpu::test::cli;
using dpu::test::readAll;

void writeAll(const QString& path, const QByteArray& data)
{
    QVERIFY2(dpu::test::writeAll(path, data), qPrintable(path));
}

std::map<QString, QString> states(const QString& out)
{
    return dpu::test::statusStates(out);
}

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsStatusMergeAndSkipsFinishedCells()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString sweepFile = tmp.filePath("sweep.json"), out = tmp.filePath("out");
        writeAll(sweepFile, kSweep);

        const Result run = cli({"sweep", "run", sweepFile, "--out", out, "--jobs", "2"});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("4 cells, 0 done, 4 to run, 2 at a time"), qPrintable(run.out));
        QVERIFY(QFile::exists(out + "/sweep.json"));
        const QStringList ids = QDir(out + "/cells").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(ids.size(), 4);

        const Result status = cli({"sweep", "status", out});
        QCOMPARE(status.code, 0);
        const auto st = states(status.out);
        QCOMPARE(st.size(), size_t(4));
        for (const QString& id : ids)
            QVERIFY2(st.count(id) && st.at(id) == "done", qPrintable(status.out));
        QVERIFY(status.out.contains("4 cells: 4 done, 0 running, 0 pending, 0 failed"));

        const Result merge = cli({"sweep", "merge", out});
        QVERIFY2(merge.code == 0, qPrintable(merge.err));
        std::map<QString, int> perCell;
        std::set<std::pair<double, QString>> axes;
        for (const QByteArray& line : readAll(out + "/results.jsonl").split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject r = QJsonDocument::fromJson(line).object();
            const QString cell = r["cell"].toString();
            QVERIFY2(ids.contains(cell), qPrintable(cell));
            ++perCell[cell];
            // The tags are the cell's own plan values.
            const QJsonObject plan = QJsonDocument::fromJson(readAll(out + "/cells/" + cell + "/plan.json")).object();
            const QJsonObject a = r["axes"].toObject();
            QCOMPARE(a["k"].toDouble(), plan["k"].toDouble());
            QCOMPARE(a["bundle.values"].toString(), plan["bundle"].toObject()["values"].toString());
            axes.insert({a["k"].toDouble(), a["bundle.values"].toString()});
            QVERIFY(r.contains("test_accuracy") || r.contains("round"));
        }
        QCOMPARE(perCell.size(), size_t(4));
        QCOMPARE(axes.size(), size_t(4));
        for (const auto& [cell, n] : perCell)
            QCOMPARE(n, perCell.begin()->second); // every cell ran the same rounds
        QVERIFY(perCell.begin()->second >= 2);

        // A second run finds every cell finished and starts nothing.
        const QString firstResults = out + "/cells/" + ids[0] + "/results.jsonl";
        const QByteArray before = readAll(firstResults);
        const Result again = cli({"sweep", "run", sweepFile, "--out", out, "--jobs", "2"});
        QVERIFY2(again.code == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.out.contains("4 cells, 4 done, 0 to run"), qPrintable(again.out));
        QCOMPARE(readAll(firstResults), before);

        // A failed cell (its run gone, a non-zero exit recorded) shows as failed and is the only one re-run.
        const QString broken = out + "/cells/" + ids[1];
        QVERIFY(QFile::remove(broken + "/run.json"));
        writeAll(broken + "/exit.json", R"({"code": 1})");
        QCOMPARE(states(cli({"sweep", "status", out}).out).at(ids[1]), QString("failed"));
        const Result retry = cli({"sweep", "run", sweepFile, "--out", out, "--jobs", "2"});
        QVERIFY2(retry.code == 0, qPrintable(retry.out + retry.err));
        QVERIFY2(retry.out.contains("4 cells, 3 done, 1 to run"), qPrintable(retry.out));
        QVERIFY2(retry.out.contains(ids[1] + " done"), qPrintable(retry.out));
        QCOMPARE(states(cli({"sweep", "status", out}).out).at(ids[1]), QString("done"));
    }

    void aStoppedSweepResumes()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString sweepFile = tmp.filePath("sweep.json"), out = tmp.filePath("out");
        writeAll(sweepFile, QByteArray(kSweep).replace("\"rounds\": 2", "\"rounds\": 4"));
        QProcess p;
        p.start(dpu::test::cliExe(),
                {"sweep", "run", sweepFile, "--out", out, "--jobs", "1"});
        QVERIFY(p.waitForStarted());
        // Stop once the first cell has finished a round: it is mid-run and the other three wait.
        bool started = false;
        for (int i = 0; i < 1200 && !started && p.state() == QProcess::Running; ++i) {
            p.waitForFinished(100);
            for (const QString& id : QDir(out + "/cells").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                started = started || QFile::exists(out + "/cells/" + id + "/results.jsonl");
        }
        QVERIFY(started);
        // `sweep cancel` from another process: the running sweep notices, stops its cell and ends as Ctrl-C does.
        const Result cancel = cli({"sweep", "cancel", out});
        QVERIFY2(cancel.code == 0 && cancel.out.contains("stopped its cells"), qPrintable(cancel.out + cancel.err));
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(!QFile::exists(out + "/cancel.json")); // the request is spent: the next run is not cancelled
        const Result idle = cli({"sweep", "cancel", out});
        QVERIFY2(idle.code == 0 && idle.out.contains("nothing to cancel"), qPrintable(idle.out));
        const Result status = cli({"sweep", "status", out});
        QVERIFY2(status.out.contains(" 0 running") && status.out.contains(" 0 failed"), qPrintable(status.out));
        // The cells it never started are cancelled with it, not shown as waiting.
        QVERIFY2(status.out.contains(" 0 pending") && status.out.contains(" cancelled"), qPrintable(status.out));
        for (const auto& [id, state] : states(status.out))
            QVERIFY2(state == "done" || state == "cancelled", qPrintable(status.out));
        QVERIFY2(!status.out.contains("4 cells: 4 done"), qPrintable(status.out));

        const Result resumed = cli({"sweep", "run", sweepFile, "--out", out, "--jobs", "2"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.out + resumed.err));
        QVERIFY2(cli({"sweep", "status", out}).out.contains("4 cells: 4 done"), qPrintable(resumed.out));
        QVERIFY(cli({"sweep", "merge", out}).code == 0);
        std::map<QString, int> perCell;
        for (const QByteArray& line : readAll(out + "/results.jsonl").split('\n'))
            if (!line.isEmpty())
                ++perCell[QJsonDocument::fromJson(line).object()["cell"].toString()];
        QCOMPARE(perCell.size(), size_t(4));
        for (const auto& [cell, n] : perCell)
            QCOMPARE(n, 4); // one dpu record per round, the stopped cell's included, none twice
    }

    void clearErrors()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString bad = tmp.filePath("bad.json");
        writeAll(bad, R"({"base": {}, "axes": {"k": [0.01, 3]}})");
        const Result invalid = cli({"sweep", "run", bad, "--out", tmp.filePath("o")});
        QCOMPARE(invalid.code, 1);
        QVERIFY2(invalid.err.contains("bad.json") && invalid.err.contains("k = 3"), qPrintable(invalid.err));
        QVERIFY(!QFile::exists(tmp.filePath("o"))); // nothing written before every cell is checked
        writeAll(tmp.filePath("s.json"), kSweep);
        QCOMPARE(cli({"sweep", "run", tmp.filePath("s.json"), "--out", tmp.filePath("o"), "--backend", "cloud"}).code, 2);
        QCOMPARE(cli({"sweep", "run", tmp.filePath("s.json"), "--out", tmp.filePath("o"), "--backend", "slurm",
                      "--throttle", "-1"}).code, 2);
        QCOMPARE(cli({"sweep", "cancel"}).code, 2);
        QCOMPARE(cli({"sweep", "run", tmp.filePath("s.json"), "--out", tmp.filePath("o"), "--jobs", "0"}).code, 2);
        QCOMPARE(cli({"sweep", "run", tmp.filePath("s.json")}).code, 2);
        QCOMPARE(cli({"sweep", "frobnicate"}).code, 2);
        const Result noFolder = cli({"sweep", "status", tmp.filePath("nowhere")});
        QCOMPARE(noFolder.code, 1);
        QVERIFY2(noFolder.err.contains("nowhere/sweep.json"), qPrintable(noFolder.err));
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
