// SPDX-License-Identifier: MIT
// Analytic communication cost against hand-computed values, and the budget solver.
#include "TestSupport.h"
#include "dpu/Cost.h"
#include <cmath>

class TestCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void entropy()
    {
        QCOMPARE(dpu::indexEntropyBits(0.0), 0.0);
        QCOMPARE(dpu::indexEntropyBits(1.0), 0.0);
        QCOMPARE(dpu::indexEntropyBits(0.5), 1.0);
        // H(0.01) = 0.01 log2 100 + 0.99 log2(1/0.99) = 0.0664386 + 0.0143546
        DPU_COMPARE_NEAR(dpu::indexEntropyBits(0.01), 0.0807931358959, 1e-12);
        QCOMPARE(dpu::indexEntropyBits(-0.5), 0.0); // clamped
        DPU_COMPARE_NEAR(dpu::indexEntropyBits(0.2), dpu::indexEntropyBits(0.8), 1e-15);
    }

    void mlpRound()
    {
        // The paper's MLP: I = 784*512 + 512*512 + 512*10 = 668672, dense = 512 + 512 + 10 = 1034.
        const dpu::CostModel mlp{668672, 1034};
        QCOMPARE(dpu::updatedCount(mlp.partialWeights, 0.01), int64_t(6687));
        const double expected = 32.0 * 6687 + 0.0807931358959 * 668672 + 32.0 * 1034;
        DPU_COMPARE_NEAR(dpu::partialRoundBits(mlp, 0.01), expected, 1e-3);
        DPU_COMPARE_NEAR(dpu::partialRoundBits(mlp, 0.01) / 8, 37637.0, 1.0); // DESIGN.md: 37.6 KB
        QCOMPARE(dpu::fullRoundBits(mlp), 32.0 * (668672 + 1034));
        // k = 1 ships every weight and no index (H(1) = 0).
        QCOMPARE(dpu::partialRoundBits(mlp, 1.0), dpu::fullRoundBits(mlp));
    }

    void budgetSolverInvertsCost_data()
    {
        QTest::addColumn<qint64>("partial");
        QTest::addColumn<qint64>("dense");
        QTest::addColumn<double>("budgetBytes");
        QTest::newRow("mlp 37.6 KB") << qint64(668672) << qint64(1034) << 37637.0;
        QTest::newRow("mlp 10 KB") << qint64(668672) << qint64(1034) << 10000.0;
        QTest::newRow("vgg 500 KB") << qint64(14022016) << qint64(15370) << 500000.0;
        QTest::newRow("tiny 1 KB") << qint64(1000) << qint64(10) << 1000.0;
    }
    void budgetSolverInvertsCost()
    {
        QFETCH(qint64, partial);
        QFETCH(qint64, dense);
        QFETCH(double, budgetBytes);
        const dpu::CostModel m{partial, dense};
        const double bits = budgetBytes * 8;
        const double k = dpu::largestKForBudget(m, bits);
        QVERIFY(k > 0 && k < 1);
        QVERIFY(dpu::partialRoundBits(m, k) <= bits);
        QVERIFY(dpu::partialRoundBits(m, k + 1e-6) > bits || dpu::partialRoundBits(m, std::min(1.0, k + 2.0 / partial)) > bits);
    }

    void budgetEdges()
    {
        const dpu::CostModel m{668672, 1034};
        QCOMPARE(dpu::largestKForBudget(m, 32.0 * 1000), 0.0);            // not even the biases fit
        QCOMPARE(dpu::largestKForBudget(m, dpu::fullRoundBits(m)), 1.0); // everything fits
        // The 37.6 KB of k = 0.01 gives back k = 0.01 (to the rounding of k*I).
        const double k = dpu::largestKForBudget(m, dpu::partialRoundBits(m, 0.01));
        QCOMPARE(dpu::updatedCount(m.partialWeights, k), int64_t(6687));
    }

    /// A 50 %-sparse deployed model (the paper's Table 3): its full update is the nonzeros and a
    /// bitmap (0.53 of the dense FP32 one, as the paper's vanilla update), and a partial round
    /// codes positions among the nonzeros, cheaper than among all weights for the same k.
    void sparseDeployedModel()
    {
        QCOMPARE(dpu::keptAtSparsity(1000, 0.5), int64_t(500));
        QCOMPARE(dpu::keptAtSparsity(5, 0.5), int64_t(2)); // round(2.5) is 3 zeros
        QCOMPARE(dpu::keptAtSparsity(10, 0.0), int64_t(10));
        const dpu::CostModel dense{1000000, 0};
        const dpu::CostModel sparse{1000000, 0, 500000};
        QCOMPARE(dpu::deployedFullRoundBits(dense), dpu::fullRoundBits(dense));
        QCOMPARE(dpu::deployedFullRoundBits(sparse), 32.0 * 500000 + 1000000);
        QVERIFY(std::abs(dpu::deployedFullRoundBits(sparse) / dpu::fullRoundBits(sparse) - 0.53125) < 1e-12);
        // k = 0.2 of all weights: 200,000 changes among 500,000 nonzeros, H(0.4) bits per nonzero.
        QCOMPARE(dpu::partialRoundBits(sparse, 0.2), 32.0 * 200000 + dpu::indexEntropyBits(0.4) * 500000);
        QVERIFY(dpu::partialRoundBits(sparse, 0.2) < dpu::partialRoundBits(dense, 0.2));
        QCOMPARE(dpu::partialRoundBits(sparse, 0.9), 32.0 * 500000); // never more than the nonzeros
        // The budget's k stops at the nonzeros' share.
        QCOMPARE(dpu::largestKForBudget(sparse, dpu::fullRoundBits(sparse)), 0.5);
        const double k = dpu::largestKForBudget(sparse, dpu::partialRoundBits(sparse, 0.1));
        QCOMPARE(dpu::updatedCount(sparse.partialWeights, k), int64_t(100000));
    }

    /// An INT8 deployed model (the paper's Table 3): 8 bits per value, so a full update is its
    /// codes and the float scales (about 0.25 of the dense FP32 one, the paper's vanilla figure)
    /// and DPU at k = 0.2 is 8 * 0.2 + H(0.2) bits per weight, the paper's 0.07.
    void int8DeployedModel()
    {
        dpu::CostModel int8{1000000, 1000};
        int8.valueBits = 8;
        int8.scaleValues = 2000;
        QCOMPARE(dpu::deployedFullRoundBits(int8), 8.0 * 1000000 + 32.0 * (2000 + 1000));
        QVERIFY(std::abs(dpu::deployedFullRoundBits(int8) / dpu::fullRoundBits(int8) - 0.25) < 0.01);
        QCOMPARE(dpu::partialRoundBits(int8, 0.2), 8.0 * 200000 + dpu::indexEntropyBits(0.2) * 1000000 + 32.0 * 1000);
        QCOMPARE(std::round(100 * dpu::partialRoundBits(int8, 0.2) / dpu::fullRoundBits(int8)), 7.0);
        QCOMPARE(dpu::fullRoundBits(int8), 32.0 * 1001000); // ratios stay against the dense FP32 update
        const double k = dpu::largestKForBudget(int8, dpu::partialRoundBits(int8, 0.1));
        QCOMPARE(dpu::updatedCount(int8.partialWeights, k), int64_t(100000));
    }

    /// The cost model of each deployed form from the partial tensors' shapes (what a run prices
    /// with and the plan form estimates with): the MLP's three layers, 1,034 dense weights.
    void deployedCostModelFromShapes()
    {
        const std::vector<std::vector<int64_t>> mlp{{512, 784}, {512, 512}, {10, 512}};
        const std::vector<int64_t> kBiases{512, 512, 10}; // no form but INT8 codes them
        const dpu::CostModel fp32 = dpu::deployedCostModel(mlp, 1034, dpu::DeployedForm::Fp32, 0.5, dpu::Int8Biases::Codes, kBiases);
        QCOMPARE(fp32.partialWeights, int64_t(668672));
        QCOMPARE(fp32.denseWeights, int64_t(1034));
        QCOMPARE(fp32.nonzeroWeights, int64_t(0));
        QCOMPARE(fp32.valueBits, 32);
        QCOMPARE(fp32.scaleValues, int64_t(0));
        QCOMPARE(fp32.codedDenseWeights, int64_t(0));
        QCOMPARE(dpu::deployedFullRoundBits(fp32), dpu::fullRoundBits(fp32));

        // Sparse: each tensor keeps its own rounded share (10 x 512 at 0.3: 5,120 - 1,536).
        const dpu::CostModel sparse = dpu::deployedCostModel(mlp, 1034, dpu::DeployedForm::Sparse, 0.3, dpu::Int8Biases::Codes, kBiases);
        QCOMPARE(sparse.partialWeights, int64_t(668672));
        QCOMPARE(sparse.nonzeroWeights, dpu::keptAtSparsity(512 * 784, 0.3) + dpu::keptAtSparsity(512 * 512, 0.3) + int64_t(3584));
        QCOMPARE(sparse.valueBits, 32);
        QCOMPARE(sparse.codedDenseWeights, int64_t(0)); // int8_biases means nothing to a float form
        QVERIFY(dpu::partialRoundBits(sparse, 0.01) < dpu::partialRoundBits(fp32, 0.01));

        // INT8: one scale per output channel, 512 + 512 + 10, and 8-bit values.
        const dpu::CostModel int8 = dpu::deployedCostModel(mlp, 1034, dpu::DeployedForm::Int8, 0.5, dpu::Int8Biases::Float, kBiases);
        QCOMPARE(int8.valueBits, 8);
        QCOMPARE(int8.scaleValues, int64_t(1034));
        QCOMPARE(int8.nonzeroWeights, int64_t(0));
        // The INT8 full update the runs' FU rounds price: 8 x 668,672 + 32 x (1,034 + 1,034) bits.
        QCOMPARE(dpu::deployedFullRoundBits(int8) / 8, 676944.0);
        QCOMPARE(dpu::fullRoundBits(int8), dpu::fullRoundBits(fp32)); // ratios stay against FP32
        QCOMPARE(int8.codedDenseWeights, int64_t(0)); // int8_biases float: 32 bits a bias
        QCOMPARE(dpu::denseRoundBits(int8), 32.0 * 1034);

        // int8_biases codes: a bias takes 8 bits, each of the three tensors one 32-bit scale, in
        // every round (partial and full); the partial tensors are priced as before.
        const dpu::CostModel codes = dpu::deployedCostModel(mlp, 1034, dpu::DeployedForm::Int8, 0.5,
                                                            dpu::Int8Biases::Codes, kBiases);
        QCOMPARE(codes.codedDenseWeights, int64_t(1034));
        QCOMPARE(codes.codedDenseScales, int64_t(3));
        QCOMPARE(dpu::denseRoundBits(codes), 8.0 * 1034 + 32.0 * 3);
        QCOMPARE(dpu::partialRoundBits(int8, 0.01) - dpu::partialRoundBits(codes, 0.01), 24.0 * 1034 - 96.0);
        QCOMPARE(dpu::deployedFullRoundBits(codes) / 8, 676944.0 - 3 * 1034 + 12);
        // Dense values not among the biases (BatchNorm's running statistics) stay 32 bits.
        const dpu::CostModel withBuffers = dpu::deployedCostModel(mlp, 1034 + 100, dpu::DeployedForm::Int8, 0.5,
                                                                  dpu::Int8Biases::Codes, kBiases);
        QCOMPARE(dpu::denseRoundBits(withBuffers), 8.0 * 1034 + 32.0 * 3 + 32.0 * 100);
    }
};

QTEST_APPLESS_MAIN(TestCost)
#include "test_cost.moc"
