// SPDX-License-Identifier: MIT
// The trainer's steps: CUDA graph replays give the eager steps' weights bit for bit (on
// DPU_TEST_DEVICE=cuda), with masks, c_local, distillation's soft targets and a short last batch;
// eager where graphs cannot run; a graph gives its memory back when its call ends.
#include "TestDevice.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "models/Network.h"
#include "train/MaskedOptimizer.h"
#include "train/TrainStep.h"
#include "train/Trainer.h"
#include "train/cuda/MaskedKernels.h"
#include "train/cuda/StepGraph.h"
#include "util/TorchCompat.h"
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace {

/// Rows [first, first + n) of four noisy classes in 1x6x6 images (one fixed draw of 800); 600
/// samples make 9 full batches of 64 and one of 24.
dpu::TensorDataset blobs(int64_t first, int64_t n)
{
    torch::manual_seed(3);
    auto labels = torch::randint(0, 4, {800}, torch::kLong);
    auto images = (torch::randn({4, 1, 6, 6}) * 0.35).index_select(0, labels) + torch::randn({800, 1, 6, 6});
    return {dpu::test::onTestDevice(images.narrow(0, first, n).contiguous()),
            dpu::test::onTestDevice(labels.narrow(0, first, n).contiguous())};
}

struct Outcome {
    dpu::Weights weights;
    std::vector<torch::Tensor> local;
    dpu::TrainResult result;
};

/// Trains a fresh seeded MLP for 3 epochs (Adam, step schedule), masked with c_local when asked,
/// towards fixed random soft targets as well when `distilled`, with CUDA graphs on or off
/// (DPU_CUDA_GRAPHS).
Outcome train(bool graphs, bool masked, bool distilled)
{
    if (graphs)
        ::unsetenv("DPU_CUDA_GRAPHS");
    else
        ::setenv("DPU_CUDA_GRAPHS", "0", 1);
    const dpu::TensorDataset data = blobs(0, 600), validation = blobs(600, 200);
    auto net = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
    net->to(dpu::test::testDevice());
    dpu::initialiseNetwork(*net, 5);
    dpu::TrainSpec spec;
    spec.epochs = 3;
    spec.batch = 64;
    spec.lr = 0.01;
    spec.schedule.kind = dpu::ScheduleKind::Step;
    spec.schedule.stepEpochs = 2;
    dpu::TrainOptions options;
    options.shuffleSeed = 9;
    dpu::MaskSet masks;
    Outcome out;
    if (masked) {
        torch::manual_seed(4);
        for (auto& p : net->parameters()) {
            masks.push_back(dpu::test::onTestDevice((torch::rand(p.tensor.sizes()) < 0.3).to(torch::kFloat)));
            out.local.push_back(torch::zeros_like(p.tensor));
        }
        options.masks = &masks;
        options.localContribution = &out.local;
    }
    dpu::DistillTargets targets;
    if (distilled) {
        torch::manual_seed(6);
        targets.logProbs = dpu::test::onTestDevice(torch::log_softmax(torch::randn({600, 4}) / 2.0, 1));
        targets.weight = 0.3;
        targets.temperature = 2.0;
        options.distill = &targets;
    }
    out.result = dpu::trainNetwork(*net, data, validation, spec, options, dpu::TrainContext{});
    out.weights = dpu::snapshot(*net);
    ::unsetenv("DPU_CUDA_GRAPHS");
    return out;
}

bool bitIdentical(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        auto x = a[i].cpu().contiguous(), y = b[i].cpu().contiguous();
        if (x.sizes() != y.sizes() || std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) != 0)
            return false;
    }
    return true;
}

} // namespace

class TestTrainStep : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { dpu::compat::makeDeterministic(dpu::test::testDevice()); }

    /// Graph mode is taken exactly where it can run: CUDA, Adam in the fused kernels, no
    /// augmentation, and not when DPU_CUDA_GRAPHS=0.
    void graphModeWhereItCanRun()
    {
        const auto data = blobs(0, 600);
        auto net = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
        net->to(dpu::test::testDevice());
        std::vector<torch::Tensor> params;
        for (auto& p : net->parameters())
            params.push_back(p.tensor);
        dpu::TrainSpec adam;
        auto optimizer = dpu::MaskedOptimizer::create(adam, params);
        const bool cuda = dpu::test::testDevice().is_cuda();
        QCOMPARE(dpu::TrainStep::graphsPossible(*optimizer, data), cuda && dpu::cuda::kernelsBuilt());
        QCOMPARE(optimizer->graphable(), cuda && dpu::cuda::kernelsBuilt());
        if (!optimizer->graphable())
            QVERIFY_THROWS_EXCEPTION(dpu::InternalError, optimizer->setDeviceConstants(true));
        dpu::TrainSpec sgd;
        sgd.optimizer = dpu::Optimizer::Sgd;
        QVERIFY(!dpu::MaskedOptimizer::create(sgd, params)->graphable()); // SGD's first step differs

        ::setenv("DPU_CUDA_GRAPHS", "0", 1);
        QVERIFY(!dpu::cuda::graphsEnabled());
        QVERIFY(!dpu::TrainStep::graphsPossible(*optimizer, data));
        ::unsetenv("DPU_CUDA_GRAPHS");
        if (cuda && dpu::cuda::kernelsBuilt()) {
            dpu::cuda::SideStream side;
            torch::Tensor lossSum = torch::zeros({}, data.images.options().dtype(torch::kDouble));
            dpu::TrainStep step(*net, params, *optimizer, lossSum, data, 64, true);
            QVERIFY(step.graphed());
            for (int b = 0; b < 3; ++b) // warm-up, capture and replay
                step.run(torch::arange(b * 64, (b + 1) * 64, data.labels.options()), 0);
            QVERIFY(lossSum.item<double>() > 0);
        }
    }

    /// A training call's graph gives its memory back: calls in a row (a round's training and
    /// fine-tune, round after round) keep what LibTorch's CUDA allocator reserves level instead
    /// of keeping a graph pool per call (a VGGNet run on an 80 GB H100 ran out that way).
    void graphMemoryComesBack()
    {
        std::vector<std::size_t> reserved;
        for (int call = 0; call < 5; ++call) {
            QVERIFY(train(true, false, false).result.bestValAccuracy > 0.4);
            reserved.push_back(dpu::cuda::reservedBytes());
        }
        if (!(dpu::test::testDevice().is_cuda() && dpu::cuda::kernelsBuilt())) {
            QCOMPARE(reserved.back(), std::size_t{0}); // nothing trained on a GPU
            return;
        }
        // A graph pool takes at least one 2 MiB segment: a pool kept per call would add three here.
        QVERIFY(reserved[1] > 0);
        QVERIFY2(reserved[4] <= reserved[1] + (std::size_t{1} << 20),
                 qPrintable(QString("reserved after the 2nd call %1 B, after the 5th %2 B").arg(reserved[1]).arg(reserved[4])));
    }

    /// The weights, c_local, best epoch and loss of graph replays equal the eager steps' bit for
    /// bit (the same kernels and constants), with masks and with a short last batch run eagerly
    /// between replays. On the CPU both runs are eager and must agree all the same.
    void graphsEqualEagerSteps_data()
    {
        QTest::addColumn<bool>("masked");
        QTest::addColumn<bool>("distilled");
        QTest::newRow("unmasked") << false << false;
        QTest::newRow("masked, c_local") << true << false;
        QTest::newRow("masked, distilled") << true << true;
    }
    void graphsEqualEagerSteps()
    {
        QFETCH(bool, masked);
        QFETCH(bool, distilled);
        const Outcome eager = train(false, masked, distilled), graphed = train(true, masked, distilled);
        QVERIFY(bitIdentical(eager.weights.params, graphed.weights.params));
        QVERIFY(bitIdentical(eager.weights.buffers, graphed.weights.buffers));
        QVERIFY(bitIdentical(eager.local, graphed.local));
        QCOMPARE(graphed.result.bestEpoch, eager.result.bestEpoch);
        QCOMPARE(graphed.result.bestValAccuracy, eager.result.bestValAccuracy);
        QCOMPARE(graphed.result.lastLoss, eager.result.lastLoss);
        QVERIFY(eager.result.bestValAccuracy > 0.4); // it trained (four classes: chance is 0.25)
    }
};

QTEST_APPLESS_MAIN(TestTrainStep)
#include "test_train_step.moc"
