// SPDX-License-Identifier: MIT
// Distillation's soft targets and loss: the loss's limits and gradient, the targets' rows, and a
// student that learns its teacher's answers rather than the labels.
#include "TestDevice.h"
#include "TestSupport.h"
#include "models/Network.h"
#include "train/Distillation.h"
#include "train/Evaluator.h"
#include "train/Trainer.h"
#include "util/TorchCompat.h"

namespace {

/// 600 samples of four well separated noisy classes in 1x6x6 images (one fixed draw).
dpu::TensorDataset blobs()
{
    torch::manual_seed(11);
    auto labels = torch::randint(0, 4, {600}, torch::kLong);
    auto images = torch::randn({4, 1, 6, 6}).index_select(0, labels) + 0.5 * torch::randn({600, 1, 6, 6});
    return {dpu::test::onTestDevice(images), dpu::test::onTestDevice(labels)};
}

std::unique_ptr<dpu::Network> mlp(uint64_t seed)
{
    auto net = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
    net->to(dpu::test::testDevice());
    dpu::initialiseNetwork(*net, seed);
    return net;
}

dpu::TrainSpec spec()
{
    dpu::TrainSpec s;
    s.epochs = 4;
    s.batch = 50;
    s.lr = 0.01;
    return s;
}

/// Share of `data` whose label is `network`'s answer.
double agreement(dpu::Network& network, const torch::Tensor& images, const torch::Tensor& labels)
{
    return dpu::accuracy(network, {images, labels});
}

} // namespace

class TestDistillation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { dpu::compat::makeDeterministic(dpu::test::testDevice()); }

    /// Weight 0 is the labels' cross-entropy exactly; a student that equals its teacher has no
    /// soft loss; the soft part's gradient is T (softmax(z / T) - q) / B, so the T^2 keeps it at
    /// the scale of the hard loss's for every T.
    void lossLimitsAndGradient()
    {
        torch::manual_seed(2);
        const torch::Tensor y = torch::randint(0, 5, {8}, torch::kLong);
        const torch::Tensor teacher = torch::randn({8, 5});
        for (double t : {1.0, 4.0}) {
            const torch::Tensor targets = torch::log_softmax(teacher / t, 1);
            const torch::Tensor z = torch::randn({8, 5}).requires_grad_(true);
            QCOMPARE(dpu::distillationLoss(z, y, targets, 0.0, t).item<double>(),
                     torch::nn::functional::cross_entropy(z, y).item<double>());
            QVERIFY(std::abs(dpu::distillationLoss(teacher, y, targets, 1.0, t).item<double>()) < 1e-6);
            dpu::distillationLoss(z, y, targets, 1.0, t).backward();
            const torch::Tensor expected = (torch::softmax(z.detach() / t, 1) - targets.exp()) * (t / 8.0);
            QVERIFY2(torch::allclose(z.grad(), expected, 1e-5, 1e-6), qPrintable(QString("T = %1").arg(t)));
        }
    }

    /// The targets are the teacher's tempered log-probabilities, one row per sample in the data's
    /// order, computed in inference mode; the teacher is left in the network.
    void targetsAreTheTeachersRows()
    {
        const auto data = blobs();
        auto teacher = mlp(3);
        const dpu::Weights teacherWeights = dpu::snapshot(*teacher);
        auto net = mlp(4);
        dpu::DistillSpec s;
        s.weight = 0.4;
        s.temperature = 3;
        const dpu::DistillTargets targets = dpu::teacherTargets(*net, teacherWeights, data, s);
        QCOMPARE(targets.weight, 0.4);
        QCOMPARE(targets.temperature, 3.0);
        QCOMPARE(targets.logProbs.sizes().vec(), (std::vector<int64_t>{600, 4}));
        torch::NoGradGuard guard;
        teacher->setTraining(false);
        const torch::Tensor expected = torch::log_softmax(teacher->forward(data.images) / 3.0, 1);
        QVERIFY(torch::allclose(targets.logProbs.cpu(), expected.cpu(), 1e-5, 1e-6));
        QVERIFY(torch::allclose(targets.logProbs.exp().sum(1).cpu(), torch::ones({600}), 1e-5, 1e-6));
        QVERIFY(torch::equal(net->forward(data.images.narrow(0, 0, 5)).cpu(),
                             teacher->forward(data.images.narrow(0, 0, 5)).cpu())); // the teacher is in place
    }

    /// A teacher trained on shifted labels ((y + 1) mod 4): a student trained on the true labels
    /// with the soft loss alone answers as the teacher does, and with weight 0 as the labels say;
    /// rows out of order would teach it neither.
    void studentLearnsTheTeachersAnswers()
    {
        const auto data = blobs();
        const dpu::TensorDataset shifted{data.images, (data.labels + 1).remainder(4)};
        auto teacher = mlp(5);
        dpu::TrainOptions options;
        options.shuffleSeed = 1;
        options.selectBest = false;
        dpu::trainNetwork(*teacher, shifted, shifted, spec(), options, dpu::TrainContext{});
        QVERIFY(agreement(*teacher, data.images, shifted.labels) > 0.9);

        dpu::DistillSpec s;
        s.weight = 1.0;
        s.temperature = 2;
        auto student = mlp(6);
        const dpu::DistillTargets targets = dpu::teacherTargets(*student, dpu::snapshot(*teacher), data, s);
        for (double weight : {1.0, 0.0}) {
            dpu::initialiseNetwork(*student, 6);
            dpu::DistillTargets t = targets;
            t.weight = weight;
            options.distill = &t;
            dpu::trainNetwork(*student, data, data, spec(), options, dpu::TrainContext{});
            const double asTeacher = agreement(*student, data.images, shifted.labels);
            const double asLabels = agreement(*student, data.images, data.labels);
            const QString what = QString("weight %1: teacher's answers %2, labels %3").arg(weight).arg(asTeacher).arg(asLabels);
            QVERIFY2(weight > 0 ? asTeacher > 0.85 && asLabels < 0.2 : asLabels > 0.85 && asTeacher < 0.2, qPrintable(what));
        }
    }
};

QTEST_APPLESS_MAIN(TestDistillation)
#include "test_distillation.moc"
