// SPDX-License-Identifier: MIT
// Catch-up bundles of real runs: the same device file as the chain for every version pair and coding; routes; bad input.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleManifest.h"
#include "dpu/CatchUp.h"
#include "dpu/Error.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetRuns.h"
#include "dpu/LinkModel.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "chain/CatchUpBuilder.h"
#include "chain/DeployedChain.h"
#include "util/Sha256Hex.h"
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <filesystem>
#include <memory>

namespace {

struct RunCase {
    const char* name;
    const char* values;
    const char* dense;
    std::vector<std::string> strategies;
};

// Three rounds: 100 samples, then 300 per round, so that DPU re-initialises in round 2
// (|D| 400 > 2 x 100) and pairs across it exercise the seed rule; FU ships full bundles; RPU and
// DPU deltas. Every coding; always-shipped tensors exact, partial (in the top-k) and coded.
const std::vector<RunCase>& runCases()
{
    static const std::vector<RunCase> cases = {
        {"fp32", "fp32", "exact", {"dpu", "fu", "rpu"}},
        {"fp16", "fp16", "exact", {"dpu"}},
        {"q8-partial", "q8", "partial", {"dpu", "rpu"}},
        {"q8c-coded", "q8c", "coded", {"dpu", "rpu"}},
        {"q4-coded", "q4", "coded", {"dpu"}},
        {"ternary-partial", "ternary", "partial", {"dpu"}},
    };
    return cases;
}

dpu::Plan catchUpPlan(const RunCase& c)
{
    dpu::Plan p = dpu::test::tinyRealPlan(std::string("catchup-") + c.name);
    p.strategies = c.strategies;
    p.bundle.values = *dpu::enumFromString<dpu::Coding>(c.values);
    p.bundle.denseTensors = *dpu::enumFromString<dpu::DenseTensors>(c.dense);
    return p;
}

} // namespace

class TestCatchUp : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int reinitPairs_ = 0; ///< pairs (from > 0) with a re-initialisation in between, over every run

    QString runDir(const char* name) const { return dir_.filePath(QStringLiteral("run-") + QLatin1String(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        for (const RunCase& c : runCases()) {
            dpu::RunObserver quiet;
            dpu::Runner(catchUpPlan(c), {runDir(c.name).toStdString()}).run(quiet);
        }
    }

    void catchUpEqualsChainForEveryVersionPair_data()
    {
        QTest::addColumn<QString>("run");
        QTest::addColumn<QString>("strategy");
        for (const RunCase& c : runCases())
            for (const std::string& s : c.strategies)
                QTest::newRow((std::string(c.name) + "/" + s).c_str()) << QString::fromLatin1(c.name)
                                                                       << QString::fromStdString(s);
    }
    void catchUpEqualsChainForEveryVersionPair()
    {
        QFETCH(QString, run);
        QFETCH(QString, strategy);
        const dpu::DeployedChain chain =
            dpu::DeployedChain::load(runDir(run.toLatin1().constData()).toStdString(), strategy.toStdString(), 3, false);
        QVERIFY2(chain.latest() >= 2, "the run deploys at least two versions");
        for (uint64_t to = 1; to <= chain.latest(); ++to)
            for (uint64_t from = 0; from < to; ++from) {
                const dpu::CatchUpResult r = dpu::catchUpOf(chain, from, to, {});
                // The device code applies it to the device's file at `from`: the file at `to`, bytes
                // and metadata (dpu.update_version) included, as the missed bundles give it.
                dpu::bundle::BundleApplier::Options o;
                o.currentVersion = from;
                const auto applied = dpu::bundle::BundleApplier::apply(r.bundle, chain.files[from], o);
                QVERIFY2(applied.status == 0, applied.message.c_str());
                QVERIFY2(applied.file == chain.files[to],
                         qPrintable(QStringLiteral("%1 -> %2 differs from the chain").arg(from).arg(to)));
                QCOMPARE(applied.updateVersion, to);
                QCOMPARE(r.deviceSha256, chain.rounds[to - 1].deviceSha256);
                QCOMPARE(r.catchUpBytes, int64_t(r.bundle.size()));
                // The chain route starts at the last bundle in between that reads no base.
                QVERIFY(!r.chainRounds.empty());
                QCOMPARE(r.chainRounds.back(), chain.rounds[to - 1].round);
                int64_t chainBytes = 0;
                for (size_t i = 0; i < chain.rounds.size(); ++i)
                    if (std::count(r.chainRounds.begin(), r.chainRounds.end(), chain.rounds[i].round)) {
                        chainBytes += int64_t(chain.rounds[i].bundle.size());
                        QVERIFY(i + 1 > from);
                        if (chain.rounds[i].round != r.chainRounds.front())
                            QCOMPARE(chain.rounds[i].kind, std::string("delta"));
                    }
                QCOMPARE(r.chainBytes, chainBytes);
                bool reinitBetween = false;
                for (uint64_t v = from + 1; v <= to; ++v)
                    reinitBetween = reinitBetween || chain.rounds[v - 1].kind == "reinit+delta";
                QVERIFY(r.kind == "delta" || (r.kind == "reinit+delta" && reinitBetween));
                reinitPairs_ += from > 0 && reinitBetween;
                // The exact union of several rounds never costs more than their exact fp32 bundles.
                if (run == QLatin1String("fp32") && strategy != QLatin1String("fu") && r.chainRounds.size() >= 2)
                    QVERIFY2(r.catchUpBytes < r.chainBytes,
                             qPrintable(QStringLiteral("%1 -> %2: %3 vs %4").arg(from).arg(to).arg(r.catchUpBytes).arg(r.chainBytes)));
            }
    }

    void seedRuleWasExercised()
    {
        // Whether a re-initialised round passes the deploy gate depends on training; over the
        // DPU runs above some do, so the pairs across them went through the seed rule.
        QVERIFY2(reinitPairs_ > 0, "no run re-initialised between two deployed versions");
    }

    void routeIsTheCheapest()
    {
        const dpu::DeployedChain dpuChain = dpu::DeployedChain::load(runDir("q4-coded").toStdString(), "dpu", 3, false);
        const dpu::DeployedChain fu = dpu::DeployedChain::load(runDir("fp32").toStdString(), "fu", 3, false);
        for (const dpu::DeployedChain* chain : {&dpuChain, &fu})
            for (uint64_t from = 0; from < chain->latest(); ++from) {
                const dpu::CatchUpResult r = dpu::catchUpOf(*chain, from, chain->latest(), {});
                const int64_t best = std::min({r.catchUpBytes, r.chainBytes, r.fullBytes});
                const dpu::CatchUpRoute expected = r.chainBytes == best     ? dpu::CatchUpRoute::Chain
                                                   : r.catchUpBytes == best ? dpu::CatchUpRoute::CatchUp
                                                                            : dpu::CatchUpRoute::Full;
                QCOMPARE(int(r.route), int(expected));
                QVERIFY2(r.reason.find(dpu::catchUpRouteName(r.route)) == 0, r.reason.c_str());
                QVERIFY2(r.reason.find("chain of") != std::string::npos && r.reason.find("full model") != std::string::npos,
                         r.reason.c_str());
                // The full model: a full bundle of the latest version, that applies to any device.
                QCOMPARE(int(dpu::bundle::BundleManifest::read(r.fullBundle).kind), int(dpu::bundle::Kind::Full));
                const auto full = dpu::bundle::BundleApplier::apply(r.fullBundle, {}, {});
                QVERIFY(full.file == chain->files.back());
            }
        // FU ships full bundles: a device needs only the last one, never the ones before.
        const dpu::CatchUpResult first = dpu::catchUpOf(fu, 0, fu.latest(), {});
        QCOMPARE(first.chainRounds.size(), size_t(1));
        // Several DPU rounds of q4: the exact union of their changes in one bundle beats the chain.
        const dpu::CatchUpResult many = dpu::catchUpOf(dpuChain, 1, dpuChain.latest(), {});
        if (many.chainRounds.size() >= 2)
            QVERIFY2(many.route != dpu::CatchUpRoute::Full, many.reason.c_str());
    }

    void fleetSimulationUsesRealCatchUps()
    {
        // The simulation's catch-up sizes built from the run's own files: the cheapest route of
        // the real catch-up bundle between the two versions, each pair built once.
        const dpu::RunFolder run = dpu::loadRunFolder(runDir("q4-coded").toStdString());
        dpu::FleetRunInput in = dpu::fleetStrategiesOf(run, 3);
        QCOMPARE(in.strategies.size(), size_t(1));
        dpu::FleetStrategy& s = in.strategies[0];
        const int last = static_cast<int>(s.versions.size()) - 1;
        QVERIFY2(last >= 2, "the run must deploy three versions for a device to miss one");
        auto sizes = std::make_shared<dpu::CatchUpSizes>();
        dpu::useRealCatchUps(s, run, "dpu", 3, sizes);
        const dpu::DeployedChain chain = dpu::DeployedChain::load(runDir("q4-coded").toStdString(), "dpu", 3, false);
        uint64_t firstVersion = 0;
        for (const dpu::RoundRecord& r : run.records)
            if (r.deployed && (firstVersion == 0 || r.deviceVersion < firstVersion))
                firstVersion = r.deviceVersion;
        const dpu::CatchUpResult expected = dpu::catchUpOf(chain, firstVersion, chain.latest(), {});
        QCOMPARE(s.catchUpBytes(0, last), std::min({expected.catchUpBytes, expected.chainBytes, expected.fullBytes}));
        QCOMPARE(sizes->built, 1);
        QCOMPARE(s.catchUpBytes(0, last), std::min({expected.catchUpBytes, expected.chainBytes, expected.fullBytes}));
        QCOMPARE(sizes->built, 1); // the second answer came from the map
        // Never more than the estimate (the chain's sum or the full model).
        QVERIFY(s.catchUpBytes(0, last) <= dpu::chainOrFullBytes(s, 0, last));
        // A simulation with devices that sleep asks for its catch-ups, and they are built.
        dpu::FleetConfig config;
        dpu::FleetGroup group;
        group.devices = 20;
        group.availability = 0.5;
        group.link = dpu::lorawanEu868(9, 0.1);
        config.groups.push_back(group);
        config.lastRound = in.lastRound;
        config.drainRounds = 3;
        const dpu::FleetResult result = dpu::simulateFleet(config, s);
        QVERIFY(!result.rounds.empty());
        QVERIFY(sizes->built >= 1);
        // A run folder without its bundles: the simulation says which file is missing.
        QTemporaryDir copy;
        const std::string moved = copy.path().toStdString() + "/run";
        std::filesystem::copy(runDir("q4-coded").toStdString(), moved, std::filesystem::copy_options::recursive);
        std::filesystem::remove_all(moved + "/bundles");
        dpu::RunFolder stripped = dpu::loadRunFolder(moved);
        dpu::FleetStrategy bare = dpu::fleetStrategiesOf(stripped, 3).strategies.at(0);
        dpu::useRealCatchUps(bare, stripped, "dpu", 3);
        try {
            bare.catchUpBytes(0, last);
            QFAIL("a run without its bundles gave a catch-up size");
        } catch (const dpu::Error& e) {
            QVERIFY2(std::string(e.what()).find(moved) != std::string::npos, e.what());
        }
    }

    void exportWritesCatchUpBundlesAndTheirRoutes()
    {
        const std::string run = runDir("q8c-coded").toStdString();
        const QString out = dir_.filePath(QStringLiteral("export-q8c-coded"));
        dpu::CatchUpSelection all;
        all.all = true;
        const dpu::CatchUpExport ex = dpu::exportRunBundlesWithCatchUp(run, "dpu", 3, false, out.toStdString(), all);
        QCOMPARE(ex.versions.size(), size_t(ex.rounds.rounds.size()));
        const auto index = nlohmann::json::parse(dpu::test::readFile((out + "/catchup.json").toStdString()));
        QCOMPARE(index.at("latest_version").get<uint64_t>(), uint64_t(ex.rounds.rounds.size()));
        QCOMPARE(index.at("versions").size(), ex.versions.size());
        for (const auto& v : index.at("versions")) {
            const std::string route = v.at("route").get<std::string>();
            int64_t sum = 0;
            for (const auto& f : v.at("files")) {
                const auto bytes = dpu::test::readFile((out + "/").toStdString() + f.at("file").get<std::string>());
                QCOMPARE(int64_t(bytes.size()), f.at("bytes").get<int64_t>());
                QCOMPARE(dpu::sha256Hex(bytes), f.at("sha256").get<std::string>());
                sum += int64_t(bytes.size());
            }
            QCOMPARE(sum, v.at("bytes").get<int64_t>());
            QCOMPARE(sum, std::min({v.at("catchup_bytes").get<int64_t>(), v.at("chain_bytes").get<int64_t>(),
                                    v.at("full_bytes").get<int64_t>()}));
            QVERIFY(route == "catchup" || route == "chain" || route == "full");
            QVERIFY(QFile::exists(out + "/" + QString::fromStdString(v.at("catchup").at("file").get<std::string>())));
        }
        // Exported again without catch-up: no index naming files of another export is left.
        dpu::exportRunBundlesWithCatchUp(run, "dpu", 3, false, out.toStdString(), {});
        QVERIFY(!QFile::exists(out + "/catchup.json"));
        QVERIFY(QDir(out + "/catchup").entryList(QDir::Files).isEmpty());
    }

    void badInputIsNamedAndNothingIsWritten()
    {
        const std::string run = runDir("fp32").toStdString();
        const std::string out = dir_.filePath(QStringLiteral("bad.dpub")).toStdString();
        dpu::CatchUpRequest q;
        q.runDir = run;
        q.strategy = "dpu";
        q.fromVersion = 2;
        q.toLatest = false;
        q.toVersion = 2;
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeCatchUpBundle(q, out), "--from", "must be below");
        q.toVersion = 99;
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeCatchUpBundle(q, out), "--to", "99", "never deployed");
        q.toLatest = true;
        q.fromVersion = 77;
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeCatchUpBundle(q, out), "--from", "77", "never deployed");
        q.strategy = "gcpu";
        q.fromVersion = 0;
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeCatchUpBundle(q, out), "no strategy \"gcpu\"");
        QVERIFY(!QFile::exists(QString::fromStdString(out)));

        // A round file the server lost: named, and neither the bundle nor an export is written.
        const QString copy = dir_.filePath(QStringLiteral("lost"));
        QVERIFY(QDir().mkpath(copy + "/bundles/seed-3/dpu"));
        QVERIFY(QFile::copy(QString::fromStdString(run) + "/results.jsonl", copy + "/results.jsonl"));
        QVERIFY(QFile::copy(QString::fromStdString(run) + "/bundles/seed-3/initial.safetensors",
                            copy + "/bundles/seed-3/initial.safetensors"));
        const dpu::DeployedChain chain = dpu::DeployedChain::load(run, "dpu", 3, false);
        for (size_t i = 1; i < chain.rounds.size(); ++i) // the first round's file is missing
            QVERIFY(QFile::copy(QString::fromStdString(chain.rounds[i].path),
                                copy + "/bundles/seed-3/dpu/" + QFileInfo(QString::fromStdString(chain.rounds[i].path)).fileName()));
        q.runDir = copy.toStdString();
        q.strategy = "dpu";
        const std::string lost = QFileInfo(QString::fromStdString(chain.rounds[0].path)).fileName().toStdString();
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeCatchUpBundle(q, out), lost, "missing");
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
        const QString exportDir = dir_.filePath(QStringLiteral("export-bad"));
        dpu::CatchUpSelection some;
        some.fromVersions = {0, 1};
        DPU_EXPECT_THROW_MESSAGE(dpu::Error,
                                 dpu::exportRunBundlesWithCatchUp(copy.toStdString(), "dpu", 3, false,
                                                                  exportDir.toStdString(), some),
                                 lost);
        some.fromVersions = {chain.latest()};
        DPU_EXPECT_THROW_MESSAGE(dpu::Error,
                                 dpu::exportRunBundlesWithCatchUp(run, "dpu", 3, false, exportDir.toStdString(), some),
                                 "--catchup", "must be below");
        QVERIFY(!QFile::exists(exportDir));
    }
};

QTEST_GUILESS_MAIN(TestCatchUp)
#include "test_catchup.moc"
