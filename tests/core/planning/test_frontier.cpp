// SPDX-License-Identifier: MIT
// The frontier's grouping (plan minus swept and family keys), families in real bytes, figures against FU, log-k interpolation.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/Frontier.h"
#include "dpu/RunNames.h"
#include <QtTest/QtTest>
#include <cmath>

namespace {

using dpu::test::roundRecord;

// The records of a round: seed 1, deployed when it cost analytic bytes.
dpu::RoundRecord record(const char* strategy, int round, double accuracy, double bytes)
{
    return roundRecord(strategy, 1, round, accuracy, bytes, 0);
}

dpu::Plan planAt(double k, int rounds = 2)
{
    dpu::Plan p = dpu::test::sweepPlan(k, rounds, dpu::defaultPlan().strategies);
    p.seeds = dpu::defaultPlan().seeds;
    return p;
}

dpu::FrontierRun run(const char* id, const dpu::Plan& plan, std::vector<dpu::RoundRecord> records, bool finished = true)
{
    return dpu::test::frontierRun(id, plan, std::move(records), finished);
}

constexpr double kFull = 4040; // analytic bytes of a full round (I = 1000, 10 dense)

/// Records of one strategy over two rounds (seed 1) with the runner's cumulative figures.
std::vector<dpu::RoundRecord> rounds2(const char* strategy, std::vector<double> accuracy, std::vector<double> analytic,
                                      std::vector<int64_t> real)
{
    return dpu::test::strategyRounds(strategy, 1, accuracy, analytic, real, kFull);
}

} // namespace

class TestFrontier : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void differencesIgnoreSweptAndExecutionKeys()
    {
        dpu::Plan a = planAt(0.01), b = planAt(0.1);
        b.device = dpu::ComputeDevice::Cpu;
        b.threads = 2;
        b.bundle.write = false;
        b.strategies = {"rpu", "fu", "dpu"}; // the default's strategies in another order
        QVERIFY(dpu::planDifferences(a, b, dpu::defaultSweptKeys()).empty());
        // Without k among the swept keys, k is a difference like any other.
        const auto withK = dpu::planDifferences(a, b, {});
        QCOMPARE(withK.size(), size_t(1));
        QCOMPARE(withK[0], std::string("k: 0.01 vs 0.1"));

        b.split.rounds = 3;
        b.train.lr = 0.1;
        const auto d = dpu::planDifferences(a, b, dpu::defaultSweptKeys());
        QCOMPARE(d.size(), size_t(2));
        QCOMPARE(d[0], std::string("split.rounds: 2 vs 3"));
        QVERIFY2(d[1].rfind("train.lr: 0.005 vs 0.1", 0) == 0, d[1].c_str());
        // A swept key may name a whole object.
        QCOMPARE(dpu::planDifferences(a, b, {"k", "split", "train"}).size(), size_t(0));
        // A key one plan leaves at its default reads that default, not its absence from the file.
        b.deployed = dpu::DeployedForm::Int8;
        QCOMPARE(dpu::planDifferences(a, b, {"k", "split", "train"}),
                 (std::vector<std::string>{"deployed: \"fp32\" vs \"int8\""}));
    }

    void groupsRunsByPlanMinusSweptKeys()
    {
        // Two runs of a k sweep (2 rounds), a 3-round run, a stopped run, another model.
        dpu::Plan vgg = planAt(0.1);
        vgg.model = "vggnet";
        const std::vector<dpu::FrontierRun> runs{
            run("a", planAt(0.001), {record("dpu", 1, 0.70, 100), record("dpu", 2, 0.80, 300)}),
            run("three", planAt(0.05, 3), {record("dpu", 1, 0.99, 5000)}),
            run("b", planAt(0.01), {record("dpu", 1, 0.80, 1000), record("dpu", 2, 0.90, 3000),
                                    record("fu", 1, 0.88, 4040), record("fu", 2, 0.92, 4040)}),
            run("stopped", planAt(0.1), {record("dpu", 1, 0.99, 30000)}, false),
            run("vgg", vgg, {record("dpu", 1, 0.10, 30000)}),
        };
        const auto groups = dpu::frontierGroups(runs);
        QCOMPARE(groups.size(), size_t(3));
        QCOMPARE(groups[0].runIds, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(groups[1].runIds, (std::vector<std::string>{"three"}));
        QCOMPARE(groups[2].runIds, (std::vector<std::string>{"vgg"}));
        QCOMPARE(groups[0].plan.split.rounds, 2);

        const auto& p = groups[0].points; // strategy, then k
        QCOMPARE(p.size(), size_t(3));
        QCOMPARE(p[0].strategy, std::string("dpu"));
        QCOMPARE(p[0].k, 0.001);
        QCOMPARE(p[0].meanAccuracy, 0.75);
        QCOMPARE(p[0].meanBytesPerRound, 200.0);
        // These records measured no bundle (as runs from before bundles): their real-bytes
        // figures count the analytic bytes, and say so. Round 1's 100 B is the initial
        // deployment, apart from the update round's 300 B (issue 41).
        QCOMPARE(p[0].initialDeploymentBytes, 100.0);
        QCOMPARE(p[0].realBytesPerUpdateRound, 300.0);
        QCOMPARE(p[0].updateRounds, 1);
        QCOMPARE(p[0].realBytesPerRun, 400.0);
        QVERIFY(!p[0].measuredBytes);
        QCOMPARE(p[0].realToAnalytic, 0.0); // nothing to calibrate with
        QCOMPARE(p[1].k, 0.01);
        QVERIFY(std::abs(p[1].meanAccuracy - 0.85) < 1e-12);
        QCOMPARE(p[1].meanBytesPerRound, 2000.0);
        QCOMPARE(p[2].strategy, std::string("fu"));
        QCOMPARE(p[2].runs, 1);
        QCOMPARE(p[2].rounds, 2);

        QCOMPARE(dpu::frontierGroupOf(groups, planAt(0.5)), 0);
        QCOMPARE(dpu::frontierGroupOf(groups, planAt(0.5, 3)), 1);
        dpu::Plan other = planAt(0.01);
        other.seeds = {7};
        QCOMPARE(dpu::frontierGroupOf(groups, other), -1);
    }

    void familiesSplitAGroupByStrategyAndCoding()
    {
        // One k, two codings: fp32 runs dpu and fu; q8 runs dpu, dpu-memory and fu. They differ
        // only in family keys (bundle.values, the strategies): one group. FU's records in the q8
        // run are those of the fp32 run, as the engine writes them (a full bundle is exact
        // whatever the coding): four families, FU one of them.
        const dpu::Plan fp32 = dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "fp32");
        const dpu::Plan q8 = dpu::test::sweepPlan(0.01, 2, {"dpu", "dpu-memory", "fu"}, "q8");
        const std::vector<dpu::FrontierRun> runs{
            run("A", fp32, dpu::test::joined({rounds2("dpu", {0.80, 0.90}, {100, 100}, {120, 80}),
                                              rounds2("fu", {0.85, 0.95}, {kFull, kFull}, {4100, 4100})})),
            run("B", q8, dpu::test::joined({rounds2("dpu", {0.78, 0.86}, {100, 100}, {40, 30}),
                                            rounds2("dpu-memory", {0.80, 0.88}, {100, 0}, {50, 0}),
                                            rounds2("fu", {0.85, 0.95}, {kFull, kFull}, {4100, 4100})})),
        };
        const auto groups = dpu::frontierGroups(runs);
        QCOMPARE(groups.size(), size_t(1));
        const dpu::FrontierGroup& g = groups[0];
        QCOMPARE(g.runIds, (std::vector<std::string>{"A", "B"}));
        std::vector<std::string> labels;
        for (const auto& f : g.families)
            labels.push_back(f.label);
        // The paper's choices go without saying: "dpu" is exact (fp32) DPU.
        QCOMPARE(labels, (std::vector<std::string>{"dpu", "dpu q8", "dpu-memory q8", "fu"}));
        QCOMPARE(g.points.size(), size_t(4));
        QCOMPARE(g.families[1].values, (dpu::FamilyValues{{"bundle.values", "\"q8\""}}));
        QCOMPARE(g.fuReference, std::string("fu"));
        QCOMPARE(g.families[3].points.at(0).runs, 2); // FU of both runs, one point

        const dpu::FrontierPoint& exact = g.families[0].points.at(0);
        QCOMPARE(exact.family, std::string("dpu"));
        DPU_COMPARE_NEAR(exact.meanAccuracy, 0.85, 1e-12);
        QCOMPARE(exact.meanBytesPerRound, 100.0);   // analytic
        QCOMPARE(exact.initialDeploymentBytes, 120.0); // round 1's bundle: in no per-round figure
        QCOMPARE(exact.realBytesPerUpdateRound, 80.0);  // round 2's real bytes
        QCOMPARE(exact.maxRealBytesPerUpdateRound, 80.0);
        QCOMPARE(exact.realBytesPerRun, 200.0);
        DPU_COMPARE_NEAR(exact.accuracyToFu, -0.05, 1e-12); // (0.80 - 0.85 + 0.90 - 0.95) / 2
        // 200 B real over FU's two analytic rounds (8080 B): the paper's denominator.
        DPU_COMPARE_NEAR(exact.ratioToFu, 200.0 / 8080.0, 1e-12);
        DPU_COMPARE_NEAR(exact.ratioToFull, 200.0 / 8080.0, 1e-12);
        QCOMPARE(exact.realToAnalytic, 1.0);
        QVERIFY(exact.measuredBytes);

        const dpu::FrontierPoint& coded = g.families[1].points.at(0);
        QCOMPARE(coded.realBytesPerUpdateRound, 30.0);
        QCOMPARE(coded.realBytesPerRun, 70.0);
        DPU_COMPARE_NEAR(coded.accuracyToFu, -0.08, 1e-12); // against exact FU: (-0.07 - 0.09) / 2
        DPU_COMPARE_NEAR(coded.ratioToFu, 70.0 / 8080.0, 1e-12);
        QCOMPARE(coded.realToAnalytic, 0.35);

        // dpu-memory sent nothing in round 2: no update round, no bytes per update round (its
        // initial deployment is no round's update).
        const dpu::FrontierPoint& memory = g.families[2].points.at(0);
        QCOMPARE(memory.deployedRounds, 1);
        QCOMPARE(memory.updateRounds, 0);
        QCOMPARE(memory.initialDeploymentBytes, 50.0);
        QVERIFY(std::isnan(memory.realBytesPerUpdateRound));
        QCOMPARE(memory.realBytesPerRun, 50.0);
        QCOMPARE(memory.realToAnalytic, 0.5);
        DPU_COMPARE_NEAR(memory.accuracyToFu, -0.06, 1e-12);
        DPU_COMPARE_NEAR(g.families[3].points.at(0).accuracyToFu, 0.0, 1e-12); // FU against itself
        QVERIFY(std::isnan(g.families[3].points.at(0).realToAnalytic) == false);
        QCOMPARE(g.families[3].points.at(0).realToAnalytic, 0.0); // full rounds calibrate nothing
        QCOMPARE(dpu::pointsOfFamily(g.points, "dpu-memory q8").size(), size_t(1));
        QCOMPARE(dpu::pointsOf(g.points, "dpu").size(), size_t(2)); // both codings of the strategy

        // Without FU: no differences, no ratio to FU; the ratio to full still comes from the
        // records' cumulative ratio.
        const auto alone = dpu::frontierGroups({run("C", dpu::test::sweepPlan(0.01, 2, {"dpu"}),
                                                    rounds2("dpu", {0.8, 0.9}, {100, 100}, {120, 80}))});
        QVERIFY(alone[0].fuReference.empty());
        QVERIFY(std::isnan(alone[0].points[0].accuracyToFu));
        QVERIFY(std::isnan(alone[0].points[0].ratioToFu));
        DPU_COMPARE_NEAR(alone[0].points[0].ratioToFull, 200.0 / 8080.0, 1e-12);
    }

    void fullUpdatingIsOneFamilyWhateverTheCoding()
    {
        // The engine ships FU's every round of a dense model as a full bundle of exact fp32 values,
        // whatever bundle.values says, and no byte budget touches it: in an fp32, a q4 and a
        // budgeted run FU's bundles and accuracies are the same bytes (issue 45: "fu · q4" was
        // drawn as a family of its own). One family "fu", the exact reference, even when no fp32
        // run has FU.
        const dpu::Plan q4 = dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "q4");
        dpu::Plan budgeted = dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "fp32");
        budgeted.budget.bytesPerRound = 10416;
        const dpu::FamilyValues exact = dpu::familyValuesOf(dpu::test::sweepPlan(0.01, 2, {"fu"}, "fp32"));
        QCOMPARE(dpu::familyValuesOf("fu", q4), exact);
        QCOMPARE(dpu::familyValuesOf("fu", budgeted), exact);
        QCOMPARE(dpu::familyValuesOf("dpu", q4), dpu::familyValuesOf(q4)); // the coding is DPU's
        const auto fu = [](std::vector<double> accuracy) {
            return rounds2("fu", std::move(accuracy), {kFull, kFull}, {4100, 4100});
        };
        auto groups = dpu::frontierGroups(
            {run("Q", q4, dpu::test::joined({rounds2("dpu", {0.78, 0.86}, {100, 100}, {40, 30}), fu({0.85, 0.95})})),
             run("B", budgeted, dpu::test::joined({rounds2("dpu", {0.79, 0.87}, {100, 100}, {60, 50}), fu({0.85, 0.95})}))});
        QCOMPARE(groups.size(), size_t(1));
        std::vector<std::string> labels;
        for (const auto& f : groups[0].families)
            labels.push_back(f.label);
        QCOMPARE(labels, (std::vector<std::string>{"dpu bytes_per_round=10416", "dpu q4", "fu"}));
        QCOMPARE(groups[0].fuReference, std::string("fu"));
        QCOMPARE(groups[0].families[2].values, exact); // drawn as exact (fp32) FU
        QCOMPARE(groups[0].families[2].points.at(0).runs, 2);

        // A sparse deployed model's FU ships deltas from round 2 on, coded as the plan codes:
        // there a q4 FU really is lossy (other bytes, other accuracy), a family of its own.
        dpu::Plan sparseQ4 = q4, sparseFp32 = dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "fp32");
        sparseQ4.deployed = sparseFp32.deployed = dpu::DeployedForm::Sparse;
        QVERIFY(dpu::familyValuesOf("fu", sparseQ4) != dpu::familyValuesOf("fu", sparseFp32));
        groups = dpu::frontierGroups(
            {run("F", sparseFp32, fu({0.85, 0.95})),
             run("S", sparseQ4, rounds2("fu", {0.85, 0.94}, {kFull, kFull}, {4100, 900}))});
        QCOMPARE(groups.size(), size_t(1));
        QCOMPARE(groups[0].families.size(), size_t(2));
        QCOMPARE(groups[0].families[1].label, std::string("fu q4"));
        QCOMPARE(groups[0].fuReference, std::string("fu")); // the exact one
    }

    void spreadOverSeeds()
    {
        // One run, seeds 1 and 2: the point's mean pools every round, the spread is over the
        // seeds' own means (what a three-seed confirmation reports as mean ± std).
        dpu::Plan plan = dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"});
        plan.seeds = {1, 2};
        auto seed = [](const char* strategy, uint64_t s, std::vector<double> acc, std::vector<double> analytic,
                       std::vector<int64_t> real) {
            return dpu::test::strategyRounds(strategy, s, acc, analytic, real, kFull);
        };
        const auto groups = dpu::frontierGroups(
            {run("A", plan,
                 dpu::test::joined({seed("dpu", 1, {0.80, 0.90}, {100, 100}, {100, 100}),
                                    seed("fu", 1, {0.82, 0.92}, {kFull, kFull}, {4100, 4100}),
                                    seed("dpu", 2, {0.70, 0.80}, {100, 100}, {300, 300}),
                                    seed("fu", 2, {0.76, 0.86}, {kFull, kFull}, {4100, 4100})}))});
        QCOMPARE(groups.size(), size_t(1));
        const dpu::FrontierPoint& p = dpu::pointsOf(groups[0].points, "dpu").at(0);
        QCOMPARE(p.seedUnits, 2);
        DPU_COMPARE_NEAR(p.accuracyToFu, -0.04, 1e-12);                  // (-0.02 - 0.06) / 2
        DPU_COMPARE_NEAR(p.accuracyToFuStd, std::sqrt(2) * 0.02, 1e-12); // seeds -0.02 and -0.06
        DPU_COMPARE_NEAR(p.ratioToFu, 400.0 / 8080.0, 1e-12);           // (200 + 600) / 2 over 8080
        DPU_COMPARE_NEAR(p.ratioToFuStd, std::sqrt(2) * 200.0 / 8080.0, 1e-12);
        // One seed has no spread.
        const dpu::FrontierPoint& fu = dpu::pointsOf(groups[0].points, "fu").at(0);
        QCOMPARE(fu.seedUnits, 2);
        DPU_COMPARE_NEAR(fu.accuracyToFuStd, 0.0, 1e-12);
        const auto single = dpu::frontierGroups({run("B", dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}),
                                                     dpu::test::joined({rounds2("dpu", {0.8, 0.9}, {100, 100}, {1, 1}),
                                                                        rounds2("fu", {0.8, 0.9}, {kFull, kFull}, {9, 9})}))});
        QVERIFY(std::isnan(dpu::pointsOf(single[0].points, "dpu").at(0).accuracyToFuStd));
        QVERIFY(std::isnan(dpu::pointsOf(single[0].points, "dpu").at(0).ratioToFuStd));
        // The JSON for scripts carries both.
        const std::string json = dpu::frontierToJson(groups);
        QVERIFY(json.find("\"accuracy_to_fu_std\"") != std::string::npos);
        QVERIFY(json.find("\"ratio_to_fu_std\"") != std::string::npos);
    }

    void familyKeysAreAList()
    {
        // A lever the frontier does not know by default joins as a family key when named.
        dpu::Plan a = dpu::test::sweepPlan(0.01), b = a;
        b.train.epochs = 3;
        const std::vector<dpu::FrontierRun> runs{run("a", a, {record("dpu", 1, 0.8, 100)}),
                                                 run("b", b, {record("dpu", 1, 0.7, 100)})};
        QCOMPARE(dpu::frontierGroups(runs).size(), size_t(2));
        const std::vector<std::string> keys{"bundle", "train.epochs"};
        const auto groups = dpu::frontierGroups(runs, dpu::defaultSweptKeys(), keys);
        QCOMPARE(groups.size(), size_t(1));
        QCOMPARE(groups[0].families.size(), size_t(2));
        QCOMPARE(groups[0].families[0].label, std::string("dpu epochs=3"));
        QCOMPARE(groups[0].families[1].label, std::string("dpu"));
        QCOMPARE(dpu::frontierGroupOf(groups, b, dpu::defaultSweptKeys(), keys), 0);
        // A coding option added under "bundle" later is a family key without code: the label
        // shows every non-default value, strings bare.
        QCOMPARE(dpu::familyLabel("dpu", {{"bundle.values", "\"ternary\""}, {"bundle.aware", "true"}}),
                 std::string("dpu ternary aware=true"));
        const dpu::FamilyValues values = dpu::familyValuesOf(b);
        QCOMPARE(values, (dpu::FamilyValues{{"bundle.values", "\"fp32\""}})); // write and key are ignored
        // Why two runs are on different frontiers leaves the family keys out.
        dpu::Plan c = b;
        c.bundle.values = dpu::Coding::Q8;
        c.strategies = {"dpu-memory"};
        const auto why = dpu::planDifferences(a, c, dpu::frontierFreeKeys());
        QCOMPARE(why.size(), size_t(1));
        QCOMPARE(why[0], std::string("train.epochs: 6 vs 3"));
    }

    void interpolatesOnLogK()
    {
        const std::vector<dpu::FrontierPoint> dpu{{"dpu", 0.01, 0.85, 2000, 1, 2}, {"dpu", 0.001, 0.75, 200, 1, 2}};
        // Half way in log k between 0.001 and 0.01 is 10^-2.5: half way in accuracy.
        auto e = dpu::expectedAccuracy(dpu, std::pow(10.0, -2.5));
        QVERIFY(e.bracketed);
        QVERIFY(std::abs(e.accuracy - 0.80) < 1e-12);
        QCOMPARE(e.kLow, 0.001);
        QCOMPARE(e.kHigh, 0.01);
        e = dpu::expectedAccuracy(dpu, 0.01);
        QVERIFY(e.bracketed);
        QCOMPARE(e.accuracy, 0.85);
        QVERIFY(!dpu::expectedAccuracy(dpu, 0.05).bracketed);
        QVERIFY(!dpu::expectedAccuracy(dpu, 0.0005).bracketed);
        QVERIFY(!dpu::expectedAccuracy(dpu, 0).bracketed);
        QCOMPARE(dpu::pointsOf({{"dpu", 0.1, 0.5, 1, 1, 1}, {"fu", 1, 0.9, 2, 1, 1}}, "fu").size(), size_t(1));
    }

    void runsSideBySideAreToldApartByWhatDiffers()
    {
        // One run alone needs no words; a k sweep names each k.
        QCOMPARE(dpu::runDistinctions({planAt(0.05)}, {"1"}), (std::vector<std::string>{""}));
        QCOMPARE(dpu::runDistinctions({planAt(0.05), planAt(0.1)}, {"1", "2"}),
                 (std::vector<std::string>{"k=0.05", "k=0.1"}));
        // The coding reads as its name, after k; the plan's name and threads never count.
        dpu::Plan q4 = planAt(0.1);
        q4.bundle.values = dpu::Coding::Q4;
        q4.name = "other-name";
        q4.threads = 1;
        QCOMPARE(dpu::runDistinctions({planAt(0.05), q4}, {"1", "2"}),
                 (std::vector<std::string>{"k=0.05 · fp32", "k=0.1 · q4"}));
        // Other keys by their last word; strategies never (a series names its own).
        dpu::Plan longer = planAt(0.05, 3);
        longer.strategies = {"dpu"};
        QCOMPARE(dpu::runDistinctions({planAt(0.05), longer}, {"1", "2"}),
                 (std::vector<std::string>{"rounds=2", "rounds=3"}));
        // The deployed form comes right after k and the coding, before keys of earlier paths
        // (bundle.dense_tensors), which a narrow legend would otherwise show in its place; a key
        // the plan leaves at its default reads that default.
        dpu::Plan int8 = planAt(0.1);
        int8.deployed = dpu::DeployedForm::Int8;
        int8.bundle.denseTensors = dpu::DenseTensors::Coded;
        int8.bundle.values = dpu::Coding::Q4;
        QCOMPARE(dpu::runDistinctions({planAt(0.05), int8}, {"1", "2"}),
                 (std::vector<std::string>{"k=0.05 · fp32 · deployed=fp32 · dense_tensors=exact",
                                           "k=0.1 · q4 · deployed=int8 · dense_tensors=coded"}));
        // A byte budget reads as one, and none as such (the raw "bytes_per_round=0" leaked).
        dpu::Plan budgeted = planAt(0.05);
        budgeted.budget.bytesPerRound = 10416;
        QCOMPARE(dpu::runDistinctions({planAt(0.05), budgeted}, {"1", "2"}),
                 (std::vector<std::string>{"no budget", "10416 B/round"}));
        // The same plan twice: the labels tell them apart, also beside a third run.
        QCOMPARE(dpu::runDistinctions({planAt(0.05), planAt(0.05)}, {"1", "2"}),
                 (std::vector<std::string>{"1", "2"}));
        QCOMPARE(dpu::runDistinctions({planAt(0.05), planAt(0.05), planAt(0.1)}, {"a", "b", "c"}),
                 (std::vector<std::string>{"k=0.05 · a", "k=0.05 · b", "k=0.1"}));
        QVERIFY_THROWS_EXCEPTION(dpu::InternalError, dpu::runDistinctions({planAt(0.05)}, {}));
    }
};

QTEST_APPLESS_MAIN(TestFrontier)
#include "test_frontier.moc"
