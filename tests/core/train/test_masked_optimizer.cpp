// SPDX-License-Identifier: MIT
// Masked Adam/SGD: masked weights stay bit-identical, unmasked steps match torch.optim, c_local is exact
// (on DPU_TEST_DEVICE: the CPU kernels, or the CUDA kernels against the tensor-op path).
#include "TestDevice.h"
#include "TestSupport.h"
#include "train/MaskedOptimizer.h"
#include "train/cuda/MaskedKernels.h"
#include <cstring>

namespace {

struct Setup {
    std::vector<torch::Tensor> params;
    dpu::MaskSet masks;
};

Setup makeParams(uint64_t seed, bool withMasks)
{
    torch::manual_seed(static_cast<int64_t>(seed));
    Setup s;
    // Drawn on the CPU (the same values on every device), then moved.
    s.params = {torch::randn({64, 33}), torch::randn({17}), torch::randn({8, 3, 3, 3})};
    if (withMasks)
        for (auto& p : s.params)
            s.masks.push_back(p.dim() > 1 ? dpu::test::onTestDevice((torch::rand(p.sizes()) < 0.1).to(torch::kFloat))
                                          : torch::Tensor());
    for (auto& p : s.params) {
        p = dpu::test::onTestDevice(p);
        p.set_requires_grad(true);
    }
    return s;
}

void setRandomGrads(std::vector<torch::Tensor>& params)
{
    for (auto& p : params)
        p.mutable_grad() = (torch::randn(p.sizes()) * 0.1).to(p.device());
}

dpu::TrainSpec spec(const std::string& optimizer)
{
    dpu::TrainSpec s;
    s.optimizer = *dpu::enumFromString<dpu::Optimizer>(optimizer);
    s.lr = s.optimizer == dpu::Optimizer::Adam ? 0.01 : 0.1;
    s.momentum = 0.9;
    s.nesterov = true;
    s.weightDecay = optimizer == "adam" ? 0.0 : 1e-3;
    return s;
}

double maxDiff(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, (a[i] - b[i]).abs().max().item<double>());
    return d;
}

} // namespace

class TestMaskedOptimizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void maskedWeightsStayBitIdentical_data()
    {
        QTest::addColumn<QString>("optimizer");
        QTest::addColumn<bool>("fused");
        QTest::newRow("adam fused") << "adam" << true;
        QTest::newRow("adam generic") << "adam" << false;
        QTest::newRow("sgd+wd fused") << "sgd" << true;
        QTest::newRow("sgd+wd generic") << "sgd" << false;
    }
    void maskedWeightsStayBitIdentical()
    {
        QFETCH(QString, optimizer);
        QFETCH(bool, fused);
        Setup s = makeParams(1, true);
        std::vector<torch::Tensor> before;
        for (auto& p : s.params)
            before.push_back(p.detach().clone());
        auto opt = dpu::MaskedOptimizer::create(spec(optimizer.toStdString()), s.params);
        opt->setFused(fused);
        opt->setMasks(&s.masks);
        for (int step = 0; step < 200; ++step) {
            setRandomGrads(s.params);
            opt->step();
        }
        for (size_t i = 0; i < s.params.size(); ++i) {
            const auto p = s.params[i].detach().cpu().contiguous();
            const auto b = before[i].cpu().contiguous();
            if (!s.masks[i].defined()) { // dense tensors train freely
                QVERIFY((p - b).abs().max().item<double>() > 1e-3);
                continue;
            }
            const auto m = s.masks[i].cpu().contiguous();
            const float* pd = p.data_ptr<float>();
            const float* bd = b.data_ptr<float>();
            const float* md = m.data_ptr<float>();
            int64_t frozenChecked = 0, moved = 0;
            for (int64_t j = 0; j < p.numel(); ++j) {
                if (md[j] == 0.0f) {
                    QVERIFY2(std::memcmp(pd + j, bd + j, sizeof(float)) == 0, "a masked weight changed");
                    ++frozenChecked;
                } else {
                    moved += pd[j] != bd[j];
                }
            }
            QVERIFY(frozenChecked > p.numel() / 2);
            QVERIFY(moved > 0);
        }
    }

    void unmaskedAdamMatchesTorch()
    {
        Setup a = makeParams(2, false), b = makeParams(2, false);
        auto ours = dpu::MaskedOptimizer::create(spec("adam"), a.params);
        torch::optim::Adam ref(b.params, torch::optim::AdamOptions(0.01));
        for (int step = 0; step < 50; ++step) {
            torch::manual_seed(100 + step);
            setRandomGrads(a.params);
            torch::manual_seed(100 + step);
            setRandomGrads(b.params);
            ours->step();
            ref.step();
        }
        QVERIFY2(maxDiff(a.params, b.params) < 2e-6, qPrintable(QString::number(maxDiff(a.params, b.params))));
    }

    void unmaskedSgdMatchesTorch()
    {
        Setup a = makeParams(3, false), b = makeParams(3, false);
        auto ours = dpu::MaskedOptimizer::create(spec("sgd"), a.params);
        torch::optim::SGD ref(b.params, torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true).weight_decay(1e-3));
        for (int step = 0; step < 50; ++step) {
            torch::manual_seed(200 + step);
            setRandomGrads(a.params);
            torch::manual_seed(200 + step);
            setRandomGrads(b.params);
            ours->step();
            ref.step();
        }
        QVERIFY2(maxDiff(a.params, b.params) < 2e-6, qPrintable(QString::number(maxDiff(a.params, b.params))));
    }

    void fusedMatchesGeneric_data()
    {
        QTest::addColumn<QString>("optimizer");
        QTest::newRow("adam") << "adam";
        QTest::newRow("sgd") << "sgd";
    }
    void fusedMatchesGeneric()
    {
        QFETCH(QString, optimizer);
        // Without the CUDA kernels both sides would run the same tensor-op path on a GPU.
        QVERIFY2(!dpu::test::testDevice().is_cuda() || dpu::cuda::kernelsBuilt(),
                 "a CUDA test run needs the fused kernels (DPU_CUDA_KERNELS)");
        Setup a = makeParams(4, true), b = makeParams(4, true);
        std::vector<torch::Tensor> ca, cb;
        for (auto& p : a.params)
            ca.push_back(torch::zeros_like(p));
        for (auto& p : b.params)
            cb.push_back(torch::zeros_like(p));
        auto fa = dpu::MaskedOptimizer::create(spec(optimizer.toStdString()), a.params);
        auto fb = dpu::MaskedOptimizer::create(spec(optimizer.toStdString()), b.params);
        fb->setFused(false);
        fa->setMasks(&a.masks);
        fb->setMasks(&b.masks);
        fa->setLocalContribution(&ca);
        fb->setLocalContribution(&cb);
        for (int step = 0; step < 30; ++step) {
            torch::manual_seed(300 + step);
            setRandomGrads(a.params);
            torch::manual_seed(300 + step);
            setRandomGrads(b.params);
            fa->step();
            fb->step();
        }
        QVERIFY(maxDiff(a.params, b.params) < 1e-5);
        QVERIFY(maxDiff(ca, cb) < 1e-6);
        QVERIFY(ca[0].abs().sum().item<double>() > 0);
    }

    /// c_local = -sum_q g(w^{q-1}) * dw^q (Alg. 1 line 6), checked against a brute-force sum in
    /// double precision over the steps of a real tiny model.
    void localContributionIsBruteForceSum()
    {
        torch::manual_seed(5);
        torch::nn::Linear fc1(6, 5), fc2(5, 3);
        fc1->to(dpu::test::testDevice());
        fc2->to(dpu::test::testDevice());
        std::vector<torch::Tensor> params{fc1->weight, fc1->bias, fc2->weight, fc2->bias};
        std::vector<torch::Tensor> local, brute;
        for (auto& p : params) {
            local.push_back(torch::zeros_like(p));
            brute.push_back(torch::zeros_like(p, torch::kDouble));
        }
        auto opt = dpu::MaskedOptimizer::create(spec("adam"), params);
        opt->setLocalContribution(&local);
        const auto x = dpu::test::onTestDevice(torch::randn({32, 6}));
        const auto y = dpu::test::onTestDevice(torch::randint(0, 3, {32}, torch::kLong));
        for (int step = 0; step < 40; ++step) {
            for (auto& p : params)
                p.mutable_grad().reset();
            auto loss = torch::nn::functional::cross_entropy(fc2(torch::relu(fc1(x))), y);
            loss.backward();
            std::vector<torch::Tensor> before, grads;
            for (auto& p : params) {
                before.push_back(p.detach().clone());
                grads.push_back(p.grad().clone());
            }
            opt->step();
            for (size_t i = 0; i < params.size(); ++i) {
                const auto dw = params[i].detach().to(torch::kDouble) - before[i].to(torch::kDouble);
                brute[i] -= grads[i].to(torch::kDouble) * dw;
            }
        }
        for (size_t i = 0; i < params.size(); ++i) {
            const double scale = brute[i].abs().max().item<double>();
            QVERIFY(scale > 0);
            const double err = (local[i].to(torch::kDouble) - brute[i]).abs().max().item<double>();
            QVERIFY2(err <= 1e-4 * scale, qPrintable(QString("tensor %1: error %2 of %3").arg(i).arg(err).arg(scale)));
        }
        // The loss fell, so the summed contribution (the estimated loss reduction) is positive.
        double total = 0;
        for (auto& c : local)
            total += c.sum().item<double>();
        QVERIFY(total > 0);
    }
};

QTEST_APPLESS_MAIN(TestMaskedOptimizer)
#include "test_masked_optimizer.moc"
