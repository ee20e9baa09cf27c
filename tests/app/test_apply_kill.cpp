// SPDX-License-Identifier: MIT
// dpu-apply killed (SIGKILL) at many random moments: the weight file is always the old or the new one.
#include "BundleTestUtil.h"
#include "TestSupport.h"
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest/QtTest>
#include <random>

using namespace dpu::bundle;
using namespace dpu::test;

class TestApplyKill : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void killedAtRandomPointsLeavesOldOrNew()
    {
        QTemporaryDir dir;
        const QString weights = dir.filePath("w.safetensors");
        const QString bundle = dir.filePath("b.dpub");
        // Large enough (4 MB file) that an apply takes tens of milliseconds: copying the base,
        // decoding, hashing and syncing are all windows a kill can land in.
        std::vector<TensorData> old{{"fc.weight", {1000, 1000}, {}}, {"fc.bias", {1000}, {}}};
        std::mt19937 rng(7);
        std::normal_distribution<float> nd(0.f, 0.05f);
        for (auto& t : old) {
            t.values.resize(size_t(t.shape[0]) * (t.shape.size() > 1 ? size_t(t.shape[1]) : 1));
            for (float& v : t.values)
                v = nd(rng);
        }
        const std::vector<uint8_t> base = deviceFile(old, 1);
        const BundleOutput out = BundleWriter::write(
            deltaInput(base, perturbed(old, 3), randomMasks(old, 0.05, 4), ValueCoding::Fp32, 2));
        writeFile(bundle.toStdString(), out.bytes);

        auto start = [&] {
            auto* p = new QProcess(this);
            p->start(QStringLiteral(DPU_APPLY_EXE), {bundle, weights});
            return p;
        };
        // How long one undisturbed apply takes here, to spread the kills over its whole life.
        writeFile(weights.toStdString(), base);
        QElapsedTimer timer;
        timer.start();
        QProcess* whole = start();
        QVERIFY(whole->waitForFinished(60000));
        QCOMPARE(whole->exitCode(), 0);
        const qint64 duration = std::max<qint64>(timer.elapsed(), 5);
        QVERIFY(readFile(weights.toStdString()) == out.targetFile);

        int sawOld = 0, sawNew = 0;
        std::uniform_int_distribution<qint64> delay(0, duration * 3 / 2 * 1000); // microseconds
        for (int trial = 0; trial < 200 && (trial < 40 || sawOld == 0 || sawNew == 0); ++trial) {
            writeFile(weights.toStdString(), base);
            QProcess* p = start();
            QVERIFY(p->waitForStarted(10000));
            QThread::usleep(static_cast<unsigned long>(delay(rng)));
            p->kill();
            QVERIFY(p->waitForFinished(10000));
            delete p;
            const std::vector<uint8_t> now = readFile(weights.toStdString());
            QVERIFY2(now == base || now == out.targetFile, qPrintable(QStringLiteral("mixed file after trial %1").arg(trial)));
            (now == base ? sawOld : sawNew)++;
        }
        QVERIFY2(sawOld > 0 && sawNew > 0, qPrintable(QStringLiteral("old %1, new %2").arg(sawOld).arg(sawNew)));
        // Whatever a kill left behind (a temporary file) does not stop the next apply.
        writeFile(weights.toStdString(), base);
        QProcess* again = start();
        QVERIFY(again->waitForFinished(60000));
        QCOMPARE(again->exitCode(), 0);
        QVERIFY(readFile(weights.toStdString()) == out.targetFile);
        qInfo("kills: %d left the old file, %d the new one (one apply takes %lld ms)", sawOld, sawNew,
              static_cast<long long>(duration));
    }
};

QTEST_GUILESS_MAIN(TestApplyKill)
#include "test_apply_kill.moc"
