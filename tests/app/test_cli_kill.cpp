// SPDX-License-Identifier: MIT
// A real `dpu-cli run` SIGKILLed at 32 random moments of its work, or stopped dead at its file-write
// points, and resumed each time ends with the results and bundles of an uninterrupted run (the
// seconds each round took aside), with no temporary file left behind.
#include "CliProcess.h"
#include "TestSupport.h"
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest/QtTest>
#include <random>
#include <sys/resource.h>

namespace {

// Small enough that a run takes about a second, with every kind of file write in it: results,
// checkpoints, the round-0 device file and bundles of two strategies. The data is Fashion-MNIST's
// first 800 training and 400 test images, uncompressed (fashionMnistSubset): each of the test's
// 80-odd processes then skips decompressing and normalising all 70,000 (about 0.5 s of CPU each).
const char kPlan[] = R"({"name": "kill-resume", "dataset": {"kind": "idx", "path": "%1"},
    "split": {"initial": 200, "per_round": 200, "rounds": 4, "validation": 200},
    "strategies": ["dpu", "fu"], "k": 0.05, "train": {"epochs": 1}, "seeds": [4]})";

// SIGKILLs of the random-kill test, each at a random moment of the run's working life (after its
// first line of output: data loaded, folder opened). Before that line a process is in LibTorch's
// start-up and the data load, which write nothing but data.json (whose write points the write-point
// walk stops at). The 50 kills this replaced were spread over a process's whole life, of which
// that start-up was about a third (measured: first line at 31-38 % of a run), so about 32 of them
// fell in the working life: as many as here.
constexpr int kKills = 32;

using dpu::test::cliExe;

QByteArray slurp(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// results.jsonl without the wall-clock "seconds" of each record, one line per record.
QStringList recordsWithoutTime(const QString& path)
{
    QStringList out;
    for (const QByteArray& line : slurp(path).split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.isEmpty())
            return {QStringLiteral("unparsable line: ") + QString::fromUtf8(line)};
        o.remove(QStringLiteral("seconds"));
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
    return out;
}

/// results.csv without its last column (seconds).
QStringList csvWithoutTime(const QString& path)
{
    QStringList out;
    for (const QString& line : QString::fromUtf8(slurp(path)).split('\n', Qt::SkipEmptyParts))
        out << line.left(line.lastIndexOf(','));
    return out;
}

/// Every file under OUT/bundles, relative path -> bytes.
QMap<QString, QByteArray> bundles(const QString& out)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(out + QStringLiteral("/bundles"), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        files.insert(QDir(out).relativeFilePath(f), slurp(f));
    }
    return files;
}

} // namespace

class TestCliKill : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString plan_, whole_;
    qint64 working_ = 0; // ms of the uninterrupted run from its first line of output to its end

    /// The killed run's folder must hold what the uninterrupted one does.
    void expectSameAsWhole(const QString& killed)
    {
        const QStringList expected = recordsWithoutTime(whole_ + QStringLiteral("/results.jsonl"));
        QCOMPARE(expected.size(), 8); // 4 rounds x 2 strategies
        QCOMPARE(recordsWithoutTime(killed + QStringLiteral("/results.jsonl")), expected);
        QCOMPARE(csvWithoutTime(killed + QStringLiteral("/results.csv")), csvWithoutTime(whole_ + QStringLiteral("/results.csv")));
        const auto a = bundles(whole_), b = bundles(killed);
        QVERIFY(a.size() >= 5); // initial.safetensors and bundles of both strategies
        QCOMPARE(b.keys(), a.keys());
        for (auto it = a.begin(); it != a.end(); ++it)
            QVERIFY2(b.value(it.key()) == it.value(), qPrintable(it.key()));
        // No temporary file is left behind.
        QDirIterator left(killed, {QStringLiteral("*.tmp*")}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY2(!left.hasNext(), qPrintable(left.hasNext() ? left.next() : QString()));
    }

    /// Runs `dpu-cli run --resume` into `out` with `variable`=n for n = first, first + step, ...
    /// until a run finishes. Each stop must exit with `exitCode` (and say `message` when given)
    /// and leave results.jsonl whole; `stops` counts them.
    void walkWritePoints(const QString& out, const QString& variable, int first, int step, int exitCode,
                         const QString& message, int* stops)
    {
        *stops = 0;
        for (int n = first;; n += step) {
            QVERIFY2(n < 3000, "the run never finished");
            QProcess r;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(variable, QString::number(n));
            r.setProcessEnvironment(env);
            r.start(cliExe(), runArgs(out));
            QVERIFY(r.waitForFinished(300000));
            if (r.exitCode() == 0)
                return;
            const QString why = QString::fromUtf8(r.readAllStandardError());
            QVERIFY2(r.exitCode() == exitCode && why.contains(message), qPrintable(why));
            ++*stops;
            // Whatever is on disk now is whole: every record line parses.
            for (const QString& line : recordsWithoutTime(out + QStringLiteral("/results.jsonl")))
                QVERIFY2(!line.startsWith(QStringLiteral("unparsable")), qPrintable(line));
        }
    }

    /// Waits for the run's first line on stderr ("Plan ...", printed once the data is loaded and
    /// the folder opened): false when the process ended or printed nothing within 5 minutes.
    static bool waitForFirstLine(QProcess& p)
    {
        p.setReadChannel(QProcess::StandardError);
        return p.waitForStarted(10000) && (p.bytesAvailable() > 0 || p.waitForReadyRead(300000));
    }

    QStringList runArgs(const QString& out) const
    {
        return {QStringLiteral("run"), plan_, QStringLiteral("--out"), out, QStringLiteral("--resume")};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString data = QString::fromStdString(dpu::test::fashionMnistSubset(800, 400)); // 4 rounds of 200
        if (data.isEmpty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        plan_ = tmp_.filePath(QStringLiteral("plan.json"));
        QFile f(plan_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString::fromLatin1(kPlan).arg(data).toUtf8());
        f.close();
        // The uninterrupted run, timed to spread the kills over a whole run's working life.
        whole_ = tmp_.filePath(QStringLiteral("whole"));
        QProcess p;
        QElapsedTimer timer;
        timer.start();
        p.start(cliExe(), {QStringLiteral("run"), plan_, QStringLiteral("--out"), whole_});
        QVERIFY(waitForFirstLine(p));
        const qint64 startUp = timer.restart();
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        working_ = std::max<qint64>(timer.elapsed(), 50);
        qInfo("uninterrupted run: %lld ms to its first line, then %lld ms of work", startUp, working_);
    }

    void stoppedDeadAtWritePoints()
    {
        // DPU_CRASH_AT_WRITE=n ends the process at its n-th write point (before a temporary is
        // created, after it is synced, after the rename, before and after a checkpoint's commit):
        // every attempt n = 1, 2, 3, ... resumes and stops at a later point, so the crashes walk
        // through every kind of write of the run until one attempt finishes.
        const QString killed = tmp_.filePath(QStringLiteral("write-points"));
        int crashes = 0;
        walkWritePoints(killed, QStringLiteral("DPU_CRASH_AT_WRITE"), 1, 1, 99, QString(), &crashes);
        if (QTest::currentTestFailed())
            return;
        qInfo("%d crashes at write points before a run finished", crashes);
        QVERIFY(crashes >= 20);
        expectSameAsWhole(killed);
    }

    void fullDiskIsANamedErrorAndLosesNothing()
    {
        // A real limit: files may not grow past 1 MB (RLIMIT_FSIZE, as a quota would), so the
        // 2.7 MB round-0 device file cannot be written. The program says which file and why,
        // instead of dying from SIGXFSZ.
        const QString out = tmp_.filePath(QStringLiteral("full-disk"));
        QProcess limited;
        limited.setChildProcessModifier([] {
            const rlimit r{1 << 20, 1 << 20};
            ::setrlimit(RLIMIT_FSIZE, &r);
        });
        limited.start(cliExe(), runArgs(out));
        QVERIFY(limited.waitForFinished(300000));
        const QString err = QString::fromUtf8(limited.readAllStandardError());
        QCOMPARE(limited.exitStatus(), QProcess::NormalExit);
        QVERIFY2(limited.exitCode() == 1, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("initial.safetensors: write failed (File too large)")), qPrintable(err));
        // A disk that fills up later, at every fifth write point in turn: each stop is a named
        // error, and what was written before stays whole.
        int failures = 0;
        walkWritePoints(out, QStringLiteral("DPU_FAIL_WRITE_AT"), 2, 5, 1, QStringLiteral("No space left on device"), &failures);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(failures >= 5);
        expectSameAsWhole(out);
    }

    void killedAtRandomEndsAsUninterrupted()
    {
        const QString killed = tmp_.filePath(QStringLiteral("killed"));
        std::mt19937 rng(2026);
        std::uniform_int_distribution<qint64> at(0, working_ * 1000); // microseconds after the first line
        int kills = 0, finishedEarly = 0;
        for (int attempt = 0; kills < kKills; ++attempt) {
            QVERIFY2(attempt < 10 * kKills, "the killed run never got to its kills");
            QProcess r;
            r.start(cliExe(), runArgs(killed));
            QVERIFY2(waitForFirstLine(r), r.readAllStandardError().constData());
            QThread::usleep(static_cast<unsigned long>(at(rng)));
            if (r.state() == QProcess::NotRunning) { // finished before the kill: start over
                QVERIFY2(r.exitCode() == 0, r.readAllStandardError().constData());
                ++finishedEarly;
                QDir(killed).removeRecursively();
                continue;
            }
            r.kill(); // SIGKILL: no handler runs, as in a crash or an out-of-memory kill
            QVERIFY(r.waitForFinished(10000));
            ++kills;
        }
        QProcess last;
        last.start(cliExe(), runArgs(killed));
        QVERIFY(last.waitForFinished(300000));
        QVERIFY2(last.exitStatus() == QProcess::NormalExit && last.exitCode() == 0, last.readAllStandardError().constData());
        qInfo("%d kills, %d runs finished before their kill", kills, finishedEarly);
        expectSameAsWhole(killed);
    }
};

QTEST_GUILESS_MAIN(TestCliKill)
#include "test_cli_kill.moc"
