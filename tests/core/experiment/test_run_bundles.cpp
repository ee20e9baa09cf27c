// SPDX-License-Identifier: MIT
// A real run's bundles: dpu-apply in order reproduces the engine's deployed state; export, verify, signing.
#include "TestSupport.h"
#include "dpu/Bundles.h"
#include "dpu/Error.h"
#include "dpu/Runner.h"
#include "dpu_sha256.h"
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>
#include <map>

namespace {

dpu::Plan bundlePlan(const std::string& values)
{
    dpu::Plan p;
    p.name = "bundles-" + values;
    // Fashion-MNIST's first 1,200 training images (4 rounds of 300) and 1,000 test images: each
    // of the file's 5 runs loads them in milliseconds instead of decompressing all 70,000.
    p.dataset.path = dpu::test::fashionMnistSubset(1200, 1000);
    p.dataset.testLimit = 1000;
    p.split = {300, 300, 4, 300};
    p.strategies = {"dpu", "fu", "rpu"};
    p.k = 0.02;
    p.train.epochs = 1;
    p.seeds = {5};
    p.bundle.values = *dpu::enumFromString<dpu::Coding>(values);
    return p;
}

QString sha256Hex(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
}

int runApply(const QStringList& args, QString* output = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(DPU_APPLY_EXE), args);
    p.waitForFinished(60000);
    if (output)
        *output = QString::fromLocal8Bit(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

QString roundFile(int round)
{
    return QStringLiteral("round-%1.dpub").arg(round, 3, 10, QLatin1Char('0'));
}

} // namespace

class TestRunBundles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString run_;
    std::vector<dpu::RoundRecord> records_;

    /// Applies a strategy's bundles in order with dpu-apply from the round-0 device file and
    /// compares the file with the engine's recorded deployed state after every round.
    void checkChain(const QString& runDir, const std::vector<dpu::RoundRecord>& records, const std::string& strategy)
    {
        const QString device = dir_.filePath(QString::fromStdString("device-" + strategy) + ".safetensors");
        QFile::remove(device);
        QVERIFY(QFile::copy(runDir + "/bundles/seed-5/initial.safetensors", device));
        int applied = 0;
        for (const auto& r : records) {
            if (r.strategy != strategy)
                continue;
            const QString bundle = runDir + "/bundles/seed-5/" + QString::fromStdString(strategy) + "/" + roundFile(r.round);
            if (!r.deployed) {
                QVERIFY2(!QFile::exists(bundle), qPrintable(bundle));
                QCOMPARE(r.bundleBytes, int64_t(0));
                continue;
            }
            QCOMPARE(QFileInfo(bundle).size(), qint64(r.bundleBytes));
            // With the device's current file, every kind shows the tensors by name and shape.
            const std::string text = dpu::inspectBundleFile(bundle.toStdString(), device.toStdString());
            QVERIFY2(text.find("  fc1.weight [") != std::string::npos, text.c_str());
            QString out;
            QVERIFY2(runApply({bundle, device}, &out) == 0, qPrintable(out));
            QCOMPARE(sha256Hex(device), QString::fromStdString(r.deviceSha256));
            QCOMPARE(r.deviceVersion, uint64_t(++applied));
        }
        QVERIFY(applied >= 2);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        run_ = dir_.filePath(QStringLiteral("run"));
        dpu::RunObserver quiet;
        records_ = dpu::Runner(bundlePlan("fp32"), {run_.toStdString()}).run(quiet).records;
        QCOMPARE(records_.size(), size_t(12));
    }

    void recordsCarryRealBundles()
    {
        std::map<std::string, int64_t> cumulative;
        for (const auto& r : records_) {
            cumulative[r.strategy] += r.bundleBytes;
            QCOMPARE(r.cumulativeBundleBytes, cumulative[r.strategy]);
            if (!r.deployed) {
                QVERIFY(r.bundleKind.empty());
                continue;
            }
            if (r.strategy == "fu") {
                QCOMPARE(r.bundleKind, std::string("full"));
                QVERIFY(r.bundleBytes > 4 * (668672 + 1034)); // every weight as float32
            } else {
                // A first deployment or a re-initialised round regenerates the seeded model on the device.
                const bool first = r.deviceVersion == 1;
                QCOMPARE(r.bundleKind, std::string(first || r.reinitialised ? "reinit+delta" : "delta"));
                // Within 15 % of the analytic cost of a k-sparse round (positions near H(k)).
                QVERIFY2(r.bundleBytes < 1.15 * r.analyticBits / 8 && r.bundleBytes > 0.5 * r.analyticBits / 8,
                         qPrintable(QStringLiteral("%1 bytes vs analytic %2").arg(r.bundleBytes).arg(r.analyticBits / 8)));
            }
        }
    }

    void dpuApplyInOrderReproducesTheDeployedState()
    {
        for (const char* s : {"dpu", "fu", "rpu"})
            checkChain(run_, records_, s);
    }

    void lossyValuesDeployWhatTheDeviceDecodes_data()
    {
        QTest::addColumn<QString>("values");
        for (const char* v : {"q8", "q8c", "ternary"})
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void lossyValuesDeployWhatTheDeviceDecodes()
    {
        QFETCH(QString, values);
        const QString run = dir_.filePath(values);
        dpu::Plan p = bundlePlan(values.toStdString());
        p.strategies = {"dpu"};
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(p, {run.toStdString()}).run(quiet).records;
        QCOMPARE(records.size(), size_t(4));
        checkChain(run, records, "dpu");
        // Same training as fp32 (same seeds), but the devices run quantised values.
        std::vector<dpu::RoundRecord> fp32;
        for (const auto& r : records_)
            if (r.strategy == "dpu")
                fp32.push_back(r);
        QCOMPARE(records[0].candidateTestAccuracy, fp32[0].candidateTestAccuracy);
        QVERIFY(records[0].bundleBytes < fp32[0].bundleBytes * 3 / 4);
        QVERIFY(records[0].deviceSha256 != fp32[0].deviceSha256);
        // The deploy gate judged what ships: a deployed candidate's validation accuracy is that
        // of the model the devices decoded from its bundle, not of its float weights.
        for (const auto& r : records)
            if (r.deployed)
                QCOMPARE(r.candidateValAccuracy, r.valAccuracy);
    }

    void exportChecksTheChainAndWritesAFolder()
    {
        const QString out = dir_.filePath(QStringLiteral("export-dpu"));
        const dpu::BundleExport ex = dpu::exportRunBundles(run_.toStdString(), "dpu", 0, true, out.toStdString());
        QCOMPARE(ex.seed, uint64_t(5));
        int deployed = 0;
        int64_t total = 0;
        for (const auto& r : records_)
            if (r.strategy == "dpu" && r.deployed) {
                ++deployed;
                total += r.bundleBytes;
            }
        QCOMPARE(int(ex.rounds.size()), deployed);
        QCOMPARE(ex.totalBytes, total);
        QVERIFY(QFile::exists(out + "/initial.safetensors"));
        QVERIFY(QFile::exists(out + "/bundles.json"));
        for (const auto& r : ex.rounds)
            QCOMPARE(QFileInfo(out + "/" + QString::fromStdString(r.file)).size(), qint64(r.bytes));

        // Several strategies: one must be named; unknown ones are refused by name.
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::exportRunBundles(run_.toStdString(), "", 0, true, out.toStdString()),
                         "several strategies");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::exportRunBundles(run_.toStdString(), "lcpu", 0, true, out.toStdString()),
                         "no strategy \"lcpu\"");
    }

    void exportOverAnEarlierExportReplacesIt()
    {
        // Seen in the window: dpu's rounds 1, 2 and 4 exported over fu's 1-4 left fu's full
        // round 3 in the folder, which a device applying it in order takes for any file.
        const QString out = dir_.filePath(QStringLiteral("export-over"));
        const auto roundFiles = [&out] {
            QStringList names = QDir(out).entryList({QStringLiteral("round-*.dpub")}, QDir::Files, QDir::Name);
            return names;
        };
        const auto exported = [](const dpu::BundleExport& ex) {
            QStringList names;
            for (const auto& r : ex.rounds)
                names << QString::fromStdString(r.file);
            return names;
        };
        dpu::exportRunBundles(run_.toStdString(), "fu", 5, false, out.toStdString());
        // An earlier export with a round this run does not have (round 99, named in its index).
        QVERIFY(QFile::copy(out + "/" + roundFile(1), out + "/" + roundFile(99)));
        auto index = nlohmann::json::parse(dpu::test::readFile((out + "/bundles.json").toStdString()));
        index["rounds"].push_back({{"round", 99}, {"file", "round-099.dpub"}});
        const std::string text = index.dump(2);
        dpu::test::writeFile((out + "/bundles.json").toStdString(), std::vector<uint8_t>(text.begin(), text.end()));
        const dpu::BundleExport dpuExport = dpu::exportRunBundles(run_.toStdString(), "dpu", 5, false, out.toStdString());
        QCOMPARE(roundFiles(), exported(dpuExport)); // none of fu's, none of round 99
        // What a device does with the folder: every bundle in name order, ending at dpu's state.
        const QString device = dir_.filePath(QStringLiteral("device-over.safetensors"));
        QFile::remove(device);
        QVERIFY(QFile::copy(out + "/initial.safetensors", device));
        for (const QString& name : roundFiles()) {
            QString output;
            QVERIFY2(runApply({out + "/" + name, device}, &output) == 0, qPrintable(output));
        }
        QCOMPARE(sha256Hex(device), QString::fromStdString(dpuExport.rounds.back().deviceSha256));

        // A bundle no export wrote is the user's: refused by name, and nothing is written.
        QVERIFY(QFile::copy(out + "/" + roundFile(1), out + "/" + roundFile(100)));
        const auto before = dpu::test::readFile((out + "/bundles.json").toStdString());
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::exportRunBundles(run_.toStdString(), "fu", 5, false, out.toStdString()),
                                 "round-100.dpub", "not part of this export");
        QCOMPARE(dpu::test::readFile((out + "/bundles.json").toStdString()), before);
        QCOMPARE(roundFiles(), exported(dpuExport) << roundFile(100));
    }

    void exportRefusesABrokenChainAndWritesNothing()
    {
        const QString copy = dir_.filePath(QStringLiteral("tampered"));
        QVERIFY(QDir().mkpath(copy + "/bundles/seed-5/rpu"));
        QVERIFY(QFile::copy(run_ + "/results.jsonl", copy + "/results.jsonl"));
        QVERIFY(QFile::copy(run_ + "/bundles/seed-5/initial.safetensors", copy + "/bundles/seed-5/initial.safetensors"));
        int last = 0;
        for (const auto& r : records_)
            if (r.strategy == "rpu" && r.deployed) {
                QVERIFY(QFile::copy(run_ + "/bundles/seed-5/rpu/" + roundFile(r.round),
                                    copy + "/bundles/seed-5/rpu/" + roundFile(r.round)));
                last = r.round;
            }
        auto bytes = dpu::test::readFile((copy + "/bundles/seed-5/rpu/" + roundFile(last)).toStdString());
        bytes[bytes.size() - 5] ^= 0x10; // a payload byte: its section digest no longer matches
        dpu::test::writeFile((copy + "/bundles/seed-5/rpu/" + roundFile(last)).toStdString(), bytes);
        const QString out = dir_.filePath(QStringLiteral("export-bad"));
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::exportRunBundles(copy.toStdString(), "rpu", 5, false, out.toStdString()),
                         roundFile(last).toStdString(), "rejected");
        QVERIFY(!QFile::exists(out));
    }

    void verifyNamesWhatIsWrong()
    {
        const std::string first = (run_ + "/bundles/seed-5/dpu/" + roundFile(1)).toStdString();
        const auto ok = dpu::verifyBundleFile(first, "");
        QVERIFY2(ok.ok, ok.message.c_str());
        QCOMPARE(ok.updateVersion, uint64_t(1));
        for (const auto& r : records_)
            if (r.strategy == "dpu" && r.bundleKind == "delta") {
                const std::string delta = (run_ + "/bundles/seed-5/dpu/" + roundFile(r.round)).toStdString();
                const auto noBase = dpu::verifyBundleFile(delta, "");
                QVERIFY(!noBase.ok);
                QVERIFY2(!noBase.message.empty(), "a rejection names its reason");
                // Inspecting: numbered tensors without the base, a clear refusal of a wrong one.
                QVERIFY(dpu::inspectBundleFile(delta).find("  #0 [") != std::string::npos);
                const std::string initial = (run_ + "/bundles/seed-5/initial.safetensors").toStdString();
                DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::inspectBundleFile(delta, initial),
                                         "not the device file this delta applies to");
                break;
            }
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::verifyBundleFile("/nonexistent/b.dpub", ""), "/nonexistent/b.dpub");
        QVERIFY(dpu::inspectBundleFile(first).find("reinit") != std::string::npos);
    }

    void signedRunsVerifyOnlyWithTheirKey()
    {
#ifdef DPU_PATCH_WITH_SODIUM
        const std::string key = dir_.filePath(QStringLiteral("sign")).toStdString();
        dpu::generateSigningKeys(key + ".key", key + ".pub");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::generateSigningKeys(key + ".key", key + ".pub"), "refusing to overwrite");
        const std::string other = dir_.filePath(QStringLiteral("other")).toStdString();
        dpu::generateSigningKeys(other + ".key", other + ".pub");
        dpu::Plan p = bundlePlan("fp32");
        p.strategies = {"dpu"};
        p.split.rounds = 2;
        p.bundle.secretKey = key + ".key";
        const QString run = dir_.filePath(QStringLiteral("signed"));
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(p, {run.toStdString()}).run(quiet).records;
        const QString bundle = run + "/bundles/seed-5/dpu/" + roundFile(1);
        const QString device = dir_.filePath(QStringLiteral("signed.safetensors"));
        QString out;
        QVERIFY(runApply({bundle, device, "--pubkey", QString::fromStdString(other + ".pub")}, &out) != 0);
        QVERIFY(!QFile::exists(device));
        QVERIFY2(runApply({bundle, device, "--pubkey", QString::fromStdString(key + ".pub")}, &out) == 0, qPrintable(out));
        QCOMPARE(sha256Hex(device), QString::fromStdString(records[0].deviceSha256));
        QVERIFY(dpu::verifyBundleFile(bundle.toStdString(), "", key + ".pub").ok);
        QVERIFY(!dpu::verifyBundleFile(bundle.toStdString(), "", other + ".pub").ok);
#else
        QFAIL("built without libsodium: signed bundles cannot be tested (install libsodium-dev)");
#endif
    }
};

QTEST_GUILESS_MAIN(TestRunBundles)
#include "test_run_bundles.moc"
