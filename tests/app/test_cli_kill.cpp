// SPDX-License-Identifier: MIT
// A real `dpu-cli run` stopped dead at its file-write points one after another (the temporaries a
// stop leaves then cut short, as a kill in mid-write leaves them), failing on a full disk, or
// SIGKILLed at chosen moments of its work, and resumed each time, ends with the results and bundles
// of an uninterrupted run (the seconds each round took aside), with no temporary file left behind.
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
#include <iterator>
#include <sys/resource.h>

namespace {

// Small enough that a run takes about a second, with every kind of file write in it: results,
// checkpoints, the round-0 device file and bundles of two strategies, of every kind (reinit+delta,
// delta and full; and rounds that deploy nothing, so write no bundle). The data is Fashion-MNIST's
// first 500 training and 200 test images, uncompressed (fashionMnistSubset): each of the test's
// 50-odd processes then skips decompressing and normalising all 70,000 (about 0.5 s of CPU each),
// and trains and evaluates on 100 samples a round (about a fifth less work than 200).
const char kPlan[] = R"({"name": "kill-resume", "dataset": {"kind": "idx", "path": "%1"},
    "split": {"initial": 100, "per_round": 100, "rounds": 4, "validation": 100},
    "strategies": ["dpu", "fu"], "k": 0.05, "train": {"epochs": 1}, "seeds": [4]})";
constexpr int kUnits = 8; // 4 rounds x 2 strategies: one checkpoint each

// The SIGKILLs, each at a moment of the run's progress read from its own output (a line, then a
// share of one unit's time), in a run resumed after the kill before; a kill lands wherever the
// process is then, as in a crash. They replaced 32 kills at random moments (half the test's time),
// which added to the write-point walk only kills in mid-write, and those by chance: the walk now
// cuts the temporaries it leaves short instead, and two of the kills here follow the lines after
// which the big files (the round-0 device file, a checkpoint) are written.
struct ChosenKill {
    const char* line;  // the kill follows this process's `nth` line starting with this
    int nth;
    int unitPercent;   // ... and this share of one unit's time (a unit: a strategy's round)
    const char* moment;
};
const ChosenKill kKillsAt[] = {
    {"Plan ", 1, 0, "start-up done: the seeded model and the round-0 device file being made"},
    {"seed ", 1, 0, "a unit's line: its checkpoint (every strategy's state) and results being written"},
    {"seed ", 2, 30, "inside the training of a later unit, one or two units committed in this process"},
    {"Resuming ", 1, 0, "a resumed run's start: temporaries removed, results rewritten from the checkpoint"},
    {"seed ", 1, 30, "inside the next unit, after a resumed run committed one"},
};

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
        QCOMPARE(expected.size(), kUnits);
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

    /// Cuts every temporary under `out` to half its bytes: what a kill in the middle of writing it
    /// would have left instead of the whole one a stop at a write point leaves. Returns how many.
    static int shortenTemporaries(const QString& out)
    {
        int n = 0;
        QDirIterator it(out, {QStringLiteral("*.tmp*")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.resize(f.size() / 2))
                ++n;
        }
        return n;
    }

    /// Runs `dpu-cli run --resume` into `out` with `variable`=n for n = first, first + step, ...
    /// until a run finishes. Each stop must exit with `exitCode` (and say `message` when given)
    /// and leave results.jsonl whole; `stops` counts them. With `shortened`, the temporaries each
    /// stop leaves are cut short before the next attempt, which counts them there.
    void walkWritePoints(const QString& out, const QString& variable, int first, int step, int exitCode,
                         const QString& message, int* stops, int* shortened = nullptr)
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
            if (shortened)
                *shortened += shortenTemporaries(out);
        }
    }

    /// Reads the process's stderr until `nth` lines have begun with `prefix`: true then, false when
    /// the process ended first or printed nothing for 5 minutes. `seen` collects what it read.
    static bool waitForLine(QProcess& p, const QByteArray& prefix, int nth, QByteArray& seen)
    {
        p.setReadChannel(QProcess::StandardError);
        if (!p.waitForStarted(10000))
            return false;
        for (;;) {
            seen += p.readAllStandardError();
            int n = 0;
            for (const QByteArray& line : seen.split('\n'))
                n += line.startsWith(prefix) ? 1 : 0;
            if (n >= nth)
                return true;
            if (p.state() == QProcess::NotRunning || !p.waitForReadyRead(300000)) {
                if (p.state() == QProcess::NotRunning && p.bytesAvailable() > 0)
                    continue; // its last lines were still in the pipe
                return false;
            }
        }
    }

    /// Waits for the run's first line on stderr ("Plan ...", printed once the data is loaded and
    /// the folder opened): false when the process ended or printed nothing within 5 minutes.
    static bool waitForFirstLine(QProcess& p)
    {
        QByteArray seen;
        return waitForLine(p, QByteArrayLiteral("Plan "), 1, seen);
    }

    QStringList runArgs(const QString& out) const
    {
        return {QStringLiteral("run"), plan_, QStringLiteral("--out"), out, QStringLiteral("--resume")};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString data = QString::fromStdString(dpu::test::fashionMnistSubset(500, 200)); // 4 rounds of 100
        if (data.isEmpty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        plan_ = tmp_.filePath(QStringLiteral("plan.json"));
        QFile f(plan_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString::fromLatin1(kPlan).arg(data).toUtf8());
        f.close();
        // The uninterrupted run, timed for the kills' share of a unit.
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
        // A SIGKILL in the middle of a write leaves the same state as a stop at the write point
        // after it, but with the temporary cut short: the walk cuts every temporary a stop leaves
        // (a whole one after its sync, a checkpoint's before the commit) before resuming, so each
        // write it stops after is also seen killed in mid-write, the checkpoints' included.
        const QString killed = tmp_.filePath(QStringLiteral("write-points"));
        int crashes = 0, shortened = 0;
        walkWritePoints(killed, QStringLiteral("DPU_CRASH_AT_WRITE"), 1, 1, 99, QString(), &crashes, &shortened);
        if (QTest::currentTestFailed())
            return;
        qInfo("%d crashes at write points before a run finished, %d temporaries left cut short", crashes, shortened);
        QVERIFY(crashes >= 20);
        QVERIFY(shortened >= 10);
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

    void killedAtChosenMomentsEndsAsUninterrupted()
    {
        // Each kill's process commits at most a unit past its moment's line (30 % of a unit's time
        // in the uninterrupted run stays below one unit even on a machine three times as fast
        // now), so the kills never meet a finished run: at most 1 + 1 + 3 + 0 + 2 of the 8 units
        // are committed before the last start.
        const QString killed = tmp_.filePath(QStringLiteral("killed"));
        const qint64 unitMs = working_ / kUnits;
        int withTemporary = 0;
        for (const ChosenKill& k : kKillsAt) {
            QProcess r;
            r.start(cliExe(), runArgs(killed));
            QByteArray seen;
            QVERIFY2(waitForLine(r, k.line, k.nth, seen),
                     qPrintable(QStringLiteral("ended before the moment '%1' (exit %2): %3")
                                    .arg(QString::fromUtf8(k.moment)).arg(r.exitCode()).arg(QString::fromUtf8(seen))));
            QThread::msleep(static_cast<unsigned long>(unitMs * k.unitPercent / 100));
            QVERIFY2(r.state() != QProcess::NotRunning, k.moment); // the schedule stays inside the run
            r.kill(); // SIGKILL: no handler runs, as in a crash or an out-of-memory kill
            QVERIFY(r.waitForFinished(10000));
            QDirIterator left(killed, {QStringLiteral("*.tmp*")}, QDir::Files, QDirIterator::Subdirectories);
            withTemporary += left.hasNext() ? 1 : 0;
        }
        QProcess last;
        last.start(cliExe(), runArgs(killed));
        QVERIFY(last.waitForFinished(300000));
        QVERIFY2(last.exitStatus() == QProcess::NormalExit && last.exitCode() == 0, last.readAllStandardError().constData());
        qInfo("%d kills at chosen moments, %d of them left a temporary behind", int(std::size(kKillsAt)),
              withTemporary);
        expectSameAsWhole(killed);
    }
};

QTEST_GUILESS_MAIN(TestCliKill)
#include "test_cli_kill.moc"
