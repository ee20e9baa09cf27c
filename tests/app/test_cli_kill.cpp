// SPDX-License-Identifier: MIT
// A real `dpu-cli run` SIGKILLed at 50 random moments and resumed each time ends with the results
// and bundles of an uninterrupted run (the seconds each round took aside).
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

namespace {

// Small enough that a run takes about a second, with every kind of file write in it: results,
// checkpoints, the round-0 device file and bundles of two strategies.
const char kPlan[] = R"({"name": "kill-resume", "dataset": {"test_limit": 400},
    "split": {"initial": 200, "per_round": 200, "rounds": 4, "validation": 200},
    "strategies": ["dpu", "fu"], "k": 0.05, "train": {"epochs": 1}, "seeds": [4]})";

QString cliExe() { return qEnvironmentVariable("DPU_CLI", QStringLiteral(DPU_BINARY_DIR "/app/cli/dpu-cli")); }

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
private Q_SLOTS:
    void killedFiftyTimesEndsAsUninterrupted()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        QTemporaryDir tmp;
        const QString plan = tmp.filePath(QStringLiteral("plan.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kPlan);
        f.close();

        // The uninterrupted run, timed to spread the kills over a whole run's life.
        const QString whole = tmp.filePath(QStringLiteral("whole"));
        QElapsedTimer timer;
        timer.start();
        QProcess p;
        p.start(cliExe(), {QStringLiteral("run"), plan, QStringLiteral("--out"), whole});
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const qint64 duration = std::max<qint64>(timer.elapsed(), 50);

        const QString killed = tmp.filePath(QStringLiteral("killed"));
        std::mt19937 rng(2026);
        std::uniform_int_distribution<qint64> at(0, duration * 1000); // microseconds after start
        int kills = 0, finishedEarly = 0;
        for (int attempt = 0; kills < 50; ++attempt) {
            QVERIFY2(attempt < 500, "the killed run never got to 50 kills");
            QProcess r;
            r.start(cliExe(), {QStringLiteral("run"), plan, QStringLiteral("--out"), killed, QStringLiteral("--resume")});
            QVERIFY(r.waitForStarted(10000));
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
        // Resume to the end.
        QProcess last;
        last.start(cliExe(), {QStringLiteral("run"), plan, QStringLiteral("--out"), killed, QStringLiteral("--resume")});
        QVERIFY(last.waitForFinished(300000));
        QVERIFY2(last.exitStatus() == QProcess::NormalExit && last.exitCode() == 0, last.readAllStandardError().constData());
        qInfo("%d kills, %d runs finished before their kill", kills, finishedEarly);

        const QStringList expected = recordsWithoutTime(whole + QStringLiteral("/results.jsonl"));
        QCOMPARE(expected.size(), 8); // 4 rounds x 2 strategies
        QCOMPARE(recordsWithoutTime(killed + QStringLiteral("/results.jsonl")), expected);
        QCOMPARE(csvWithoutTime(killed + QStringLiteral("/results.csv")), csvWithoutTime(whole + QStringLiteral("/results.csv")));
        const auto a = bundles(whole), b = bundles(killed);
        QVERIFY(a.size() >= 5); // initial.safetensors and bundles of both strategies
        QCOMPARE(b.keys(), a.keys());
        for (auto it = a.begin(); it != a.end(); ++it)
            QVERIFY2(b.value(it.key()) == it.value(), qPrintable(it.key()));
        // No temporary file is left behind.
        QDirIterator left(killed, {QStringLiteral("*.tmp*"), QStringLiteral("*.part")}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY2(!left.hasNext(), qPrintable(left.hasNext() ? left.next() : QString()));
    }
};

QTEST_GUILESS_MAIN(TestCliKill)
#include "test_cli_kill.moc"
