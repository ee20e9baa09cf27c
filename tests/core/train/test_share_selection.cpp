// SPDX-License-Identifier: MIT
// k_share: per-tensor counts of a round's changed weights (layer, mass) and the masks built from them.
#include "TestDevice.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "train/MaskSelection.h"
#include "train/ShareSelection.h"
#include <limits>

namespace {

int64_t ones(const torch::Tensor& m)
{
    return m.sum().item<int64_t>();
}

} // namespace

class TestShareSelection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Layer: each tensor's part follows its size (sizes 1,000 / 200 / 10: 605 ones are half of
    /// each; 25 ones are 20.66 / 4.13 / 0.21 -> 21, 4, 0 by largest remainder);
    /// undefined tensors get nothing; the parts add up to the count.
    void layerFollowsSizes()
    {
        const std::vector<torch::Tensor> scores{torch::rand({1000}), torch::Tensor(), torch::rand({20, 10}),
                                                torch::rand({10})};
        QCOMPARE(dpu::shareCounts(scores, 605, dpu::KShare::Layer), (std::vector<int64_t>{500, 0, 100, 5}));
        QCOMPARE(dpu::shareCounts(scores, 25, dpu::KShare::Layer), (std::vector<int64_t>{21, 0, 4, 0}));
        QCOMPARE(dpu::shareCounts(scores, 5000, dpu::KShare::Layer), (std::vector<int64_t>{1000, 0, 200, 10}));
        QVERIFY_THROWS_EXCEPTION(dpu::InternalError, dpu::shareCounts(scores, 5, dpu::KShare::Global));
    }

    /// Mass: parts in proportion to the positive sums; a tensor whose share exceeds its size
    /// is filled and the rest split among the others; masked-out (-inf) and NaN entries are
    /// neither counted nor chosen.
    void massFollowsContributions()
    {
        const float inf = std::numeric_limits<float>::infinity();
        std::vector<torch::Tensor> scores{torch::full({100}, 1.0f), torch::full({10}, 30.0f), torch::full({50}, 2.0f)};
        // sums 100, 300, 100: 20 ones -> 4, 12 (more than 10: filled), 4 -> 10 left for 5 and 5.
        QCOMPARE(dpu::shareCounts(scores, 20, dpu::KShare::Mass), (std::vector<int64_t>{5, 10, 5}));
        scores[0].narrow(0, 0, 90).fill_(-inf);  // 10 selectable entries left in the first
        scores[2].narrow(0, 0, 1).fill_(NAN);
        const auto parts = dpu::shareCounts(scores, 60, dpu::KShare::Mass);
        // sums 10, 300, 98 over 10, 10, 49 entries: the second filled, 50 left as 4.63 and 45.37.
        QCOMPARE(parts, (std::vector<int64_t>{5, 10, 45}));
        const dpu::MaskSet m = dpu::sharedTopKMask(scores, 60, dpu::KShare::Mass);
        QCOMPARE(ones(m[0]), int64_t(5));
        QCOMPARE(ones(m[0].narrow(0, 0, 90)), int64_t(0)); // never a rewound weight
        QCOMPARE(ones(m[2].narrow(0, 0, 1)), int64_t(0));  // nor a NaN
        // No positive contribution anywhere: the sizes decide.
        const std::vector<torch::Tensor> zero{torch::zeros({30}), torch::zeros({10})};
        QCOMPARE(dpu::shareCounts(zero, 8, dpu::KShare::Mass), (std::vector<int64_t>{6, 2}));
    }

    /// The masks keep each tensor's largest scores, on the scores' device; global is topKMask.
    void masksKeepTheLargestWithinEachTensor()
    {
        torch::manual_seed(5);
        std::vector<torch::Tensor> scores{torch::rand({40, 30}) * 10, torch::rand({200})};
        for (auto& s : scores)
            s = dpu::test::onTestDevice(s);
        const dpu::MaskSet layer = dpu::sharedTopKMask(scores, 140, dpu::KShare::Layer); // 120 + 20
        QCOMPARE(layer[0].device().type(), dpu::test::testDevice().type());
        QCOMPARE(ones(layer[0]), int64_t(120));
        QCOMPARE(ones(layer[1]), int64_t(20));
        for (size_t t = 0; t < 2; ++t)
            QVERIFY(scores[t].masked_select(layer[t] != 0).min().item<float>()
                    >= scores[t].masked_select(layer[t] == 0).max().item<float>());
        const dpu::MaskSet global = dpu::sharedTopKMask(scores, 140, dpu::KShare::Global);
        const dpu::MaskSet top = dpu::topKMask(scores, 140);
        for (size_t t = 0; t < 2; ++t)
            QVERIFY(torch::equal(global[t], top[t]));
        QCOMPARE(ones(global[1]), int64_t(0)); // the second tensor's scores are all below the first's top 140
    }
};

QTEST_APPLESS_MAIN(TestShareSelection)
#include "test_share_selection.moc"
