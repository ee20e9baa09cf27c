// SPDX-License-Identifier: MIT
// The frontier's grouping (plan minus swept keys), the reasons runs stay apart, pooling and log-k interpolation.
#include "TestSupport.h"
#include "dpu/Frontier.h"
#include <QtTest/QtTest>
#include <cmath>

namespace {

dpu::RoundRecord record(const char* strategy, int round, double accuracy, double bytes)
{
    dpu::RoundRecord r;
    r.strategy = strategy;
    r.seed = 1;
    r.round = round;
    r.deployed = bytes > 0;
    r.testAccuracy = accuracy;
    r.analyticBits = bytes * 8;
    return r;
}

dpu::Plan planAt(double k, int rounds = 2)
{
    dpu::Plan p;
    p.name = "sweep-k" + std::to_string(k);
    p.k = k;
    p.split.rounds = rounds;
    return p;
}

dpu::FrontierRun run(const char* id, const dpu::Plan& plan, std::vector<dpu::RoundRecord> records, bool finished = true)
{
    return {id, plan, std::move(records), finished};
}

} // namespace

class TestFrontier : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void differencesIgnoreSweptAndExecutionKeys()
    {
        dpu::Plan a = planAt(0.01), b = planAt(0.1);
        b.device = "cpu";
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
};

QTEST_APPLESS_MAIN(TestFrontier)
#include "test_frontier.moc"
