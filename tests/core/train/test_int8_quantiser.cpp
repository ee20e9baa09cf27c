// SPDX-License-Identifier: MIT
// The INT8 quantiser: codes, the unclamped training view and int8_rescale's grown scales.
#include "TestSupport.h"
#include "train/Int8Quantiser.h"

class TestInt8Quantiser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Codes round to the channel's steps and clamp at ±127; the unclamped view agrees where
    /// nothing clips and keeps counting steps beyond ±127 where the clamp would clip.
    void unclampedAgreesBelowTheClamp()
    {
        const torch::Tensor scale = torch::tensor({0.01f, 0.5f});
        const torch::Tensor w = torch::tensor({{0.004f, -1.27f, 2.0f}, {0.26f, -63.4f, 10.0f}});
        const torch::Tensor codes = dpu::int8Codes(w, scale);
        QCOMPARE(codes.scalar_type(), torch::kChar);
        const std::vector<int> expected{0, -127, 127, 1, -127, 20};
        for (int64_t j = 0; j < 6; ++j)
            QCOMPARE(int(codes.flatten()[j].item<int8_t>()), expected[size_t(j)]);
        const torch::Tensor clamped = dpu::int8Dequantised(codes, scale);
        const torch::Tensor free = dpu::int8Unclamped(w, scale);
        // Row 0: 2.0 is 200 steps of 0.01, clipped to 127 steps by the codes, not by the view.
        QCOMPARE(free[0][2].item<float>(), 200 * 0.01f);
        QCOMPARE(clamped[0][2].item<float>(), 127 * 0.01f);
        QVERIFY(torch::equal(free[0].slice(0, 0, 2), clamped[0].slice(0, 0, 2)));
        QVERIFY(torch::equal(free[1].slice(0, 2, 3), clamped[1].slice(0, 2, 3)));
    }

    /// A channel grows only where its largest weight would clip (127.5 steps or more), to
    /// max |w| / 127, so that the re-coded channel spans it with ±127 again; others keep theirs.
    void growsOnlyClippingChannels()
    {
        const torch::Tensor scale = torch::tensor({0.01f, 0.01f, 0.01f});
        const torch::Tensor w = torch::tensor({{1.27f, -0.5f}, {0.2f, -1.275f}, {-3.0f, 0.1f}});
        const torch::Tensor grown = dpu::grownScale(w, scale);
        QCOMPARE(grown[0].item<float>(), 0.01f); // 127 steps: fits
        QCOMPARE(grown[1].item<float>(), 1.275f / 127); // 127.5 steps: rounds to 128, clips
        QCOMPARE(grown[2].item<float>(), 3.0f / 127);
        QCOMPARE(scale[2].item<float>(), 0.01f); // the input is not written
        const torch::Tensor codes = dpu::int8Codes(w, grown);
        QCOMPARE(int(codes[2][0].item<int8_t>()), -127);
        QCOMPARE(int(codes[2][1].item<int8_t>()), 4); // 0.1 / (3 / 127) = 4.23
        const torch::Tensor none = dpu::grownScale(w * 0.3, scale);
        QVERIFY(torch::equal(none, scale));
    }

    /// The view shows the quantised values (unclamped where the grid says so, clamped elsewhere)
    /// and gives the shadow weights back; tensors without a scale stay as they are.
    void viewRestoresTheShadows()
    {
        std::vector<torch::Tensor> params{torch::tensor({{2.004f, 0.5f}}), torch::tensor({{2.004f, 0.5f}}),
                                          torch::tensor({0.123f})};
        const std::vector<torch::Tensor> before{params[0].clone(), params[1].clone(), params[2].clone()};
        const std::vector<torch::Tensor> scales{torch::tensor({0.01f}), torch::tensor({0.01f}), torch::Tensor()};
        dpu::Int8Grid grid{&scales, {true, false, false}};
        {
            const dpu::QuantisedView view(params, &grid);
            QCOMPARE(params[0][0][0].item<float>(), 200 * 0.01f);
            QCOMPARE(params[1][0][0].item<float>(), 127 * 0.01f);
            QCOMPARE(params[0][0][1].item<float>(), 50 * 0.01f);
            QVERIFY(torch::equal(params[2], before[2]));
        }
        for (size_t i = 0; i < params.size(); ++i)
            QVERIFY(torch::equal(params[i], before[i]));
        const dpu::QuantisedView off(params, nullptr);
        QVERIFY(torch::equal(params[0], before[0]));
    }
};

QTEST_GUILESS_MAIN(TestInt8Quantiser)
#include "test_int8_quantiser.moc"
