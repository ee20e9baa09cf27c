// SPDX-License-Identifier: MIT
// dpu-apply's rollback protection without flags: the weight file says its version, and every
// bundle of a real run that is not newer is refused on every later file, leaving it untouched.
#include "ApplyChain.h"
#include "ApplyProcess.h"
#include "TestSupport.h"
#include "dpu/Runner.h"
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

dpu::test::ApplyResult apply(const QStringList& args)
{
    return dpu::test::runApply(QStringLiteral(DPU_APPLY_EXE), args);
}

QByteArray slurp(const QString& path)
{
    return dpu::test::fileBytes(path);
}

bool spit(const QString& path, const QByteArray& bytes)
{
    return dpu::test::writeBytes(path, bytes);
}

} // namespace

class TestApplyRollback : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        dpu::Plan p;
        p.name = "rollback";
        p.dataset.testLimit = 600;
        p.split = {300, 300, 4, 300};
        p.strategies = {"dpu", "fu"};
        p.train.epochs = 1;
        p.seeds = {5};
        run_ = tmp_.filePath(QStringLiteral("run"));
        dpu::RunObserver quiet;
        QVERIFY(!dpu::Runner(p, {run_.toStdString()}).run(quiet).records.empty());
    }

    void olderBundlesRefusedOnLaterFiles()
    {
        const QString seedDir = run_ + QStringLiteral("/bundles/seed-5");
        const QByteArray initial = slurp(seedDir + QStringLiteral("/initial.safetensors"));
        QVERIFY(!initial.isEmpty());
        int refusals = 0;
        for (const QString strategy : {QStringLiteral("dpu"), QStringLiteral("fu")}) {
            const QStringList bundles = QDir(seedDir + '/' + strategy).entryList({QStringLiteral("round-*.dpub")}, QDir::Files, QDir::Name);
            QVERIFY2(bundles.size() >= 2, qPrintable(strategy)); // a chain to roll back along
            // The chain, as a device applies it: no version given, the file says it.
            const QString weights = tmp_.filePath(strategy + QStringLiteral(".safetensors"));
            QVERIFY(spit(weights, initial));
            QList<QByteArray> after; // the device file after each bundle
            for (const QString& b : bundles) {
                const auto a = apply({seedDir + '/' + strategy + '/' + b, weights});
                QVERIFY2(a.exitCode == 0, qPrintable(b + ": " + a.err));
                after << slurp(weights);
            }
            // Every bundle not newer than a file is refused on it, reinit+delta bundles (which
            // read no base file) included, and the file stays as it was.
            for (int held = 0; held < after.size(); ++held)
                for (int old = 0; old <= held; ++old) {
                    QVERIFY(spit(weights, after[held]));
                    const auto a = apply({seedDir + '/' + strategy + '/' + bundles[old], weights});
                    QVERIFY2(a.exitCode == 2, qPrintable(bundles[old] + " on " + bundles[held] + ": " + a.err));
                    QVERIFY2(a.err.contains(QStringLiteral("is not newer than")), qPrintable(a.err));
                    QCOMPARE(slurp(weights), after[held]);
                    ++refusals;
                }
            // --current-version can raise the bar but not lower it below the file's.
            QVERIFY(spit(weights, after[0]));
            const auto lowered = apply({seedDir + '/' + strategy + '/' + bundles[0], weights, "--current-version", "0"});
            QCOMPARE(lowered.exitCode, 2);
            QVERIFY(spit(weights, after[0]));
            const auto raised = apply({seedDir + '/' + strategy + '/' + bundles[1], weights, "--current-version", "1000"});
            QCOMPARE(raised.exitCode, 2);
            QVERIFY2(raised.err.contains(QStringLiteral("not newer than")), qPrintable(raised.err));
            QCOMPARE(slurp(weights), after[0]);
        }
        QVERIFY(refusals >= 6);
    }

    void fileWithoutVersionNeedsOne()
    {
        // A safetensors file that is not a device file: its version is unknown, so dpu-apply asks
        // for it instead of assuming 0.
        const QString seedDir = run_ + QStringLiteral("/bundles/seed-5");
        const QString bundle = seedDir + QStringLiteral("/fu/") +
                               QDir(seedDir + QStringLiteral("/fu")).entryList({QStringLiteral("round-*.dpub")}, QDir::Files, QDir::Name).value(0);
        const QString weights = tmp_.filePath(QStringLiteral("foreign.safetensors"));
        QByteArray header = "{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
        while ((8 + header.size()) % 8 != 0)
            header += ' ';
        QByteArray file(8, '\0');
        for (int i = 0; i < 8; ++i)
            file[i] = char((quint64(header.size()) >> (8 * i)) & 0xff);
        file += header + QByteArray(4, '\0');
        QVERIFY(spit(weights, file));
        auto a = apply({bundle, weights});
        QCOMPARE(a.exitCode, 1);
        QVERIFY2(a.err.contains(QStringLiteral("foreign.safetensors: no \"dpu.update_version\"")), qPrintable(a.err));
        QCOMPARE(slurp(weights), file);
        // Not a safetensors file at all (a header length past the end).
        QVERIFY(spit(weights, QByteArray("\xff\xff\xff\xff\x00\x00\x00\x00garbage", 15)));
        a = apply({bundle, weights});
        QCOMPARE(a.exitCode, 1);
        QVERIFY2(a.err.contains(QStringLiteral("not a readable safetensors weight file")), qPrintable(a.err));
    }
};

QTEST_GUILESS_MAIN(TestApplyRollback)
#include "test_apply_rollback.moc"
