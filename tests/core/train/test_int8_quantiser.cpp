// SPDX-License-Identifier: MIT
// The INT8 quantiser: codes, the unclamped training view, int8_rescale's grown scales, and a
// full update's view with scales of its own (fu_int8_training quant_aware).
#include "TestSupport.h"
#include "models/Network.h"
#include "train/Int8Quantiser.h"
#include "train/Trainer.h"

namespace {

/// Four noisy classes in 1x6x6 images, `n` of them (a fixed draw).
dpu::TensorDataset blobs(int64_t n)
{
    torch::manual_seed(3);
    const auto labels = torch::randint(0, 4, {n}, torch::kLong);
    const auto images = (torch::randn({4, 1, 6, 6}) * 0.35).index_select(0, labels) + torch::randn({n, 1, 6, 6});
    return {images.contiguous(), labels};
}

/// The view a grid with ownScales shows: each partial tensor rounded with int8Scales() of itself.
std::vector<torch::Tensor> ownScalesQuantised(const std::vector<torch::Tensor>& params)
{
    const std::vector<torch::Tensor> scales = dpu::int8Scales(params);
    std::vector<torch::Tensor> out;
    for (size_t i = 0; i < params.size(); ++i)
        out.push_back(scales[i].defined() ? dpu::int8Dequantised(dpu::int8Codes(params[i], scales[i]), scales[i])
                                          : params[i].detach().clone());
    return out;
}

/// One SGD step (lr 0.5, no momentum) of a seeded MLP on one batch of 64, through `grid`.
std::vector<torch::Tensor> oneStep(const dpu::Int8Grid* grid, std::vector<torch::Tensor>& start)
{
    auto net = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
    dpu::initialiseNetwork(*net, 5);
    start.clear();
    for (auto& p : net->parameters())
        start.push_back(p.tensor.detach().clone());
    dpu::TrainSpec spec;
    spec.optimizer = dpu::Optimizer::Sgd;
    spec.momentum = 0;
    spec.nesterov = false;
    spec.lr = 0.5;
    spec.epochs = 1;
    spec.batch = 64;
    dpu::TrainOptions options;
    options.selectBest = false;
    options.int8 = grid;
    const dpu::TensorDataset data = blobs(64);
    dpu::trainNetwork(*net, data, data, spec, options, dpu::TrainContext{});
    std::vector<torch::Tensor> after;
    for (auto& p : net->parameters())
        after.push_back(p.tensor.detach().clone());
    return after;
}

/// The gradient of the batch's cross-entropy at `weights` (a seeded MLP's parameters replaced).
std::vector<torch::Tensor> gradientAt(const std::vector<torch::Tensor>& weights)
{
    auto net = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
    std::vector<torch::Tensor> params;
    for (auto& p : net->parameters())
        params.push_back(p.tensor);
    {
        torch::NoGradGuard guard;
        for (size_t i = 0; i < params.size(); ++i)
            params[i].copy_(weights[i]);
    }
    const dpu::TensorDataset data = blobs(64);
    net->setTraining(true);
    torch::nn::functional::cross_entropy(net->forward(data.images), data.labels).backward();
    std::vector<torch::Tensor> grads;
    for (auto& p : params)
        grads.push_back(p.grad().detach().clone());
    return grads;
}

} // namespace

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

    /// A grid with ownScales (no scales of the deployed model) shows every partial tensor rounded
    /// with the scales it would ship, max |w| / 127 per output channel of its current weights
    /// (each channel's largest weight on its ±127th code), leaves 1-D tensors alone and gives the
    /// shadows back.
    void ownScalesViewShowsWhatAFullUpdateShips()
    {
        torch::manual_seed(11);
        std::vector<torch::Tensor> params{torch::randn({3, 5}), torch::randn({3})};
        const std::vector<torch::Tensor> before{params[0].clone(), params[1].clone()};
        const std::vector<torch::Tensor> expected = ownScalesQuantised(before);
        QVERIFY(!torch::equal(expected[0], before[0])); // rounding moves most weights
        const dpu::Int8Grid own{nullptr, {}, true};
        {
            const dpu::QuantisedView view(params, &own);
            QVERIFY(torch::equal(params[0], expected[0]));
            QVERIFY(torch::equal(params[1], before[1]));
            const torch::Tensor codes = dpu::int8Codes(params[0], dpu::int8Scales({before[0]})[0]);
            QVERIFY(torch::equal(std::get<0>(codes.abs().max(1)), torch::full({3}, 127, torch::kChar)));
        }
        QVERIFY(torch::equal(params[0], before[0]));
        const dpu::Int8Grid none{};
        const dpu::QuantisedView off(params, &none); // neither scales nor ownScales: a float model
        QVERIFY(torch::equal(params[0], before[0]));
    }

    /// int8_biases codes: a bias is one scale's codes, max |b| / 127 of its own values (its
    /// largest value on code ±127, a bias of zeros on scale 1); a grid with biases rounds each
    /// 1-D tensor with the scale of what it holds now, also where the deployed scales (partial
    /// rounds) hold an old one for it, and gives the shadows back. Without biases they stay float.
    void biasesAreCodesWithAScaleOfTheirOwn()
    {
        const torch::Tensor bias = torch::tensor({0.254f, -0.5f, 0.1f});
        QVERIFY(dpu::int8Coded(bias, true));
        QVERIFY(!dpu::int8Coded(bias, false));
        QVERIFY(!dpu::int8Coded(torch::zeros({0}), true)); // nothing to code
        QVERIFY(dpu::int8Coded(torch::zeros({2, 2}), false)); // partial tensors always
        const torch::Tensor s = dpu::int8ScaleOf(bias);
        QCOMPARE(s.sizes().vec(), std::vector<int64_t>{1});
        QCOMPARE(s.item<float>(), 0.5f / 127);
        QCOMPARE(dpu::int8Codes(bias, s)[1].item<int8_t>(), int8_t(-127));
        QCOMPARE(dpu::int8Codes(bias, s)[0].item<int8_t>(), int8_t(std::lround(0.254f / (0.5f / 127))));
        QCOMPARE(dpu::int8ScaleOf(torch::zeros({4})).item<float>(), 1.0f);
        const auto scales = dpu::int8Scales({torch::ones({2, 3}), bias}, true);
        QVERIFY(scales[1].defined() && torch::equal(scales[1], s));
        QVERIFY(!dpu::int8Scales({torch::ones({2, 3}), bias})[1].defined());

        std::vector<torch::Tensor> params{torch::tensor({{0.3f, -0.2f}}), bias.clone()};
        const std::vector<torch::Tensor> before{params[0].clone(), params[1].clone()};
        const std::vector<torch::Tensor> stale{torch::tensor({0.01f}), torch::tensor({0.001f})}; // last round's
        dpu::Int8Grid grid{&stale, {}, false, true};
        {
            const dpu::QuantisedView view(params, &grid);
            QCOMPARE(params[0][0][0].item<float>(), 30 * 0.01f); // the deployed scale of a partial tensor
            QVERIFY(torch::equal(params[1], dpu::int8Dequantised(dpu::int8Codes(before[1], s), s)));
            QVERIFY(!torch::equal(params[1], before[1]));
        }
        QVERIFY(torch::equal(params[1], before[1]));
        const dpu::Int8Grid own{nullptr, {}, true, true};
        {
            const dpu::QuantisedView view(params, &own);
            QVERIFY(torch::equal(params[1], dpu::int8Dequantised(dpu::int8Codes(before[1], s), s)));
        }
        const std::vector<torch::Tensor> floatBiases{stale[0], torch::Tensor()}; // int8_biases float: no scale
        const dpu::Int8Grid partialOnly{&floatBiases, {}, false, false};
        {
            const dpu::QuantisedView view(params, &partialOnly);
            QCOMPARE(params[1][0].item<float>(), 0.254f); // no scale in 1-D: float
        }
    }

    /// FU's INT8 training (fu_int8_training quant_aware) is the straight-through estimator with
    /// scales of its own: a step moves the float weights by the gradient taken at their own
    /// quantised values, -lr * grad L(Q(w)), not at the float weights (what float training does).
    void fullTrainingStepsWithTheQuantisedGradient()
    {
        std::vector<torch::Tensor> start;
        const dpu::Int8Grid own{nullptr, {}, true};
        const std::vector<torch::Tensor> through = oneStep(&own, start);
        const std::vector<torch::Tensor> atQuantised = gradientAt(ownScalesQuantised(start));
        std::vector<torch::Tensor> floatStart;
        const std::vector<torch::Tensor> inFloat = oneStep(nullptr, floatStart);
        double offFloat = 0;
        for (size_t i = 0; i < start.size(); ++i) {
            const torch::Tensor expected = start[i] - 0.5 * atQuantised[i];
            QVERIFY2(torch::allclose(through[i], expected, 1e-5, 1e-6), qPrintable(QString::number(i)));
            offFloat = std::max(offFloat, (inFloat[i] - expected).abs().max().item<double>());
        }
        QVERIFY2(offFloat > 1e-4, qPrintable(QString::number(offFloat))); // float training steps elsewhere
    }
};

QTEST_GUILESS_MAIN(TestInt8Quantiser)
#include "test_int8_quantiser.moc"
