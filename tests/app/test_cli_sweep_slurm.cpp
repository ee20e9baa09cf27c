// SPDX-License-Identifier: MIT
// dpu-cli sweep on a real one-node Slurm: a 4-cell job array, one task scancelled mid-run, resubmitted, merged equal to the local backend's.
#include "SweepCliSupport.h"
#include "TestSupport.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <unistd.h>
#include <map>

namespace {

// Four short cells of 3 rounds: long enough to cancel one mid-run.
const QByteArray kSweep = dpu::test::tinySweepJson(3);

using Result = dpu::test::CliResult;
using dpu::test::readAll;
using dpu::test::mergedRecords;

const QString kSlurmScript = QStringLiteral(DPU_SOURCE_DIR "/tests/support/one-node-slurm.sh");

/// The one-node cluster of this test; stopped when it goes out of scope (a failed check returns
/// early), and by the script's watchdog should this process die without unwinding.
struct OneNodeSlurm {
    QString dir, error;
    bool up = false;
    explicit OneNodeSlurm(const QString& folder) : dir(folder)
    {
        QProcess p;
        p.start("bash", {kSlurmScript, "start", dir, "--owner", QString::number(getpid())});
        p.waitForFinished(60000);
        up = p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        error = QString::fromUtf8(p.readAllStandardError());
        if (up)
            qputenv("SLURM_CONF", (dir + "/slurm.conf").toUtf8()); // the tools and dpu-cli's children find it
    }
    ~OneNodeSlurm()
    {
        QProcess p;
        p.start("bash", {kSlurmScript, "stop", dir});
        p.waitForFinished(60000);
        qunsetenv("SLURM_CONF");
    }
};

QString slurmTool(const QString& name)
{
    return QStandardPaths::findExecutable(name);
}

} // namespace

class TestCliSweepSlurm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void slurmSweepSurvivesACancelledTaskAndEqualsLocal()
    {
        if (getuid() != 0)
            QSKIP("not root: the one-node test Slurm (SlurmUser=root) cannot start; CI runs this as root");
        QVERIFY2(!slurmTool("slurmctld").isEmpty() && !slurmTool("munged").isEmpty(),
                 "slurm-wlm and munge are not installed: run scripts/deps");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        OneNodeSlurm slurm(tmp.filePath("slurm"));
        QVERIFY2(slurm.up, qPrintable("the one-node Slurm did not start: " + slurm.error));
        const QString sweepFile = tmp.filePath("sweep.json"), out = tmp.filePath("slurm-out");
        QVERIFY(dpu::test::writeAll(sweepFile, kSweep));

        // Submit and follow; two tasks at a time, one CPU each (this machine's two cores).
        QProcess follow;
        follow.start(dpu::test::cliExe(), {"sweep", "run", sweepFile, "--out", out, "--backend", "slurm",
                                           "--cpus-per-task", "1", "--throttle", "2", "--poll", "0.5"});
        QVERIFY(follow.waitForStarted());
        for (int i = 0; i < 600 && !QFile::exists(out + "/backend.json") && follow.state() == QProcess::Running; ++i)
            follow.waitForFinished(100);
        // Submitted: the folder's cells are in Slurm (two cells' worth of time at least), so a local
        // run of it would run them twice, and is refused.
        const Result twice = dpu::test::cli({"sweep", "run", sweepFile, "--out", out, "--jobs", "2"});
        QVERIFY2(twice.code == 1 && twice.err.contains("still queued or running in Slurm"), qPrintable(twice.err));
        // Cancel the first task seen with one finished round (of three): it is mid-run.
        QString cancelled, task;
        for (int i = 0; i < 1800 && cancelled.isEmpty() && follow.state() == QProcess::Running; ++i) {
            follow.waitForFinished(100);
            const QJsonObject record = QJsonDocument::fromJson(readAll(out + "/backend.json")).object();
            const QJsonArray subs = record["submissions"].toArray();
            if (subs.isEmpty())
                continue;
            const QJsonObject sub = subs[0].toObject();
            const QJsonArray cells = sub["cells"].toArray();
            for (int t = 0; t < cells.size() && cancelled.isEmpty(); ++t) {
                const QString cell = cells[t].toString();
                if (readAll(out + "/cells/" + cell + "/results.jsonl").count('\n') == 1) {
                    cancelled = cell;
                    task = sub["job"].toString() + "_" + QString::number(t);
                }
            }
        }
        if (cancelled.isEmpty()) // (a QVERIFY2 message is built even when it passes: read the output only here)
            QFAIL(qPrintable("no cell finished a round: " + follow.readAllStandardOutput() + follow.readAllStandardError()));
        QProcess scancel;
        scancel.start(slurmTool("scancel"), {task});
        QVERIFY(scancel.waitForFinished(30000));
        QCOMPARE(scancel.exitCode(), 0);
        QVERIFY(follow.waitForFinished(300000));
        const QString followed = QString::fromUtf8(follow.readAllStandardOutput() + follow.readAllStandardError());
        QVERIFY2(follow.exitCode() == 1, qPrintable(followed)); // not all done: one was cancelled
        QVERIFY2(followed.contains("4 submitted") && followed.contains(cancelled + " stopped"), qPrintable(followed));
        QVERIFY2(followed.contains("3 done, 0 running, 1 pending, 0 failed"), qPrintable(followed));

        // Status calls it cancelled, names the task and Slurm's word for it; the cell kept its finished round.
        const Result status = dpu::test::cli({"sweep", "status", out});
        QCOMPARE(status.code, 0);
        const QString line = status.out.split('\n').filter(cancelled).value(0);
        QVERIFY2(line.contains("cancelled") && line.contains(task), qPrintable(status.out));
        QVERIFY(readAll(out + "/cells/" + cancelled + "/results.jsonl").count('\n') >= 1);
        QCOMPARE(QJsonDocument::fromJson(readAll(out + "/cells/" + cancelled + "/exit.json")).object()["code"].toInt(), 130);

        // Again: only the cancelled cell is resubmitted, and resumes.
        const Result again = dpu::test::cli({"sweep", "run", sweepFile, "--out", out, "--backend", "slurm",
                                                "--cpus-per-task", "1", "--poll", "0.5"}, 300000);
        QVERIFY2(again.code == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.out.contains("3 done, 0 still in Slurm, 1 submitted"), qPrintable(again.out));
        QVERIFY2(again.out.contains("4 cells: 4 done"), qPrintable(again.out));
        QVERIFY(QFile::exists(out + "/slurm/submit-2.sbatch"));
        QVERIFY(cli0(dpu::test::cli({"sweep", "merge", out})));

        // The same sweep on this machine, one thread per cell as on Slurm: the same records.
        const QString local = tmp.filePath("local-out");
        const Result localRun = dpu::test::cli({"sweep", "run", sweepFile, "--out", local, "--jobs", "2"}, 300000);
        QVERIFY2(localRun.code == 0, qPrintable(localRun.out + localRun.err));
        QVERIFY(cli0(dpu::test::cli({"sweep", "merge", local})));
        const auto onSlurm = mergedRecords(out), onLocal = mergedRecords(local);
        QCOMPARE(onSlurm.size(), size_t(4 * 3));
        QCOMPARE(onLocal.size(), onSlurm.size());
        for (const auto& [key, record] : onSlurm) {
            QVERIFY2(onLocal.count(key), qPrintable(key));
            QVERIFY2(onLocal.at(key) == record, qPrintable(key + ": " + QJsonDocument(record).toJson(QJsonDocument::Compact) +
                                                           " vs " + QJsonDocument(onLocal.at(key)).toJson(QJsonDocument::Compact)));
        }
    }

private:
    static bool cli0(const Result& r)
    {
        if (r.code != 0)
            qWarning("%s", qPrintable(r.out + r.err));
        return r.code == 0;
    }
};

QTEST_GUILESS_MAIN(TestCliSweepSlurm)
#include "test_cli_sweep_slurm.moc"
