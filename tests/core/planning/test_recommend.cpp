// SPDX-License-Identifier: MIT
// The budget's recommendation: best family and k whose real bytes fit, interpolation, the calibrated estimate, plan and JSON.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Cost.h"
#include "dpu/Recommend.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>
#include <cmath>

namespace {

const dpu::CostModel kCost = dpu::test::codingSweepCost();

double analytic(double k)
{
    return dpu::partialRoundBits(kCost, k) / 8;
}

/// The fixture's sweep as one group: families dpu (exact), dpu q8 and fu.
dpu::FrontierGroup sweep()
{
    const auto groups = dpu::frontierGroups(dpu::test::codingSweep());
    if (groups.size() != 1)
        qFatal("the sweep should be one group, found %zu", groups.size());
    return groups[0];
}

dpu::Budget perRound(double bytes)
{
    return {dpu::Budget::Scope::PerRound, bytes};
}

} // namespace

class TestRecommend : public QObject {
    Q_OBJECT
    dpu::FrontierGroup group_;
    dpu::Plan reference_ = dpu::defaultPlan();

private Q_SLOTS:
    void initTestCase()
    {
        group_ = sweep();
        QCOMPARE(group_.families.size(), size_t(3)); // dpu, dpu q8, fu
    }

    void bestFinishedPointThatFits()
    {
        // 2000 B a round: q8 at k = 0.01 (84 %) fits; exact DPU only up to k = 0.00325 (bytes
        // linear in k between 1000 and 5000 B: a quarter of the way), 75 + 10 log10(3.25) = 80.1 %.
        const dpu::Recommendation r = dpu::recommend(&group_, reference_, kCost, perRound(2000));
        QVERIFY(r.found);
        QVERIFY(r.measured);
        QCOMPARE(r.family, std::string("dpu q8"));
        QCOMPARE(r.strategy, std::string("dpu"));
        QCOMPARE(r.k, 0.01);
        DPU_COMPARE_NEAR(r.expectedAccuracy, 0.84, 1e-12);
        DPU_COMPARE_NEAR(r.accuracyToFu, 0.84 - 0.90, 1e-12);
        QCOMPARE(r.bytesPerRound, 2000.0);
        QCOMPARE(r.bytesPerRun, 4000.0);
        QCOMPARE(r.familiesConsidered, 3);
        QCOMPARE(r.familiesFitting, 2);
        QCOMPARE(r.fits.size(), size_t(3));
        QCOMPARE(r.fits[0].family, std::string("dpu"));
        QVERIFY(r.fits[0].fits);
        DPU_COMPARE_NEAR(r.fits[0].k, 0.00325, 1e-12);
        DPU_COMPARE_NEAR(r.fits[0].accuracy, 0.75 + 0.1 * std::log10(3.25), 1e-12);
        QVERIFY(!r.fits[2].fits); // FU needs 400.5 KB
        QCOMPARE(r.fits[2].cheapestBytes, 400500.0);
        QCOMPARE(r.why, std::string("dpu q8 at k=0.01: 84.0 % expected (-6.00 points to FU), 2.0 KB/update round, best of 2 "
                                    "families that fit (3 in all); dpu at k=0.01 needs 5.0 KB for 85.0 %"));
    }

    /// Issue 41: a sparse model's round 1 deploys the pruned model (914.1 KB); every round
    /// after it a 31.3 KB delta. A budget per round is held against the update rounds only.
    void theInitialDeploymentIsInNoBudgetPerRound()
    {
        dpu::Plan plan = dpu::test::sweepPlan(0.01, 4, {"dpu"});
        plan.deployed = dpu::DeployedForm::Sparse;
        const auto records =
            dpu::test::strategyRounds("dpu", 1, {0.80, 0.82, 0.83, 0.84}, {3000, 3000, 3000, 3000}, {914100, 31300, 31300, 31300}, 400000);
        const auto groups = dpu::frontierGroups({dpu::test::frontierRun("sparse", plan, records)});
        QCOMPARE(groups.size(), size_t(1));
        const dpu::FrontierPoint& p = groups[0].points.at(0);
        QCOMPARE(p.initialDeploymentBytes, 914100.0);
        QCOMPARE(p.realBytesPerUpdateRound, 31300.0);
        QCOMPARE(p.updateRounds, 3);
        QCOMPARE(p.realBytesPerRun, 914100.0 + 3 * 31300.0); // a run's total keeps it
        const dpu::Recommendation none = dpu::recommend(&groups[0], plan, kCost, perRound(10400));
        QVERIFY(!none.measured);
        QVERIFY2(none.why.rfind("no finished run fits 10.4 KB/update round (the cheapest, dpu, needs 31.3 KB)", 0) == 0, none.why.c_str());
        const dpu::Recommendation fits = dpu::recommend(&groups[0], plan, kCost, perRound(40000));
        QVERIFY(fits.found && fits.measured);
        QCOMPARE(fits.bytesPerRound, 31300.0);
    }

    void interpolatesWithinAFamily()
    {
        // 1200 B: q8 half way between 400 and 2000 B, k = 0.0055: 74 + 10 log10(5.5) = 81.4 %;
        // exact DPU reaches k = 0.00145 only.
        const dpu::Recommendation r = dpu::recommend(&group_, reference_, kCost, perRound(1200));
        QVERIFY(r.found && r.measured);
        QCOMPARE(r.family, std::string("dpu q8"));
        DPU_COMPARE_NEAR(r.k, 0.0055, 1e-12);
        DPU_COMPARE_NEAR(r.expectedAccuracy, 0.74 + 0.1 * std::log10(5.5), 1e-12);
        DPU_COMPARE_NEAR(r.accuracyToFu, -0.16 + 0.1 * std::log10(5.5), 1e-12);
        DPU_COMPARE_NEAR(r.bytesPerRound, 1200, 1e-9);
        DPU_COMPARE_NEAR(r.fits[0].k, 0.00145, 1e-12);
    }

    void fullUpdatingWhenItFits()
    {
        const dpu::Recommendation r = dpu::recommend(&group_, reference_, kCost, perRound(500000));
        QVERIFY(r.found && r.measured);
        QCOMPARE(r.family, std::string("fu"));
        DPU_COMPARE_NEAR(r.expectedAccuracy, 0.90, 1e-12);
        QCOMPARE(r.familiesFitting, 3);
        QVERIFY2(r.why.rfind("fu: 90.0 % expected", 0) == 0, r.why.c_str()); // FU has no k
        // The plan to run it: FU alone.
        const dpu::Plan p = dpu::planWithRecommendation(reference_, r);
        QCOMPARE(p.strategies, (std::vector<std::string>{"fu"}));
    }

    void perRunBudgetCountsEveryRound()
    {
        // 4000 B for the two rounds: q8 at k = 0.01 exactly; exact DPU a quarter of the way.
        const dpu::Recommendation r = dpu::recommend(&group_, reference_, kCost, {dpu::Budget::Scope::PerRun, 4000});
        QVERIFY(r.found && r.measured);
        QCOMPARE(r.family, std::string("dpu q8"));
        QCOMPARE(r.k, 0.01);
        QCOMPARE(r.fits[0].bytes, 4000.0);
        QVERIFY2(r.why.find("4.0 KB/run") != std::string::npos, r.why.c_str());
    }

    void estimateBelowTheRuns()
    {
        // 300 B is below every finished point (the cheapest, q8 at k = 0.001, needs 400 B): the
        // cost model calibrated on q8's runs (real over analytic, mean over its rounds) answers.
        const double ratio = (400 / analytic(0.001) + 2000 / analytic(0.01)) / 2;
        const dpu::Recommendation r = dpu::recommend(&group_, reference_, kCost, perRound(300));
        QVERIFY(r.found);
        QVERIFY(!r.measured);
        QCOMPARE(r.family, std::string("dpu q8")); // the family whose runs reach lowest
        DPU_COMPARE_NEAR(r.realToAnalytic, ratio, 1e-12);
        QVERIFY(r.k > 0 && r.k < 0.001);
        QVERIFY(r.bytesPerRound <= 300);
        QCOMPARE(r.bytesPerRound, ratio * analytic(r.k));
        QVERIFY(ratio * analytic(r.k + 1e-5) > 300); // one more weight would not fit
        QVERIFY(std::isnan(r.expectedAccuracy));
        QVERIFY2(r.why.rfind("no finished run fits 300 B/update round (the cheapest, dpu q8, needs 400 B); estimate: dpu q8 at k=", 0) == 0,
                 r.why.c_str());
        QVERIFY2(r.why.find("accuracy unknown") != std::string::npos, r.why.c_str());
        // Not even the always-shipped values fit 30 B (400 B analytic, calibrated).
        const dpu::Recommendation none = dpu::recommend(&group_, reference_, kCost, perRound(30));
        QVERIFY(!none.found);
        QVERIFY2(none.why.find("the always-shipped weights alone need") != std::string::npos, none.why.c_str());
        // Without the model's size nothing can be estimated.
        const dpu::Recommendation unknown = dpu::recommend(&group_, reference_, {}, perRound(300));
        QVERIFY(!unknown.found);
        QVERIFY2(unknown.why.find("size is unknown") != std::string::npos, unknown.why.c_str());
    }

    void withoutRunsTheAnalyticModel()
    {
        const dpu::Recommendation r = dpu::recommend(nullptr, reference_, kCost, perRound(5409));
        QVERIFY(r.found);
        QVERIFY(!r.measured);
        QCOMPARE(r.family, std::string("dpu")); // the plan's first partial strategy, its coding
        QCOMPARE(r.realToAnalytic, 1.0);
        QCOMPARE(r.k, dpu::largestKForBudget(kCost, 5409 * 8.0));
        QVERIFY(r.k < 0.01 && r.k > 0.0099); // 0.01 costs 5409.9 B
        QVERIFY2(r.why.rfind("no finished runs; estimate: dpu at k=", 0) == 0, r.why.c_str());
        QVERIFY(!dpu::recommend(nullptr, reference_, kCost, perRound(0)).found);
        QVERIFY(!dpu::recommend(nullptr, reference_, kCost, perRound(-5)).found);
        // An INT8 model's 8-bit codes buy a larger k for the same bytes.
        dpu::Plan int8 = reference_;
        int8.deployed = dpu::DeployedForm::Int8;
        dpu::CostModel codes = kCost;
        codes.valueBits = 8;
        const dpu::Recommendation q = dpu::recommend(nullptr, int8, kCost, perRound(5409));
        QCOMPARE(q.k, dpu::largestKForBudget(codes, 5409 * 8.0));
        QVERIFY(q.k > 2 * r.k);
    }

    void planAndJsonSayTheSame()
    {
        const dpu::Recommendation r = dpu::recommend(&group_, reference_, kCost, perRound(1200));
        const dpu::Plan p = dpu::planWithRecommendation(reference_, r);
        QCOMPARE(p.strategies, (std::vector<std::string>{"dpu", "fu"})); // FU kept: the reference
        QCOMPARE(dpu::nameOf(p.bundle.values), std::string("q8"));
        QCOMPARE(p.k, r.k);
        QCOMPARE(p.split.rounds, reference_.split.rounds);

        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(dpu::recommendationToJson(r, perRound(1200)))).object();
        QCOMPARE(j["found"].toBool(), true);
        QCOMPARE(j["measured"].toBool(), true);
        QCOMPARE(j["family"].toString(), QStringLiteral("dpu q8"));
        QCOMPARE(j["values"].toObject()["bundle.values"].toString(), QStringLiteral("q8"));
        QCOMPARE(j["k"].toDouble(), r.k);
        QCOMPARE(j["expected_accuracy"].toDouble(), r.expectedAccuracy);
        QCOMPARE(j["budget"].toObject()["scope"].toString(), QStringLiteral("round"));
        QCOMPARE(j["families"].toArray().size(), 3);
        QCOMPARE(j["families"].toArray()[2].toObject()["fits"].toBool(), false);
        QVERIFY(j["families"].toArray()[2].toObject()["k"].isNull());
        QCOMPARE(j["why"].toString(), QString::fromStdString(r.why));
        // An estimate without accuracy writes null, not NaN.
        const dpu::Recommendation e = dpu::recommend(&group_, reference_, kCost, perRound(300));
        const QJsonObject je = QJsonDocument::fromJson(QByteArray::fromStdString(dpu::recommendationToJson(e, perRound(300)))).object();
        QVERIFY(!je.isEmpty());
        QVERIFY(je["expected_accuracy"].isNull());
        QCOMPARE(je["measured"].toBool(), false);
        QCOMPARE(je["real_to_analytic"].toDouble(), e.realToAnalytic);
    }

    void humanBytes()
    {
        QCOMPARE(dpu::humanBytes(812), std::string("812 B"));
        QCOMPARE(dpu::humanBytes(3149), std::string("3.1 KB"));
        QCOMPARE(dpu::humanBytes(2.678824e6), std::string("2.68 MB"));
    }
};

QTEST_APPLESS_MAIN(TestRecommend)
#include "test_recommend.moc"
