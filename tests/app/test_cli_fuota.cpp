// SPDX-License-Identifier: MIT
// dpu-cli bundle export --fuota: the requests exist, parse and follow ChirpStack FUOTA server's definitions; refusals write nothing.
#include "CliProcess.h"
#include "ProtoSchema.h"
#include "TestSupport.h"
#include "dpu/FuotaExport.h"
#include <QByteArray>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>

namespace {

// Three rounds of q4 DPU on EU868 SF12, the 10 % sub-band, Class B at ping periodicity 2.
const char kPlan[] = R"({"name": "cli-fuota", "dataset": {"train_limit": 1200, "test_limit": 400},
    "split": {"initial": 100, "per_round": 300, "rounds": 3, "validation": 200},
    "strategies": ["dpu"], "k": 0.02, "train": {"epochs": 1}, "seeds": [4],
    "bundle": {"values": "q4", "dense_tensors": "coded"},
    "fleet": {"link": "lorawan-eu868", "sf": 12, "duty_cycle": 0.1, "loss": 0.1, "device_class": "b",
              "ping_periodicity": 2%1}})";

nlohmann::json readJson(const QString& path)
{
    const std::vector<uint8_t> bytes = dpu::test::readFile(path.toStdString());
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}

} // namespace

class TestCliFuota : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    /// A finished run of kPlan with `extraFleetKeys` in its fleet section.
    QString run(const QString& name, const QString& extraFleetKeys)
    {
        const QString plan = dir_.filePath(name + ".json");
        const QByteArray text = QString::fromLatin1(kPlan).arg(extraFleetKeys).toUtf8();
        dpu::test::writeFile(plan.toStdString(), std::vector<uint8_t>(text.begin(), text.end()));
        const QString out = dir_.filePath(name);
        const auto r = dpu::test::runCli({"run", plan, "--out", out, "--quiet"});
        return r.code == 0 ? out : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
    }

    void exportWritesRequestsThatFollowTheDefinitions()
    {
        const QString runDir = run("multicast", "");
        QVERIFY(!runDir.isEmpty());
        const QString out = dir_.filePath(QStringLiteral("export"));
        const auto r = dpu::test::runCli({"bundle", "export", runDir, "--out", out, "--fuota"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("Wrote 2 FUOTA deployment requests")), qPrintable(r.out));
        const dpu::test::ProtoSchema schema = dpu::test::readProtoSchema(dpu::test::dataDir() + "/fuota/fuota.proto");
        const nlohmann::json index = readJson(out + "/fuota/index.json");
        QCOMPARE(index.at("requests").size(), size_t(2)); // rounds 2 and 3: round 1 installs the devices
        for (const auto& entry : index.at("requests")) {
            const QString file = out + "/" + QString::fromStdString(entry.at("file").get<std::string>());
            QVERIFY2(QFile::exists(file), qPrintable(file));
            const nlohmann::json request = readJson(file);
            std::string problems;
            for (const std::string& p : dpu::test::checkProtoJson(schema, "CreateDeploymentRequest", request, ""))
                problems += p + "\n";
            QVERIFY2(problems.empty(), problems.c_str());
            const nlohmann::json& d = request.at("deployment");
            QCOMPARE(d.at("multicastGroupType").get<std::string>(), std::string("CLASS_B"));
            QCOMPARE(d.at("multicastDr").get<int>(), 0);
            QCOMPARE(d.at("multicastPingSlotPeriod").get<int>(), 2);
            QCOMPARE(d.at("multicastFrequency").get<uint32_t>(), 869525000u);
            QCOMPARE(d.at("fragmentationRedundancy").get<int64_t>(), entry.at("redundancy").get<int64_t>());
            QVERIFY(d.at("applicationId").get<std::string>().rfind(dpu::kFuotaFillIn, 0) == 0);
            const QByteArray payload = QByteArray::fromBase64(QByteArray::fromStdString(d.at("payload").get<std::string>()));
            const std::vector<uint8_t> bundle =
                dpu::test::readFile((out + "/" + QString::fromStdString(entry.at("payload_file").get<std::string>())).toStdString());
            QVERIFY(payload == QByteArray(reinterpret_cast<const char*>(bundle.data()), int(bundle.size())));
        }
    }

    void helpSaysIt()
    {
        const auto r = dpu::test::runCli({"bundle", "export", "--help"});
        QVERIFY(r.code == 0 && r.out.contains(QStringLiteral("[--fuota]")) && r.out.contains(QStringLiteral("fuota/round-NNN.json")));
        QVERIFY(dpu::test::runCli({"bundle", "--help"}).out.contains(QStringLiteral("[--fuota]")));
    }

    /// A deployment a FUOTA server cannot take is refused by its field before anything is written.
    void refusalsWriteNothing()
    {
        const QString unicast = run("unicast", QStringLiteral(", \"delivery\": \"unicast\""));
        QVERIFY(!unicast.isEmpty());
        const QString out = dir_.filePath(QStringLiteral("refused"));
        auto r = dpu::test::runCli({"bundle", "export", unicast, "--out", out, "--fuota"});
        QVERIFY2(r.code != 0 && r.err.contains(QStringLiteral("--fuota: fleet.delivery: ")), qPrintable(r.err));
        QVERIFY(!QDir(out).exists());
        // Without --fuota the same run exports as before.
        r = dpu::test::runCli({"bundle", "export", unicast, "--out", out});
        QVERIFY2(r.code == 0 && !QDir(out + "/fuota").exists(), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliFuota)
#include "test_cli_fuota.moc"
