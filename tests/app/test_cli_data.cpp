// SPDX-License-Identifier: MIT
// dpu-cli data: each own-data format described as the engine's probe reads it; bad data names the file.
#include "CliProcess.h"
#include "TestSupport.h"
#include "dpu/DataProbe.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

class TestCliData : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void describesEachFormat_data()
    {
        QTest::addColumn<QString>("sub");
        QTest::addColumn<QString>("kind");
        QTest::newRow("idx") << "idx" << "idx";
        QTest::newRow("npy") << "npy" << "npy";
        QTest::newRow("npz") << "npz/data.npz" << "npz";
        QTest::newRow("npz held out") << "npz/holdout.npz" << "npz";
        QTest::newRow("safetensors") << "safetensors/data.safetensors" << "safetensors";
        QTest::newRow("png folders") << "images" << "images";
        QTest::newRow("jpeg folders") << "images-jpeg" << "images";
    }
    void describesEachFormat()
    {
        QFETCH(QString, sub);
        QFETCH(QString, kind);
        const std::string path = dpu::test::ownData(sub.toStdString());
        const auto r = dpu::test::runCli({"data", QString::fromStdString(path), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["kind"].toString(), kind); // detected: no --kind given

        // What the engine's probe finds, field by field.
        const dpu::DataProbe p = dpu::probeDataset(dpu::test::datasetSpec(kind.toStdString(), path));
        QCOMPARE(o["train"].toInteger(), p.train);
        QCOMPARE(o["test"].toInteger(), p.test);
        QCOMPARE(o["test_held_out"].toBool(), p.heldOut);
        const QJsonArray shape = o["shape"].toArray();
        QCOMPARE(shape.size(), 3);
        QCOMPARE(shape[0].toInt(), p.shape.channels);
        QCOMPARE(shape[1].toInt(), p.shape.height);
        QCOMPARE(shape[2].toInt(), p.shape.width);
        // make_owndata.py writes 4 classes; the IDX format has no class count and is read as 10.
        QCOMPARE(o["classes"].toInt(), kind == "idx" ? 10 : 4);
        QCOMPARE(o["classes"].toInt(), p.classes);
        const QJsonArray perClass = o["per_class"].toArray();
        QCOMPARE(perClass.size(), p.classes);
        qint64 train = 0, test = 0;
        for (int c = 0; c < p.classes; ++c) {
            const QJsonObject e = perClass[c].toObject();
            QCOMPARE(e["name"].toString().toStdString(), p.perClass[static_cast<size_t>(c)].name);
            QCOMPARE(e["train"].toInteger(), p.perClass[static_cast<size_t>(c)].train);
            QCOMPARE(e["test"].toInteger(), p.perClass[static_cast<size_t>(c)].test);
            train += e["train"].toInteger();
            test += e["test"].toInteger();
        }
        QCOMPARE(train, o["train"].toInteger()); // the balance adds up to the splits
        QCOMPARE(test, o["test"].toInteger());
        // Every sample of the generator, split one way or another (the JPEG folder has only its 40 training ones).
        QCOMPARE(train + test, qint64(sub == "images-jpeg" ? 40 : 40 + 16));
    }

    void textNamesKindSplitsAndClasses()
    {
        const auto r = dpu::test::runCli({"data", QString::fromStdString(dpu::test::ownData("images"))});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("kind     images"), qPrintable(r.out));
        QVERIFY2(r.out.contains("samples  40 train, 16 test"), qPrintable(r.out));
        QVERIFY2(r.out.contains("shape    1x6x6"), qPrintable(r.out));
        for (const char* c : {"a", "b", "c", "d"}) // the class folders, each with its train and test samples
            QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\n%1 +10 +4\n").arg(c))), qPrintable(r.out));
    }

    void kindAndArrayNamesCanBeGiven()
    {
        const auto r = dpu::test::runCli({"data", QString::fromStdString(dpu::test::ownData("npy")), "--kind", "npy",
                                          "--x", "x_windows", "--x-test", "x_test_windows", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["layout"].toString(), QStringLiteral("ncl"));
        QCOMPARE(o["shape"].toArray()[0].toInt(), 2);
    }

    void badDataFailsNamingTheFile()
    {
        const auto shortLabels = dpu::test::runCli({"data", QString::fromStdString(dpu::test::ownData("npy")), "--y", "y_short"});
        QVERIFY(shortLabels.code != 0);
        QVERIFY2(shortLabels.err.contains("y_short.npy"), qPrintable(shortLabels.err));
        QVERIFY(shortLabels.out.isEmpty());

        QTemporaryDir dir;
        const auto nothing = dpu::test::runCli({"data", dir.path()});
        QVERIFY(nothing.code != 0);
        QVERIFY2(nothing.err.contains(dir.path()) && nothing.err.contains("no dataset found"), qPrintable(nothing.err));

        const auto wrongKind = dpu::test::runCli({"data", QString::fromStdString(dpu::test::ownData("npz/data.npz")), "--kind", "safetensors"});
        QVERIFY(wrongKind.code != 0);
        QVERIFY2(wrongKind.err.contains("data.npz"), qPrintable(wrongKind.err));

        const auto usage = dpu::test::runCli({"data"});
        QCOMPARE(usage.code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliData)
#include "test_cli_data.moc"
