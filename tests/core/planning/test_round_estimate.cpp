// SPDX-License-Identifier: MIT
// One round's bytes before it runs: nominal bits per coding, calibration on finished runs of the plan's family, budget caps.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/RoundEstimate.h"
#include <QtTest/QtTest>
#include <cmath>

namespace {

const dpu::CostModel kCost = dpu::test::codingSweepCost(); // I = 100000, 100 dense

double analytic(double k)
{
    return dpu::partialRoundBits(kCost, k) / 8;
}

double entropy(double k)
{
    return -k * std::log2(k) - (1 - k) * std::log2(1 - k);
}

} // namespace

class TestRoundEstimate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nominalBitsPerCoding()
    {
        QCOMPARE(dpu::nominalValueBits(dpu::Coding::Fp32), 32.0);
        QCOMPARE(dpu::nominalValueBits(dpu::Coding::Fp16), 16.0);
        QCOMPARE(dpu::nominalValueBits(dpu::Coding::Q8), 8.0);
        QCOMPARE(dpu::nominalValueBits(dpu::Coding::Q8c), 8 * 0.765); // q8's grid, context-coded (benchmarks section 9)
        QCOMPARE(dpu::nominalValueBits(dpu::Coding::Q4), 4.0);
        DPU_COMPARE_NEAR(dpu::nominalValueBits(dpu::Coding::Ternary), 1.5849625, 1e-6);
        // Every coding a plan may name has a figure.
        for (const auto& c : dpu::enumNames<dpu::Coding>())
            QVERIFY(dpu::nominalValueBits(c.value) > 0);
        // An unknown coding is refused where plans are read, before any figure is asked for.
        QVERIFY(!dpu::enumFromString<dpu::Coding>("q3"));
        QVERIFY_THROWS_EXCEPTION(dpu::PlanError, dpu::parsePlan(R"({"bundle": {"values": "q3"}})"));
    }

    void exactCodingIsThePapersModel()
    {
        for (double k : {0.001, 0.01, 0.25, 1.0}) {
            dpu::Plan p = dpu::test::sweepPlan(k);
            QCOMPARE(dpu::nominalRoundBits(kCost, p), dpu::partialRoundBits(kCost, k));
        }
    }

    /// A budget's k is the inverse of the estimate the plan is priced by: the paper's inverse for
    /// fp32, a larger k for q4 (its rounds cost less), its estimate within the budget and close to
    /// it; shown and taken rounded down.
    void budgetsKFollowsThePlansCoding()
    {
        const double budget = 2000;
        dpu::Plan fp32 = dpu::test::sweepPlan(0.01);
        QCOMPARE(dpu::largestKForEstimate(fp32, kCost, {}, budget), dpu::largestKForBudget(kCost, 8 * budget));
        dpu::Plan q4 = dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "q4");
        const double k = dpu::largestKForEstimate(q4, kCost, {}, budget);
        QVERIFY2(k > 2 * dpu::largestKForBudget(kCost, 8 * budget), qPrintable(QString::number(k)));
        q4.k = k;
        const double bytes = dpu::estimateRound(q4, kCost, {}).bytes;
        QVERIFY2(bytes <= budget && bytes > 0.999 * budget, qPrintable(QString::number(bytes)));
        // A plan's own budget does not cap the search; nothing fits below the dense part.
        q4.budget.bytesPerRound = 500;
        QCOMPARE(dpu::largestKForEstimate(q4, kCost, {}, budget), k);
        QCOMPARE(dpu::largestKForEstimate(q4, kCost, {}, 100), 0.0);
        QCOMPARE(dpu::roundKDown(0.0099583), 0.009958);
        QCOMPARE(dpu::roundKDown(0.29), 0.29);
        QCOMPARE(dpu::roundKDown(0.0017639), 0.001763);
    }

    void denseTensorsAsShipped()
    {
        dpu::Plan p = dpu::test::sweepPlan(0.01, 2, {"dpu"}, "q4");
        const double h = entropy(0.01);
        // exact: 4 bits x 1000 changed + H(k) x I + 32 x 100 dense
        DPU_COMPARE_NEAR(dpu::nominalRoundBits(kCost, p), 4 * 1000 + h * 100000 + 32 * 100, 1e-6);
        p.bundle.denseTensors = dpu::DenseTensors::Coded;
        DPU_COMPARE_NEAR(dpu::nominalRoundBits(kCost, p), 4 * 1000 + h * 100000 + 4 * 100, 1e-6);
        p.bundle.denseTensors = dpu::DenseTensors::Partial; // the 100 join the pool of 100100: 1001 changed
        DPU_COMPARE_NEAR(dpu::nominalRoundBits(kCost, p), 4 * 1001 + h * 100100, 1e-6);
    }

    /// q8 and q8c read the same before a run (issue 27); q8c's context coding takes its measured
    /// shares of q8's values (0.765) and positions (0.662), the exact biases as they are.
    void q8cIsCheaperThanQ8BeforeAnyRun()
    {
        dpu::Plan q8 = dpu::test::sweepPlan(0.01, 2, {"dpu"}, "q8");
        dpu::Plan q8c = dpu::test::sweepPlan(0.01, 2, {"dpu"}, "q8c");
        const double h = entropy(0.01);
        DPU_COMPARE_NEAR(dpu::nominalRoundBits(kCost, q8), 8 * 1000 + h * 100000 + 32 * 100, 1e-6);
        DPU_COMPARE_NEAR(dpu::nominalRoundBits(kCost, q8c), 8 * 0.765 * 1000 + 0.662 * h * 100000 + 32 * 100, 1e-6);
        const dpu::RoundEstimate a = dpu::estimateRound(q8, kCost, {});
        const dpu::RoundEstimate b = dpu::estimateRound(q8c, kCost, {});
        QVERIFY(b.bytes < 0.8 * a.bytes);
        QVERIFY2(QString::fromStdString(b.why).contains(QStringLiteral("context coding's measured shares")), b.why.c_str());
    }

    /// An INT8 deployed model ships 8-bit codes: before any run the estimate counts 8 bits per
    /// changed weight (the records' analytic bits count them so too), not fp32's 32.
    void int8ModelCountsItsCodes()
    {
        dpu::Plan p = dpu::test::sweepPlan(0.01);
        p.deployed = dpu::DeployedForm::Int8;
        const dpu::RoundEstimate e = dpu::estimateRound(p, kCost, {});
        QCOMPARE(e.basis, dpu::RoundEstimate::Basis::Analytic);
        DPU_COMPARE_NEAR(e.bytes, (8 * 1000 + entropy(0.01) * 100000 + 32 * 100) / 8, 1e-6);
        QVERIFY(e.bytes < 0.5 * dpu::estimateRound(dpu::test::sweepPlan(0.01), kCost, {}).bytes);
        QCOMPARE(e.fullBytes, dpu::fullRoundBits(kCost) / 8); // ratios stay against the dense FP32 model
        QVERIFY2(QString::fromStdString(e.why).contains(QStringLiteral("8 bits per changed weight")), e.why.c_str());
        QVERIFY2(e.why.find("int8_rescale") == std::string::npos, e.why.c_str());
        // With int8_rescale the same figure says what it leaves out: the channels re-coded whole.
        p.int8Rescale = dpu::Int8Rescale::Output;
        const dpu::RoundEstimate grown = dpu::estimateRound(p, kCost, {});
        QCOMPARE(grown.bytes, e.bytes);
        QVERIFY2(grown.why.find("without the channels int8_rescale re-codes") != std::string::npos, grown.why.c_str());
    }

    /// A sparse deployed model changes only its nonzeros: before any run the positions are coded
    /// among them (the paper's formula for the sparse model, partialRoundBits), for every coding,
    /// and a k past the nonzeros' share changes no more than all of them.
    void sparseModelCodesPositionsAmongItsNonzeros()
    {
        dpu::CostModel sparse = kCost;
        sparse.nonzeroWeights = 40000; // 60 % zeros
        dpu::Plan p = dpu::test::sweepPlan(0.01);
        p.deployed = dpu::DeployedForm::Sparse;
        const dpu::RoundEstimate exact = dpu::estimateRound(p, sparse, {});
        QCOMPARE(exact.basis, dpu::RoundEstimate::Basis::Analytic);
        DPU_COMPARE_NEAR(exact.bytes, dpu::partialRoundBits(sparse, 0.01) / 8, 1e-6);
        DPU_COMPARE_NEAR(exact.bytes, (32 * 1000 + entropy(1000.0 / 40000) * 40000 + 32 * 100) / 8, 1e-6);
        QVERIFY(exact.bytes < dpu::estimateRound(dpu::test::sweepPlan(0.01), kCost, {}).bytes);
        p.bundle.values = dpu::Coding::Q4;
        DPU_COMPARE_NEAR(dpu::estimateRound(p, sparse, {}).bytes, (4 * 1000 + entropy(1000.0 / 40000) * 40000 + 32 * 100) / 8, 1e-6);
        p.k = 0.8; // 80,000 asked, 40,000 there: every nonzero changes, no position to code
        DPU_COMPARE_NEAR(dpu::estimateRound(p, sparse, {}).bytes, (4 * 40000 + 32 * 100) / 8.0, 1e-6);
    }

    void withoutRunsNominalOrAnalytic()
    {
        const dpu::RoundEstimate exact = dpu::estimateRound(dpu::test::sweepPlan(0.01), kCost, {});
        QCOMPARE(exact.basis, dpu::RoundEstimate::Basis::Analytic);
        QCOMPARE(exact.bytes, analytic(0.01));
        QCOMPARE(exact.realToAnalytic, 1.0);
        QCOMPARE(exact.fullBytes, dpu::fullRoundBits(kCost) / 8);
        QCOMPARE(exact.family, std::string("dpu"));

        const dpu::RoundEstimate q4 = dpu::estimateRound(dpu::test::sweepPlan(0.01, 2, {"fu", "dpu-memory"}, "q4"), kCost, {});
        QCOMPARE(q4.basis, dpu::RoundEstimate::Basis::Nominal);
        QCOMPARE(q4.family, std::string("dpu-memory q4")); // the first partial strategy, FU skipped
        const double bytes = (4 * 1000 + entropy(0.01) * 100000 + 32 * 100) / 8;
        DPU_COMPARE_NEAR(q4.bytes, bytes, 1e-9);
        DPU_COMPARE_NEAR(q4.realToAnalytic, bytes / analytic(0.01), 1e-12);
        QVERIFY(q4.bytes < exact.bytes);
        QVERIFY(q4.why.find("q4") != std::string::npos);
    }

    void calibratedOnTheFamilysRuns()
    {
        const std::vector<dpu::FrontierGroup> groups = dpu::frontierGroups(dpu::test::codingSweep());
        QCOMPARE(groups.size(), size_t(1));
        // q8 ran at k = 0.001 (400 B real a round) and 0.01 (2000 B), two deployed rounds each.
        const double ratio = (400 / analytic(0.001) + 2000 / analytic(0.01)) / 2;
        const dpu::RoundEstimate q8 = dpu::estimateRound(dpu::test::sweepPlan(0.005, 2, {"dpu"}, "q8"), kCost, groups);
        QCOMPARE(q8.basis, dpu::RoundEstimate::Basis::Calibrated);
        QCOMPARE(q8.family, std::string("dpu q8"));
        QCOMPARE(q8.calibrationRounds, 4);
        DPU_COMPARE_NEAR(q8.realToAnalytic, ratio, 1e-12);
        DPU_COMPARE_NEAR(q8.bytes, ratio * analytic(0.005), 1e-9);

        // Calibrated at small k, an fp32 round near k = 1 still carries every changed value:
        // never less than the values themselves (the ratio alone once gave less than the model).
        const dpu::RoundEstimate whole = dpu::estimateRound(dpu::test::sweepPlan(1.0, 2, {"dpu"}, "fp32"), kCost, groups);
        QCOMPARE(whole.basis, dpu::RoundEstimate::Basis::Calibrated);
        QVERIFY2(whole.bytes >= (32.0 * kCost.partialWeights + 32.0 * kCost.denseWeights) / 8, whole.why.c_str());
        QVERIFY2(whole.why.find("changed values themselves") != std::string::npos, whole.why.c_str());

        // A family that has not run stays nominal, even in a group that has runs.
        const dpu::RoundEstimate q4 = dpu::estimateRound(dpu::test::sweepPlan(0.005, 2, {"dpu"}, "q4"), kCost, groups);
        QCOMPARE(q4.basis, dpu::RoundEstimate::Basis::Nominal);

        // Runs of the same model and data in another setting (more rounds) calibrate it too, and say so.
        dpu::Plan longer = dpu::test::sweepPlan(0.005, 2, {"dpu"}, "q8");
        longer.split.rounds = 5;
        const dpu::RoundEstimate fromElsewhere = dpu::estimateRound(longer, kCost, groups);
        QCOMPARE(fromElsewhere.basis, dpu::RoundEstimate::Basis::Calibrated);
        DPU_COMPARE_NEAR(fromElsewhere.realToAnalytic, ratio, 1e-12);
        QVERIFY2(fromElsewhere.why.find("split.rounds") != std::string::npos, fromElsewhere.why.c_str());
        // Runs of another model do not.
        dpu::Plan other = longer;
        other.model = "vggnet";
        QCOMPARE(dpu::estimateRound(other, kCost, groups).basis, dpu::RoundEstimate::Basis::Nominal);
        // Nor runs of another deployed form: fp32 q8 runs say nothing of an INT8 model's rounds.
        dpu::Plan int8 = longer;
        int8.deployed = dpu::DeployedForm::Int8;
        const dpu::RoundEstimate int8Estimate = dpu::estimateRound(int8, kCost, groups);
        QVERIFY2(int8Estimate.basis != dpu::RoundEstimate::Basis::Calibrated, int8Estimate.why.c_str());
    }

    void perRoundBudgetCaps()
    {
        dpu::Plan p = dpu::test::sweepPlan(0.01);
        p.budget.bytesPerRound = 1000;
        const dpu::RoundEstimate e = dpu::estimateRound(p, kCost, {});
        QVERIFY(e.cappedByBudget);
        QCOMPARE(e.bytes, 1000.0);
        p.budget.bytesPerRound = 1000000; // a budget above the estimate changes nothing
        const dpu::RoundEstimate loose = dpu::estimateRound(p, kCost, {});
        QVERIFY(!loose.cappedByBudget);
        QCOMPARE(loose.bytes, analytic(0.01));
    }

    void nothingToEstimate()
    {
        QCOMPARE(dpu::estimateRound(dpu::test::sweepPlan(0.01, 2, {"fu"}), kCost, {}).basis, dpu::RoundEstimate::Basis::None);
        QCOMPARE(dpu::estimateRound(dpu::test::sweepPlan(0.01), {}, {}).basis, dpu::RoundEstimate::Basis::None);
        const dpu::RoundEstimate badK = dpu::estimateRound(dpu::test::sweepPlan(0), kCost, {});
        QCOMPARE(badK.basis, dpu::RoundEstimate::Basis::None);
        QCOMPARE(badK.bytes, 0.0);
        QVERIFY(!badK.why.empty());
    }
};

QTEST_APPLESS_MAIN(TestRoundEstimate)
#include "test_round_estimate.moc"
