// SPDX-License-Identifier: MIT
// Global top-k masks (host and on-device selection), contribution normalisation, random masks, rewinding.
#include "TestDevice.h"
#include "TestSupport.h"
#include "dpu/Cost.h"
#include "train/MaskSelection.h"

class TestMaskSelection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Exactly round(k * I) ones, and every kept score >= every dropped score.
    void topKIsExactAndGlobal_data()
    {
        QTest::addColumn<double>("k");
        for (double k : {0.0005, 0.01, 0.05, 0.1, 0.5, 1.0})
            QTest::newRow(qPrintable(QString::number(k))) << k;
    }
    void topKIsExactAndGlobal()
    {
        QFETCH(double, k);
        torch::manual_seed(7);
        std::vector<torch::Tensor> scores{torch::rand({300, 40}), torch::Tensor(), torch::rand({50, 3, 3, 3}) * 2,
                                          torch::rand({10})};
        scores[3] = torch::Tensor(); // dense entries stay undefined
        for (auto& s : scores)
            s = dpu::test::onTestDevice(s);
        const int64_t I = 300 * 40 + 50 * 27;
        const int64_t count = dpu::updatedCount(I, k);
        const dpu::MaskSet m = dpu::topKMask(scores, count);
        QVERIFY(!m[1].defined() && !m[3].defined());
        QCOMPARE(m[0].device().type(), dpu::test::testDevice().type());
        QCOMPARE(m[0].sum().item<int64_t>() + m[2].sum().item<int64_t>(), count);
        if (count < I) {
            double minKept = 1e9, maxDropped = -1e9;
            for (size_t t : {size_t(0), size_t(2)}) {
                auto kept = scores[t].masked_select(m[t] != 0);
                auto dropped = scores[t].masked_select(m[t] == 0);
                if (kept.numel())
                    minKept = std::min(minKept, kept.min().item<double>());
                if (dropped.numel())
                    maxDropped = std::max(maxDropped, dropped.max().item<double>());
            }
            QVERIFY(minKept >= maxDropped);
        }
    }

    void tiesGoToLowerIndexAndNanRanksLast()
    {
        std::vector<torch::Tensor> scores{torch::tensor({1.0f, 5.0f, 5.0f, 2.0f}),
                                          torch::tensor({5.0f, std::nanf(""), 9.0f}).reshape({3, 1})};
        const auto m = dpu::topKMask(scores, 3); // 9, then two of the three 5s: the first two
        QCOMPARE(m[0].reshape({-1})[1].item<float>(), 1.0f);
        QCOMPARE(m[0].reshape({-1})[2].item<float>(), 1.0f);
        QCOMPARE(m[1].reshape({-1})[0].item<float>(), 0.0f);
        QCOMPARE(m[1].reshape({-1})[2].item<float>(), 1.0f);
        const auto all = dpu::topKMask(scores, 6); // NaN only when nothing else is left
        QCOMPARE(all[1].reshape({-1})[1].item<float>(), 0.0f);
        QCOMPARE(all[0].sum().item<float>() + all[1].sum().item<float>(), 6.0f);
        // Deterministic: the same input gives the same mask.
        const auto again = dpu::topKMask(scores, 3);
        QVERIFY(torch::equal(m[0], again[0]) && torch::equal(m[1], again[1]));
    }

    /// The tensor-op selection (used on GPUs) picks exactly the host selection's weights, ties
    /// and NaNs included, on the test device and on the CPU.
    void deviceSelectionMatchesHost_data()
    {
        QTest::addColumn<bool>("onCpu");
        QTest::newRow("test device") << false;
        QTest::newRow("cpu") << true;
    }
    void deviceSelectionMatchesHost()
    {
        QFETCH(bool, onCpu);
        torch::manual_seed(11);
        // Few distinct values, so that many scores tie at every threshold; some NaN and -inf.
        std::vector<torch::Tensor> host{torch::randint(0, 50, {200, 30}).to(torch::kFloat), torch::Tensor(),
                                        torch::randint(0, 50, {16, 3, 3, 3}).to(torch::kFloat)};
        host[0].view({-1}).narrow(0, 5, 40).fill_(std::nanf(""));
        host[2].view({-1}).narrow(0, 0, 7).fill_(-std::numeric_limits<float>::infinity());
        std::vector<torch::Tensor> dev;
        for (const auto& t : host)
            dev.push_back(onCpu ? t : dpu::test::onTestDevice(t));
        const int64_t total = 200 * 30 + 16 * 27;
        for (int64_t count : {int64_t(0), int64_t(1), int64_t(37), total / 100, total / 10, total / 2, total - 30,
                              total - 1, total}) {
            const auto expected = dpu::topKMask(host, count);
            const auto got = dpu::topKMaskOnDevice(dev, count);
            QVERIFY(!got[1].defined());
            for (size_t t : {size_t(0), size_t(2)})
                QVERIFY2(torch::equal(expected[t], got[t].cpu()), qPrintable(QString("count %1").arg(count)));
        }
    }

    /// c = lambda g / sum(g) + (1 - lambda) l / sum(l), sums over all tensors.
    void combinationNormalisesGlobally()
    {
        std::vector<torch::Tensor> g{torch::tensor({1.0f, 3.0f}), torch::Tensor(), torch::tensor({4.0f})};
        std::vector<torch::Tensor> l{torch::tensor({2.0f, 0.0f}), torch::Tensor(), torch::tensor({-1.0f})};
        const auto c = dpu::combineContributions(g, l, 0.5);
        // sum g = 8, sum l = 1
        DPU_COMPARE_NEAR(c[0][0].item<double>(), 0.5 * 1 / 8 + 0.5 * 2 / 1, 1e-7);
        DPU_COMPARE_NEAR(c[0][1].item<double>(), 0.5 * 3 / 8 + 0.0, 1e-7);
        DPU_COMPARE_NEAR(c[2][0].item<double>(), 0.5 * 4 / 8 + 0.5 * -1 / 1, 1e-7);
        QVERIFY(!c[1].defined());
        // lambda = 1 is GCPU (global only), lambda = 0 is LCPU (local only).
        const auto gOnly = dpu::combineContributions(g, l, 1.0);
        DPU_COMPARE_NEAR(gOnly[0][0].item<double>(), 1.0 / 8, 1e-7);
        const auto lOnly = dpu::combineContributions(g, l, 0.0);
        DPU_COMPARE_NEAR(lOnly[0][0].item<double>(), 2.0, 1e-7);
        DPU_COMPARE_NEAR(lOnly[2][0].item<double>(), -1.0, 1e-7);
        // The normalisation removes the scale of each contribution: scaling g by 1000 changes nothing.
        std::vector<torch::Tensor> g1000{g[0] * 1000, torch::Tensor(), g[2] * 1000};
        const auto c2 = dpu::combineContributions(g1000, l, 0.5);
        DPU_COMPARE_NEAR(c2[0][1].item<double>(), c[0][1].item<double>(), 1e-7);
    }

    void combinationSurvivesZeroSums()
    {
        std::vector<torch::Tensor> g{torch::tensor({1.0f, 3.0f})};
        std::vector<torch::Tensor> l{torch::zeros({2})};
        const auto c = dpu::combineContributions(g, l, 0.5);
        QVERIFY(torch::isfinite(c[0]).all().item<bool>());
        DPU_COMPARE_NEAR(c[0][1].item<double>(), 0.5 * 3 / 4, 1e-7);
    }

    void randomLayerMasksFixEachLayer()
    {
        std::vector<torch::Tensor> like{torch::zeros({100, 50}), torch::Tensor(), torch::zeros({7, 3})};
        const auto m = dpu::randomLayerMasks(like, 0.05, 42);
        QCOMPARE(m[0].sum().item<int64_t>(), int64_t(250));
        QCOMPARE(m[2].sum().item<int64_t>(), int64_t(1)); // round(0.05 * 21) = 1
        QVERIFY(!m[1].defined());
        QVERIFY(torch::equal(m[0], dpu::randomLayerMasks(like, 0.05, 42)[0]));
        QVERIFY(!torch::equal(m[0], dpu::randomLayerMasks(like, 0.05, 43)[0]));
    }

    /// Within a sparse model's pattern: the same count, drawn among the pattern's ones only,
    /// nested in a larger k's; a count beyond the pattern stops at all of it.
    void randomLayerMasksWithinAPattern()
    {
        std::vector<torch::Tensor> like{torch::zeros({100, 50}), torch::Tensor()};
        const dpu::MaskSet pattern{(torch::arange(5000).reshape({100, 50}) % 2 == 0).to(torch::kFloat), torch::Tensor()};
        const auto m = dpu::randomLayerMasks(like, 0.05, 42, &pattern);
        QCOMPARE(m[0].sum().item<int64_t>(), int64_t(250));
        QCOMPARE((m[0] * (1 - pattern[0])).sum().item<int64_t>(), int64_t(0)); // none outside
        const auto larger = dpu::randomLayerMasks(like, 0.2, 42, &pattern);
        QCOMPARE((m[0] * larger[0]).sum().item<int64_t>(), int64_t(250)); // nested
        QVERIFY(torch::equal(dpu::randomLayerMasks(like, 0.9, 42, &pattern)[0], pattern[0]));
    }

    void rewindSelectsExactly()
    {
        auto trained = std::vector<torch::Tensor>{torch::tensor({1.1f, 2.2f, 3.3f}), torch::tensor({9.0f})};
        const auto base = std::vector<torch::Tensor>{torch::tensor({-0.0f, 0.3f, 0.7f}), torch::tensor({1.0f})};
        dpu::MaskSet m{torch::tensor({0.0f, 1.0f, 0.0f}), torch::Tensor()};
        dpu::rewindInPlace(trained, base, m);
        QVERIFY(std::signbit(trained[0][0].item<float>())); // -0.0 kept bit-exactly
        QCOMPARE(trained[0][1].item<float>(), 2.2f);
        QCOMPARE(trained[0][2].item<float>(), 0.7f);
        QCOMPARE(trained[1][0].item<float>(), 9.0f); // dense: keeps the trained value
    }
};

QTEST_APPLESS_MAIN(TestMaskSelection)
#include "test_mask_selection.moc"
