// SPDX-License-Identifier: MIT
// dpu-apply as a process: a multi-round chain from no file, refusals that leave the weight file
// untouched, and a simulated power cut at every write and sync point.
#include "BundleTestUtil.h"
#include "TestSupport.h"
#include "bundle/BundleInspector.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cstdio>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

int runApply(const QStringList& args, int crashAt = 0, QString* err = nullptr)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (crashAt > 0)
        env.insert("DPU_APPLY_CRASH_AT", QString::number(crashAt));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DPU_APPLY_EXE), args);
    p.waitForFinished(60000);
    if (err)
        *err = QString::fromLocal8Bit(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

bool exists(const std::string& path) { return QFileInfo::exists(QString::fromStdString(path)); }

} // namespace

class TestBundleApplyTool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void multiRoundChain()
    {
        QTemporaryDir dir;
        const std::string weights = dir.filePath("model.safetensors").toStdString();
        std::vector<uint8_t> sk, pk;
        BundleWriter::generateKeyPair(sk, pk);
        writeFile(dir.filePath("key.pub").toStdString(), pk);
        // Round 0: reinit+delta onto a device without any weight file.
        auto state = modelState("conv", 1);
        BundleInput in;
        in.kind = Kind::ReinitDelta;
        in.coding = ValueCoding::Q8;
        in.model = "test";
        in.compat = "compat-1";
        in.updateVersion = 1;
        in.seed = 42;
        in.target = state;
        in.masks = randomMasks(state, 0.05, 1);
        in.init = initRules(state);
        in.secretKey = sk;
        BundleOutput out = BundleWriter::write(in);
        std::vector<uint8_t> expected = out.targetFile;
        for (uint64_t round = 1; round <= 4; ++round) {
            const std::string path = dir.filePath(QStringLiteral("r%1.dpub").arg(round)).toStdString();
            writeFile(path, out.bytes);
            QString err;
            QCOMPARE(runApply({QString::fromStdString(path), QString::fromStdString(weights), "--pubkey",
                               dir.filePath("key.pub"), "--current-version", QString::number(round - 1),
                               "--compat", "compat-1"}, 0, &err), 0);
            QVERIFY2(readFile(weights) == expected, qPrintable(err));
            QVERIFY(!exists(weights + ".dpu-apply.tmp"));
            // Replaying the same bundle is refused and changes nothing.
            QCOMPARE(runApply({QString::fromStdString(path), QString::fromStdString(weights), "--pubkey",
                               dir.filePath("key.pub"), "--current-version", QString::number(round)}), 2);
            QVERIFY(readFile(weights) == expected);
            // Next round: a delta from the device's file, value coding cycling.
            state = perturbed(SafetensorsFile::read(expected), uint32_t(round));
            BundleInput d = deltaInput(expected, state, randomMasks(state, 0.02, uint32_t(round)),
                                       ValueCoding(1 + round % 3), round + 1);
            d.secretKey = sk;
            out = BundleWriter::write(d);
            expected = out.targetFile;
        }
    }

    void int8Chain()
    {
        // An INT8 deployed model through the real tool (format 5): a reinit+delta onto a device
        // without a file (I8 codes dense), then deltas with sparse i8 sections (codes, differences,
        // among the nonzeros) and an unchanged I8 tensor copied; each file byte for byte.
        QTemporaryDir dir;
        const std::string weights = dir.filePath("int8.safetensors").toStdString();
        auto state = int8State("conv", 2, 0.3);
        BundleInput in = deltaInput({}, state, randomMasks(state, 0.05, 1), ValueCoding::Fp32, 1);
        makeReinit(in, state, 42);
        BundleOutput out = BundleWriter::write(in);
        for (uint64_t round = 1;; ++round) {
            const std::string path = dir.filePath(QStringLiteral("i%1.dpub").arg(round)).toStdString();
            writeFile(path, out.bytes);
            QString err;
            QCOMPARE(runApply({QString::fromStdString(path), QString::fromStdString(weights)}, 0, &err), 0);
            QVERIFY2(readFile(weights) == out.targetFile, qPrintable(err));
            QCOMPARE(int(out.bytes[4]), 5);
            if (round == 4)
                break;
            auto masks = randomMasks(state, round == 3 ? 0.0 : 0.1, uint32_t(round));
            for (size_t t = 0; t < state.size(); ++t) // round 2: only nonzero codes change
                for (size_t i = 0; i < masks[t].size(); ++i)
                    masks[t][i] = masks[t][i] && (round != 2 || state[t].codes[i] != 0);
            state = int8Round(SafetensorsFile::read(out.targetFile), masks, uint32_t(round), round == 2);
            out = BundleWriter::write(deltaInput(out.targetFile, state, masks, ValueCoding::Fp32, round + 1));
        }
        const std::string text = BundleInspector::inspect(out.bytes, nullptr);
        QVERIFY2(text.find("I8 copy") != std::string::npos, text.c_str()); // the last round changed no code
    }

    void refusedBundleLeavesFileUntouched()
    {
        QTemporaryDir dir;
        const std::string weights = dir.filePath("w.safetensors").toStdString();
        const auto old = modelState("tiny", 1);
        const auto base = deviceFile(old, 1);
        writeFile(weights, base);
        const BundleOutput out = BundleWriter::write(deltaInput(base, perturbed(old, 2), randomMasks(old, 0.3, 3),
                                                                ValueCoding::Fp32, 2));
        const std::string path = dir.filePath("b.dpub").toStdString();
        // A sample of single-byte changes and truncations through the real tool.
        for (size_t i = 0; i < out.bytes.size(); i += 7) {
            std::vector<uint8_t> bad = out.bytes;
            bad[i] ^= 0x41;
            writeFile(path, bad);
            QCOMPARE(runApply({QString::fromStdString(path), QString::fromStdString(weights)}), 2);
            writeFile(path, std::vector<uint8_t>(out.bytes.begin(), out.bytes.begin() + std::ptrdiff_t(i)));
            QCOMPARE(runApply({QString::fromStdString(path), QString::fromStdString(weights)}), 2);
            QVERIFY(readFile(weights) == base);
            QVERIFY(!exists(weights + ".dpu-apply.tmp"));
        }
        // Wrong base: the file on the device is not the bundle's base.
        std::vector<uint8_t> other = base;
        other[other.size() - 1] ^= 1;
        writeFile(weights, other);
        writeFile(path, out.bytes);
        QString err;
        QCOMPARE(runApply({QString::fromStdString(path), QString::fromStdString(weights)}, 0, &err), 2);
        QVERIFY(err.contains("base"));
        QVERIFY(readFile(weights) == other);
    }

    void powerCutAtEveryPoint()
    {
        QTemporaryDir dir;
        const std::string weights = dir.filePath("w.safetensors").toStdString();
        const auto old = modelState("conv", 1);
        const auto base = deviceFile(old, 1);
        const BundleOutput out = BundleWriter::write(deltaInput(base, perturbed(old, 2), randomMasks(old, 0.1, 3),
                                                                ValueCoding::Fp16, 2));
        const std::string path = dir.filePath("b.dpub").toStdString();
        writeFile(path, out.bytes);
        int points = 0;
        for (int crash = 1;; ++crash) {
            writeFile(weights, base);
            const int rc = runApply({QString::fromStdString(path), QString::fromStdString(weights)}, crash);
            const std::vector<uint8_t> now = readFile(weights);
            QVERIFY2(now == base || now == out.targetFile, qPrintable(QStringLiteral("mixed file after crash %1").arg(crash)));
            if (rc == 0) {
                QVERIFY(now == out.targetFile);
                break;
            }
            QCOMPARE(rc, 99);
            ++points;
            QVERIFY(crash < 100000);
        }
        QVERIFY(points > 3);
        qInfo("power cut simulated at %d write/sync points", points);
    }
};

QTEST_APPLESS_MAIN(TestBundleApplyTool)
#include "test_bundle_apply_tool.moc"
