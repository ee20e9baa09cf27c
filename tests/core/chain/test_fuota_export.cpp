// SPDX-License-Identifier: MIT
// FUOTA deployment requests of a real run, held to ChirpStack FUOTA server's message definitions (tests/data/fuota) and to the link model's figures.
#include "ProtoSchema.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Bundles.h"
#include "dpu/DeploymentModel.h" // linkOf(), wherever the link model keeps it
#include "dpu/Error.h"
#include "dpu/FuotaExport.h"
#include "dpu/LinkModel.h"
#include "dpu/Runner.h"
#include <QByteArray>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
using dpu::test::ProtoSchema;

nlohmann::json readJson(const std::string& path)
{
    const std::vector<uint8_t> bytes = dpu::test::readFile(path);
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}

std::vector<uint8_t> fromBase64(const std::string& text)
{
    const QByteArray b = QByteArray::fromBase64(QByteArray::fromStdString(text));
    return {b.begin(), b.end()};
}

dpu::Deployment eu868(int sf, double dutyCycle, dpu::DeviceClassChoice deviceClass, int periodicity = 0)
{
    dpu::Deployment d;
    d.link.link = "lorawan-eu868";
    d.link.spreadingFactor = sf;
    d.link.dutyCycle = dutyCycle;
    d.link.frameLoss = 0.1;
    d.link.deviceClass = deviceClass;
    d.link.pingPeriodicity = periodicity;
    return d;
}

/// The LinkError's field, or "" when `f` throws none.
template <typename F> std::string refusedField(F&& f)
{
    try {
        f();
    } catch (const dpu::LinkError& e) {
        return e.field();
    }
    return {};
}

} // namespace

class TestFuotaExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ProtoSchema schema_;
    std::string run_;    ///< a finished run
    std::string export_; ///< the run's bundles as dpu-cli bundle export writes them

    /// A fresh copy of the export to write requests into.
    std::string copyOfExport(const std::string& name)
    {
        const std::string to = dir_.filePath(QString::fromStdString(name)).toStdString();
        fs::copy(export_, to, fs::copy_options::recursive);
        return to;
    }

    /// Every request file against the definitions; every field of Deployment present; the fill-ins flagged.
    void checkAgainstDefinitions(const dpu::FuotaExport& x)
    {
        const nlohmann::json index = readJson(x.folder + "/fuota/index.json");
        for (const dpu::FuotaRequest& q : x.requests) {
            const nlohmann::json j = readJson(x.folder + "/" + q.file);
            std::string problems;
            for (const std::string& p : dpu::test::checkProtoJson(schema_, "CreateDeploymentRequest", j, ""))
                problems += p + "\n";
            QVERIFY2(problems.empty(), (q.file + ":\n" + problems).c_str());
            const nlohmann::json& d = j.at("deployment");
            for (const dpu::test::ProtoField& f : schema_.messages.at("Deployment")) {
                const std::string name = dpu::test::jsonName(f.name);
                QVERIFY2(d.contains(name), (q.file + " lacks " + name).c_str());
                if (f.type != "DeploymentDevice") // devices: its two fields
                    QVERIFY2(index.at("fields").contains("deployment." + name), name.c_str());
            }
            for (const std::string path : index.at("fill_in")) {
                QVERIFY2(index.at("fields").at(path).at("source") == "fill in", path.c_str());
                const std::string key = path.substr(path.rfind('.') + 1);
                const nlohmann::json& holder = path.find("devices[]") != std::string::npos ? d.at("devices").at(0) : d;
                QVERIFY2(holder.at(key).get<std::string>().rfind(dpu::kFuotaFillIn, 0) == 0, path.c_str());
            }
            QVERIFY(d.at("multicastRegion") == q.session.region);
        }
        QCOMPARE(index.at("requests").size(), x.requests.size());
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        schema_ = dpu::test::readProtoSchema(dpu::test::dataDir() + "/fuota/fuota.proto");
        QVERIFY(schema_.messages.count("Deployment") && schema_.enums.count("MulticastGroupType"));
        // Three rounds of q4 DPU: round 1 installs the devices, rounds 2 and 3 are updates.
        dpu::Plan p = dpu::test::tinyRealPlan("fuota");
        p.seeds = {5};
        p.bundle.values = dpu::Coding::Q4;
        run_ = dir_.filePath(QStringLiteral("run")).toStdString();
        dpu::RunObserver quiet;
        dpu::Runner(p, {run_}).run(quiet);
        export_ = dir_.filePath(QStringLiteral("export")).toStdString();
        const dpu::BundleExport ex = dpu::exportRunBundles(run_, "dpu", 5, false, export_);
        QVERIFY2(ex.rounds.size() >= 2, "the run deploys an update round");
    }

    /// The reader finds every field, and the check is not vacuous: it names each kind of mistake.
    void theCheckCatchesMistakes()
    {
        QCOMPARE(schema_.messages.at("Deployment").size(), size_t(19));
        QCOMPARE(schema_.messages.at("Deployment")[3].name, std::string("multicast_dr"));
        const auto problems = [&](const nlohmann::json& deployment) {
            nlohmann::json request = nlohmann::json::object();
            request["deployment"] = deployment;
            return dpu::test::checkProtoJson(schema_, "CreateDeploymentRequest", request, "").size();
        };
        QCOMPARE(problems({{"multicastDr", 3}, {"multicastGroupType", "CLASS_C"}, {"unicastTimeout", "60s"}}), size_t(0));
        QCOMPARE(problems({{"multicast_dr", 3}}), size_t(1));            // the .proto name, not the JSON name
        QCOMPARE(problems({{"multicastDr", "3"}}), size_t(1));           // a string for a uint32
        QCOMPARE(problems({{"multicastDr", -1}}), size_t(1));            // below uint32
        QCOMPARE(problems({{"multicastGroupType", "CLASS_A"}}), size_t(1)); // no such enum value
        QCOMPARE(problems({{"payload", "not base64!"}}), size_t(1));
        QCOMPARE(problems({{"unicastTimeout", 60}}), size_t(1));         // a Duration is a string
        QCOMPARE(problems({{"devices", {{"devEui", "x"}}}}), size_t(1)); // repeated: an array
        QCOMPARE(problems({{"devices", {{{"devEui", "x"}, {"appKey", "y"}}}}}), size_t(1));
    }

    void requestsFollowTheDefinitions_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("EU868 SF12 10 % Class C") << 0;
        QTest::newRow("EU868 SF9 1 % Class B p=4") << 1;
        QTest::newRow("EU868 0.1 % SF7 Class B") << 2; // Class C: 89 frames take 32832 s > 2^15 s
        QTest::newRow("US915 SF10 Class C") << 3;
        QTest::newRow("US915 SF12 Class B") << 4;
        QTest::newRow("FUOTASim mix, one multicast per SF") << 5;
    }
    void requestsFollowTheDefinitions()
    {
        QFETCH(int, which);
        dpu::Deployment d = eu868(12, 0.1, dpu::DeviceClassChoice::Preset);
        if (which == 1)
            d = eu868(9, 0.01, dpu::DeviceClassChoice::B, 4);
        if (which == 2)
            d = eu868(7, 0.001, dpu::DeviceClassChoice::B, 1);
        if (which == 3 || which == 4) {
            d.link.link = "lorawan-us915";
            d.link.spreadingFactor = which == 3 ? 10 : 12;
            d.link.dutyCycle.reset();
            d.link.deviceClass = which == 3 ? dpu::DeviceClassChoice::C : dpu::DeviceClassChoice::B;
        }
        if (which == 5) {
            d.link.spreadingFactor = 0;
            d.link.sfMix = "fuotasim";
            d.policy.multicastPerSpreadingFactor = true;
        }
        const dpu::FuotaExport x = dpu::writeFuotaRequests(copyOfExport("defs-" + std::to_string(which)), d);
        QVERIFY(x.initialRound == 1);
        QCOMPARE(x.requests.size(), size_t(which == 5 ? 12 : 2)); // rounds 2 and 3 (x 6 SFs)
        checkAgainstDefinitions(x);
        if (which == 5) {
            int devices = 0;
            for (size_t i = 0; i < 6; ++i)
                devices += x.requests[i].session.devices;
            QCOMPARE(devices, d.devices);
            QCOMPARE(x.requests[5].file, std::string("fuota/round-002-sf12.json"));
        }
    }

    /// The values are the link model's: DR of the SF, ping periodicity, fragment, redundancy, timeout.
    void valuesAreTheLinkModels()
    {
        dpu::Deployment d = eu868(12, 0.01, dpu::DeviceClassChoice::B, 3);
        const dpu::FuotaExport x = dpu::writeFuotaRequests(copyOfExport("values"), d);
        const dpu::Link link = dpu::linkOf(d.link);
        for (const dpu::FuotaRequest& q : x.requests) {
            const nlohmann::json j = readJson(x.folder + "/" + q.file).at("deployment");
            QCOMPARE(j.at("multicastGroupType").get<std::string>(), std::string("CLASS_B"));
            QCOMPARE(j.at("multicastDr").get<int>(), 0);
            QCOMPARE(j.at("multicastPingSlotPeriod").get<int>(), 3);
            QCOMPARE(j.at("multicastFrequency").get<uint32_t>(), 868100000u);
            QCOMPARE(j.at("fragmentationFragmentSize").get<int>(), dpu::fragmentDataBytes(link));
            QCOMPARE(dpu::fragmentDataBytes(link), 48); // N = 51 at SF12, less TS004's 3-byte header
            const std::vector<uint8_t> bundle = fromBase64(j.at("payload").get<std::string>());
            QVERIFY(bundle == dpu::test::readFile(x.folder + "/" + q.payloadFile));
            const dpu::LinkRound r = dpu::linkRound(link, int64_t(bundle.size()), 1, d.policy.target);
            QCOMPARE(j.at("fragmentationRedundancy").get<int64_t>(), r.redundancy);
            QVERIFY(r.redundancy > 3); // 10 % loss
            const int t = j.at("multicastTimeout").get<int>();
            QVERIFY(128 * std::ldexp(1.0, t) >= r.wallTime && (t == 0 || 128 * std::ldexp(1.0, t - 1) < r.wallTime));
            QCOMPARE(fromBase64(j.at("fragmentationDescriptor").get<std::string>()),
                     (std::vector<uint8_t>{uint8_t(q.updateVersion), 0, 0, 0}));
        }
        // Every SF's data rate in both regions.
        for (int sf = 7; sf <= 12; ++sf) {
            dpu::Deployment us = eu868(sf, 0.1, dpu::DeviceClassChoice::Preset);
            QCOMPARE(dpu::fuotaSessionsOf(us).at(0).dataRate, 12 - sf);
            us.link.link = "lorawan-us915";
            us.link.dutyCycle.reset();
            QCOMPARE(dpu::fuotaSessionsOf(us).at(0).dataRate, 20 - sf);
            QCOMPARE(dpu::fuotaSessionsOf(us).at(0).frequencyHz, 923300000u);
        }
        // A mix multicasts at its slowest SF.
        dpu::Deployment mixed = eu868(0, 0.1, dpu::DeviceClassChoice::C);
        mixed.link.sfMix = "7:50,10:50";
        QCOMPARE(dpu::fuotaSessionsOf(mixed).size(), size_t(1));
        QCOMPARE(dpu::fuotaSessionsOf(mixed).at(0).dataRate, 2);
    }

    /// What the CLI checks before exporting is what the export then writes, request for request.
    void planningEqualsWriting()
    {
        const dpu::Deployment d = eu868(10, 0.1, dpu::DeviceClassChoice::C);
        const std::vector<dpu::FuotaRequest> planned = dpu::planFuotaRequests(run_, "", 0, true, "", d);
        const dpu::FuotaExport written = dpu::writeFuotaRequests(copyOfExport("planned"), d);
        QCOMPARE(planned.size(), written.requests.size());
        for (size_t i = 0; i < planned.size(); ++i) {
            QCOMPARE(planned[i].file, written.requests[i].file);
            QVERIFY(planned[i].json == written.requests[i].json);
        }
        dpu::Deployment unicast = d;
        unicast.link.delivery = dpu::DeliveryChoice::Unicast;
        QCOMPARE(refusedField([&] { dpu::planFuotaRequests(run_, "", 0, true, "", unicast); }), std::string("fleet.delivery"));
    }

    void refusesWhatAServerCannotTake()
    {
        dpu::Deployment nb;
        nb.link.link = "nb-iot-nb2";
        QCOMPARE(refusedField([&] { dpu::fuotaSessionsOf(nb); }), std::string("fleet.link"));
        dpu::Deployment unicast = eu868(7, 0.01, dpu::DeviceClassChoice::C);
        unicast.link.delivery = dpu::DeliveryChoice::Unicast;
        QCOMPARE(refusedField([&] { dpu::fuotaSessionsOf(unicast); }), std::string("fleet.delivery"));
        // Refused before anything is written.
        const std::string folder = copyOfExport("refused");
        QCOMPARE(refusedField([&] { dpu::writeFuotaRequests(folder, unicast); }), std::string("fleet.delivery"));
        QVERIFY(!fs::exists(folder + "/fuota"));

        const dpu::Deployment slow = eu868(12, 0.01, dpu::DeviceClassChoice::C);
        const dpu::FuotaSession s = dpu::fuotaSessionsOf(slow).at(0);
        // 200 KB at SF12 on the 1 % sub-band: days, beyond Class C's 2^15 s.
        QCOMPARE(refusedField([&] { dpu::fuotaRequestOf(slow, s, std::vector<uint8_t>(200000, 1), 2, 2); }),
                 std::string("multicastTimeout"));
        // 1 MB: more than one TS004 session's 16383 fragments of 48 B.
        QCOMPARE(refusedField([&] { dpu::fuotaRequestOf(slow, s, std::vector<uint8_t>(1000000, 1), 2, 2); }),
                 std::string("payload"));
        dpu::FuotaOptions bad;
        bad.multicastGroupId = 4;
        QCOMPARE(refusedField([&] { dpu::fuotaRequestOf(slow, s, std::vector<uint8_t>(100, 1), 2, 2, bad); }),
                 std::string("multicastGroupId"));
        // Class B carries the same bundle: 2^t beacon periods.
        const dpu::Deployment classB = eu868(12, 0.01, dpu::DeviceClassChoice::B, 0);
        const dpu::FuotaRequest q =
            dpu::fuotaRequestOf(classB, dpu::fuotaSessionsOf(classB).at(0), std::vector<uint8_t>(20000, 1), 2, 2);
        QVERIFY(q.timeoutSeconds >= q.sessionSeconds && q.timeoutSeconds == 128 * std::ldexp(1.0, q.multicastTimeout));
    }

    /// Requests of an earlier export that this one does not write are removed; others kept.
    void anEarlierExportsRequestsGo()
    {
        const std::string folder = copyOfExport("again");
        dpu::Deployment perSf = eu868(0, 0.1, dpu::DeviceClassChoice::C);
        perSf.link.sfMix = "7:50,12:50";
        perSf.policy.multicastPerSpreadingFactor = true;
        dpu::writeFuotaRequests(folder, perSf);
        QVERIFY(fs::exists(folder + "/fuota/round-003-sf7.json"));
        const dpu::FuotaExport x = dpu::writeFuotaRequests(folder, eu868(12, 0.1, dpu::DeviceClassChoice::C));
        QVERIFY(!fs::exists(folder + "/fuota/round-003-sf7.json") && !fs::exists(folder + "/fuota/round-003-sf12.json"));
        QVERIFY(fs::exists(folder + "/fuota/round-003.json"));
        QCOMPARE(readJson(folder + "/fuota/index.json").at("requests").size(), x.requests.size());
    }
};

QTEST_GUILESS_MAIN(TestFuotaExport)
#include "test_fuota_export.moc"
