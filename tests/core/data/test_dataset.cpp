// SPDX-License-Identifier: MIT
// loadData: kinds, limits, class count, normalisation with the training statistics, select, real Fashion-MNIST.
#include "TestSupport.h"
#include "data/Dataset.h"
#include "data/IdxReader.h"
#include "data/Normalise.h"
#include "dpu/Error.h"

using dpu::DataError;
using dpu::DatasetSpec;
using dpu::PlanError;

namespace {

DatasetSpec idxSpec(const std::string& path)
{
    DatasetSpec spec;
    spec.kind = dpu::DataKind::Idx;
    spec.path = path;
    return spec;
}

/// Mean and population std per channel, computed in double.
std::pair<std::vector<double>, std::vector<double>> moments(const torch::Tensor& images)
{
    const auto x = images.to(torch::kFloat64).transpose(0, 1).reshape({images.size(1), -1});
    std::vector<double> mean, std;
    for (int64_t c = 0; c < x.size(0); ++c) {
        mean.push_back(x[c].mean().item<double>());
        std.push_back(x[c].std(/*unbiased=*/false).item<double>());
    }
    return {mean, std};
}

} // namespace

class TestDataset : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loadsIdx()
    {
        QTemporaryDir dir;
        dpu::test::writeIdxFolder(dir.filePath("fashion-mnist").toStdString(), 50, 20, true, 28, 10);
        const auto data = dpu::loadData(idxSpec(dir.filePath("fashion-mnist").toStdString()));
        QCOMPARE(data.train.size(), int64_t{50});
        QCOMPARE(data.test.size(), int64_t{20});
        QVERIFY(data.shape == (dpu::InputShape{1, 28, 28}));
        QCOMPARE(data.classes, 10);
        QCOMPARE(data.train.images.scalar_type(), torch::kFloat32);
        QCOMPARE(data.train.labels.scalar_type(), torch::kInt64);
        QVERIFY(data.train.images.is_contiguous() && data.test.images.is_contiguous());
        QCOMPARE(data.train.images.sizes().vec(), (std::vector<int64_t>{50, 1, 28, 28}));
        QCOMPARE(data.test.labels[13].item<int64_t>(), int64_t{3});
        QCOMPARE(data.description, std::string("Fashion-MNIST (idx) 50 train / 20 test"));
    }

    void normalisesWithTrainingStatistics()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 200, 40, false, 12, 10);
        const auto data = dpu::loadData(idxSpec(d));
        const auto [mean, std] = moments(data.train.images);
        DPU_COMPARE_NEAR(mean[0], 0.0, 1e-5);
        DPU_COMPARE_NEAR(std[0], 1.0, 1e-5);

        // The test split uses the training split's statistics, not its own.
        const auto raw = dpu::test::readFile(d + "/train-images-idx3-ubyte");
        double sum = 0, sq = 0;
        for (size_t i = 16; i < raw.size(); ++i)
            sum += raw[i] / 255.0;
        const double m = sum / double(raw.size() - 16);
        for (size_t i = 16; i < raw.size(); ++i)
            sq += (raw[i] / 255.0 - m) * (raw[i] / 255.0 - m);
        const double s = std::sqrt(sq / double(raw.size() - 16));
        const auto img = dpu::test::syntheticImage(1000000 + 7, 7, 12, 10);
        for (int k : {0, 50, 143})
            DPU_COMPARE_NEAR(data.test.images[7][0][k / 12][k % 12].item<double>(), (img[k] / 255.0 - m) / s, 1e-5);
    }

    void normalisesCifarPerChannel()
    {
        QTemporaryDir dir;
        dpu::test::writeCifarFolder(dir.path().toStdString(), false, 6, 5);
        DatasetSpec spec{dpu::DataKind::Cifar10, dir.path().toStdString(), 0, 0};
        const auto data = dpu::loadData(spec);
        QVERIFY(data.shape == (dpu::InputShape{3, 32, 32}));
        QCOMPARE(data.classes, 10);
        QCOMPARE(data.description, std::string("CIFAR-10 (cifar10) 30 train / 5 test"));
        const auto [mean, std] = moments(data.train.images);
        for (int c = 0; c < 3; ++c) {
            DPU_COMPARE_NEAR(mean[c], 0.0, 1e-5);
            DPU_COMPARE_NEAR(std[c], 1.0, 1e-5);
        }
    }

    void loadsCifar100()
    {
        QTemporaryDir dir;
        dpu::test::writeCifarFolder(dir.path().toStdString(), true, 30, 10);
        const auto data = dpu::loadData({dpu::DataKind::Cifar100, dir.path().toStdString(), 0, 0});
        QCOMPARE(data.classes, 100);
        QCOMPARE(data.train.size(), int64_t{150});
    }

    void constantChannelStaysFinite()
    {
        const auto pixels = torch::full({4, 1, 3, 3}, 77, torch::kUInt8);
        const auto stats = dpu::data::channelStats(pixels);
        QCOMPARE(stats.std[0], 0.0);
        const auto out = dpu::data::normalise(pixels, stats);
        QVERIFY(torch::isfinite(out).all().item<bool>());
        DPU_COMPARE_NEAR(out.abs().max().item<double>(), 0.0, 1e-6);
    }

    void classesRule_data()
    {
        QTest::addColumn<int>("trainClasses");
        QTest::addColumn<int>("testMaxLabel");
        QTest::addColumn<int>("expected");
        QTest::newRow("few labels still 10") << 4 << 3 << 10;
        QTest::newRow("15 labels") << 15 << 0 << 15;
        QTest::newRow("test split raises the count") << 10 << 11 << 12;
    }
    void classesRule()
    {
        QFETCH(int, trainClasses);
        QFETCH(int, testMaxLabel);
        QFETCH(int, expected);
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 30, 2, false, 16, static_cast<uint32_t>(trainClasses));
        dpu::test::writeFile(d + "/t10k-labels-idx1-ubyte",
                             dpu::test::idxBytes(0x08, {2}, {0, static_cast<uint8_t>(testMaxLabel)}));
        QCOMPARE(dpu::loadData(idxSpec(d)).classes, expected);
    }

    void limitsKeepTheFirstSamples()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 30, 12, true, 8, 10);
        auto spec = idxSpec(d);
        spec.trainLimit = 7;
        spec.testLimit = 3;
        const auto data = dpu::loadData(spec);
        QCOMPARE(data.train.size(), int64_t{7});
        QCOMPARE(data.test.size(), int64_t{3});
        QCOMPARE(data.train.labels[6].item<int64_t>(), int64_t{6});
        QVERIFY(data.train.images.is_contiguous());
        // Normalised over the 7 loaded training samples.
        DPU_COMPARE_NEAR(moments(data.train.images).first[0], 0.0, 1e-5);

        spec.trainLimit = 1000; // more than available: all
        QCOMPARE(dpu::loadData(spec).train.size(), int64_t{30});
    }

    void badSpec()
    {
        auto spec = idxSpec("/nonexistent");
        spec.trainLimit = -1;
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::loadData(spec), "dataset.train_limit", "-1");
        spec.trainLimit = 0;
        spec.testLimit = -5;
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::loadData(spec), "dataset.test_limit");
        spec.testLimit = 0;
        // A kind the engine has no reader for stops at the plan's edge: it never reaches a reader.
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"kind": "svhn"}})"), "dataset.kind", "svhn", "cifar10");
        spec.kind = dpu::DataKind::Idx;
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::loadData(spec), "/nonexistent", "does not exist");
    }

    void selectGathersRows()
    {
        dpu::TensorDataset ds{torch::arange(5 * 2 * 2, torch::kFloat32).reshape({5, 1, 2, 2}),
                              torch::arange(5, torch::kInt64)};
        const auto sub = ds.select(torch::tensor({4, 0, 2}, torch::kInt64));
        QCOMPARE(sub.size(), int64_t{3});
        QCOMPARE(sub.labels[0].item<int64_t>(), int64_t{4});
        QCOMPARE(sub.images[0][0][1][1].item<float>(), 19.0f);
        QCOMPARE(sub.images[2][0][0][0].item<float>(), 8.0f);
        QVERIFY(sub.images.is_contiguous() && sub.labels.is_contiguous());
        QCOMPARE(ds.select(torch::empty({0}, torch::kInt64)).size(), int64_t{0});
        QCOMPARE(dpu::TensorDataset{}.select(torch::tensor({0}, torch::kInt64)).size(), int64_t{0});
    }

    void realFashionMnist()
    {
        const auto dir = dpu::test::fashionMnistDir();
        if (dir.empty())
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        const auto data = dpu::loadData(idxSpec(dir));
        QCOMPARE(data.train.size(), int64_t{60000});
        QCOMPARE(data.test.size(), int64_t{10000});
        QVERIFY(data.shape == (dpu::InputShape{1, 28, 28}));
        QCOMPARE(data.classes, 10);
        QCOMPARE(data.description, std::string("Fashion-MNIST (idx) 60000 train / 10000 test"));
        QCOMPARE(data.train.labels.bincount().min().item<int64_t>(), int64_t{6000});
        const auto [mean, std] = moments(data.train.images);
        DPU_COMPARE_NEAR(mean[0], 0.0, 1e-4);
        DPU_COMPARE_NEAR(std[0], 1.0, 1e-4);
        // The widely quoted statistics of the Fashion-MNIST training images: 0.2860 and 0.3530.
        const auto raw = dpu::data::readIdxImages(dir + "/train-images-idx3-ubyte.gz");
        const auto stats = dpu::data::channelStats(raw);
        DPU_COMPARE_NEAR(stats.mean[0], 0.2860, 5e-4);
        DPU_COMPARE_NEAR(stats.std[0], 0.3530, 5e-4);
        DPU_COMPARE_NEAR(data.train.images[0][0][14][14].item<double>(),
                         (raw[0][0][14][14].item<int>() / 255.0 - stats.mean[0]) / stats.std[0], 1e-5);
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
