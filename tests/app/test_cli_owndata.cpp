// SPDX-License-Identifier: MIT
// dpu-cli run end to end on each own-data format (2 rounds, 1 epoch, tiny data), and a resumed augmented run.
#include "CliProcess.h"
#include "TestSupport.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {

QString fixture(const char* sub)
{
    return QString::fromStdString(dpu::test::ownData(sub));
}

QByteArray slurp(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A two-round plan on `dataset` (a JSON object's members) for the MLP, written to `dir`/plan.json.
QString writePlan(const QTemporaryDir& dir, const QString& dataset, const QString& extra = QString())
{
    const QString text = QStringLiteral(R"({"name": "own-data", "model": "mlp", "dataset": {%1},
        "split": {"initial": 16, "per_round": 8, "rounds": 2, "validation": 6},
        "strategies": ["dpu", "fu"], "k": 0.05, "train": {"epochs": 1, "batch": 8}, "seeds": [4]%2})")
                             .arg(dataset, extra);
    const QString path = dir.filePath("plan.json");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) != text.toUtf8().size())
        return {};
    return path;
}

/// results.jsonl's records without their wall time.
QStringList records(const QString& out)
{
    QStringList lines;
    for (const QByteArray& line : slurp(out + "/results.jsonl").split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonObject o = QJsonDocument::fromJson(line).object();
        o.remove("seconds");
        lines << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
    return lines;
}

} // namespace

class TestCliOwnData : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runsEachFormat_data()
    {
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QString>("shape"); // data.json's shape
        const QString npy = fixture("npy");
        QTest::newRow("npy uint8") << QString(R"("kind": "npy", "path": "%1")").arg(npy) << "[1,6,6]";
        QTest::newRow("npy float16 nhwc") << QString(R"("kind": "npy", "path": "%1", "x": "x_f16", "x_test": "x_test_f16")").arg(npy)
                                          << "[1,6,6]";
        QTest::newRow("npy windows") << QString(R"("kind": "npy", "path": "%1", "x": "x_windows", "x_test": "x_test_windows")").arg(npy)
                                     << "[2,1,18]";
        QTest::newRow("npy table") << QString(R"("kind": "npy", "path": "%1", "x": "x_table", "x_test": "x_test_table")").arg(npy)
                                   << "[1,1,36]";
        QTest::newRow("npz stored") << QString(R"("kind": "npz", "path": "%1")").arg(fixture("npz/data.npz")) << "[1,6,6]";
        QTest::newRow("npz deflated") << QString(R"("kind": "npz", "path": "%1")").arg(fixture("npz/compressed.npz")) << "[1,6,6]";
        QTest::newRow("safetensors") << QString(R"("kind": "safetensors", "path": "%1", "x": "x_bf16", "x_test": "x_test_bf16")")
                                            .arg(fixture("safetensors/data.safetensors"))
                                     << "[1,6,6]";
        QTest::newRow("png folder") << QString(R"("kind": "images", "path": "%1")").arg(fixture("images")) << "[1,6,6]";
        QTest::newRow("jpeg folder") << QString(R"("kind": "images", "path": "%1")").arg(fixture("images-jpeg")) << "[3,12,12]";
    }
    void runsEachFormat()
    {
        QFETCH(QString, dataset);
        QFETCH(QString, shape);
        QTemporaryDir dir;
        const QString plan = writePlan(dir, dataset);
        const auto r = dpu::test::runCli({"run", plan, "--out", dir.filePath("out")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(records(dir.filePath("out")).size(), 4); // 2 rounds x 2 strategies
        const QJsonObject data = QJsonDocument::fromJson(slurp(dir.filePath("out/data.json"))).object();
        QCOMPARE(QString::fromUtf8(QJsonDocument(data["shape"].toArray()).toJson(QJsonDocument::Compact)), shape);
        QCOMPARE(data["classes"].toInt(), 4);
    }

    void badDataFailsNamingTheFile()
    {
        QTemporaryDir dir;
        const QString plan = writePlan(dir, QString(R"("kind": "npy", "path": "%1", "y": "y_short")").arg(fixture("npy")));
        const auto r = dpu::test::runCli({"run", plan, "--out", dir.filePath("out")});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("y_short.npy") && r.err.contains("wrong count"), qPrintable(r.err));
    }

    void augmentedRunResumesToTheSameRecords()
    {
        QTemporaryDir dir;
        const QString plan = writePlan(dir, QString(R"("kind": "images", "path": "%1", "normalise": "first_round",
            "augment": {"crop_padding": 2, "flip": true})").arg(fixture("images")));
        const auto whole = dpu::test::runCli({"run", plan, "--out", dir.filePath("whole")});
        QVERIFY2(whole.code == 0, qPrintable(whole.err));
        const QStringList expected = records(dir.filePath("whole"));
        QCOMPARE(expected.size(), 4);
        const QJsonObject data = QJsonDocument::fromJson(slurp(dir.filePath("whole/data.json"))).object();
        const QJsonArray stats = data["normalisation"].toArray();
        QCOMPARE(stats.size(), 1); // one entry per seed
        QCOMPARE(stats[0].toObject()["seed"].toInt(), 4);
        QVERIFY(stats[0].toObject()["std"].toArray()[0].toDouble() > 0);

        // Killed at its 30th file-write step (AtomicFile's crash points: after the first unit's
        // checkpoint and results, inside the second unit), then resumed.
        QProcess killed;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("DPU_CRASH_AT_WRITE", "30");
        killed.setProcessEnvironment(env);
        killed.start(dpu::test::cliExe(), {"run", plan, "--out", dir.filePath("resumed")});
        QVERIFY(killed.waitForFinished(120000));
        QCOMPARE(killed.exitCode(), 99);
        const int before = records(dir.filePath("resumed")).size();
        QVERIFY2(before >= 1 && before < 4, qPrintable(QString::number(before)));
        const auto resumed = dpu::test::runCli({"run", plan, "--out", dir.filePath("resumed"), "--resume"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QCOMPARE(records(dir.filePath("resumed")), expected);
        QCOMPARE(slurp(dir.filePath("resumed/data.json")), slurp(dir.filePath("whole/data.json")));
    }
};

QTEST_GUILESS_MAIN(TestCliOwnData)
#include "test_cli_owndata.moc"
