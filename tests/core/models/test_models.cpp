// SPDX-License-Identifier: MIT
// Tests of the model zoo: names, paper sizes, parameter order, forward shapes, bad options.
#include "ModelTestUtil.h"
#include "dpu/Error.h"
#include "dpu/Models.h"

using namespace dpu;
using namespace dpu::modeltest;

class TestModels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void builtinList();
    void unknownModelAndBadOptions();
    void paperSizes_data();
    void paperSizes();
    void resnet20Size();
    void describeMatchesNetwork();
    void parameterNames();
    void forwardShapes_data();
    void forwardShapes();
    void trainModeBackward();
    void widthMultiplier();
    void wrongInputShape();
};

void TestModels::builtinList()
{
    const std::vector<std::string> expected{"mlp", "vgg", "resnet20", "resnet56", "mobilenetv1"};
    QCOMPARE(builtinModels(), expected);
    for (const auto& name : expected)
        QVERIFY(!modelDescription(name).empty());
    QVERIFY(modelDescription("torchscript:/x/y.pt").find("/x/y.pt") != std::string::npos);
}

void TestModels::unknownModelAndBadOptions()
{
    QVERIFY_THROWS_EXCEPTION(Error, make("alexnet"));
    QVERIFY_THROWS_EXCEPTION(Error, modelDescription("alexnet"));
    QVERIFY_THROWS_EXCEPTION(Error, describeModel("alexnet", {}, 10));
    QVERIFY_THROWS_EXCEPTION(Error, make("mlp", {}, 10, 0.5));        // width is MobileNet's
    QVERIFY_THROWS_EXCEPTION(Error, make("mobilenetv1", {}, 10, 0.0));
    QVERIFY_THROWS_EXCEPTION(Error, make("vgg", {1, 4, 4}, 10));       // three max-pools
    QVERIFY_THROWS_EXCEPTION(Error, make("mlp", {1, 28, 28}, 0));
    QVERIFY_THROWS_EXCEPTION(Error, make("torchscript:"));
    QVERIFY_THROWS_EXCEPTION(Error, make(fixture(), {}, 10, 0.5));
    try {
        make("alexnet", {}, 10, 0.5);
        QFAIL("no error for an unknown model");
    } catch (const Error& e) { // the name check comes first and lists what exists
        QVERIFY2(std::string(e.what()).find("mobilenetv1, torchscript:PATH") != std::string::npos, e.what());
    }
}

void TestModels::paperSizes_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("classes");
    QTest::addColumn<double>("paperMB");
    QTest::addColumn<qlonglong>("allParameters");
    QTest::addColumn<qlonglong>("partialWeights");
    QTest::newRow("mlp") << "mlp" << 1 << 28 << 10 << 2.67 << 669706LL << 668672LL;
    QTest::newRow("vgg") << "vgg" << 3 << 32 << 10 << 56.09 << 14029706LL << 14022016LL;
    QTest::newRow("resnet56") << "resnet56" << 3 << 32 << 100 << 3.44 << 858868LL << 854704LL;
    QTest::newRow("mobilenetv1") << "mobilenetv1" << 3 << 224 << 1000 << 16.93 << 4231976LL << 4209088LL;
}

void TestModels::paperSizes()
{
    QFETCH(QString, model);
    QFETCH(int, channels);
    QFETCH(int, size);
    QFETCH(int, classes);
    QFETCH(double, paperMB);
    QFETCH(qlonglong, allParameters);
    QFETCH(qlonglong, partialWeights);
    const ModelInfo info = describeModel(model.toStdString(), {channels, size, size}, classes);
    int64_t total = 0;
    for (const auto& t : info.parameters)
        total += t.numel;
    QCOMPARE(qlonglong(total), allParameters);
    QCOMPARE(qlonglong(info.partialWeights), partialWeights);
    // The paper's "all weights need X MB": every parameter as fp32, 1 MB = 1e6 bytes.
    const double allMB = 4.0 * double(total) / 1e6;
    QVERIFY2(std::abs(allMB - paperMB) <= 0.01 * paperMB,
             qPrintable(QStringLiteral("%1 MB vs paper %2 MB").arg(allMB).arg(paperMB)));
    const double partialMB = 4.0 * double(info.partialWeights) / 1e6;
    QVERIFY(std::abs(partialMB - paperMB) <= 0.01 * paperMB);
}

void TestModels::resnet20Size()
{
    const ModelInfo info = describeModel("resnet20", {3, 32, 32}, 10);
    int64_t total = 0;
    for (const auto& t : info.parameters)
        total += t.numel;
    QCOMPARE(qlonglong(total), 269722LL); // He et al.: 0.27 M
}

void TestModels::describeMatchesNetwork()
{
    const InputShape shape{3, 32, 32};
    const ModelInfo info = describeModel("vgg", shape, 10);
    auto net = make("vgg", shape, 10);
    const auto params = net->parameters();
    QCOMPARE(info.parameters.size(), params.size());
    int64_t dense = 0;
    for (size_t i = 0; i < params.size(); ++i) {
        QCOMPARE(info.parameters[i].name, params[i].name);
        QCOMPARE(info.parameters[i].shape, params[i].tensor.sizes().vec());
        QCOMPARE(info.parameters[i].partial, params[i].tensor.dim() > 1);
        if (params[i].tensor.dim() <= 1)
            dense += params[i].tensor.numel();
    }
    // BatchNorm running mean and variance: 2 x (2x128 + 2x256 + 2x512 + 2x1024) values.
    QCOMPARE(qlonglong(info.denseWeights), qlonglong(dense + 2 * 3840));
    QCOMPARE(qlonglong(info.fp32Bytes()), qlonglong(4 * (info.partialWeights + info.denseWeights)));
    QCOMPARE(info.name, std::string("vgg"));
    QVERIFY(info.input == shape);
}

void TestModels::parameterNames()
{
    auto mlp = make("mlp");
    QCOMPARE(names(mlp->parameters()), (std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight",
                                                                 "fc2.bias", "fc3.weight", "fc3.bias"}));
    QVERIFY(mlp->buffers().empty());

    auto vgg = make("vgg", {3, 32, 32});
    const auto vp = names(vgg->parameters());
    QCOMPARE(vp.size(), size_t(6 * 3 + 2 * 3 + 2));
    QCOMPARE(vp[0], std::string("features.0.weight"));
    QCOMPARE(vp[1], std::string("features.1.weight"));
    QCOMPARE(vp[2], std::string("features.1.bias"));
    QCOMPARE(vp[3], std::string("features.3.weight"));
    QCOMPARE(vp[vp.size() - 2], std::string("classifier.6.weight"));
    QCOMPARE(vp.back(), std::string("classifier.6.bias"));
    const auto vb = names(vgg->buffers());
    QCOMPARE(vb.size(), size_t(3 * 8));
    QCOMPARE(vb[0], std::string("features.1.running_mean"));
    QCOMPARE(vb[1], std::string("features.1.running_var"));
    QCOMPARE(vb[2], std::string("features.1.num_batches_tracked"));

    auto resnet = make("resnet20", {3, 32, 32});
    const auto rp = names(resnet->parameters());
    QCOMPARE(rp[0], std::string("conv1.weight"));
    QCOMPARE(rp[3], std::string("layer1.0.conv1.weight"));
    QCOMPARE(rp[4], std::string("layer1.0.bn1.weight"));
    QCOMPARE(rp.back(), std::string("fc.bias"));
    auto mobile = make("mobilenetv1", {3, 32, 32});
    const auto mp = names(mobile->parameters());
    QCOMPARE(mp[0], std::string("features.0.weight"));
    QCOMPARE(mp[3], std::string("features.3.weight")); // first depthwise convolution
    QCOMPARE(mobile->parameters()[3].tensor.sizes().vec(), (std::vector<int64_t>{32, 1, 3, 3}));
    QCOMPARE(mp.back(), std::string("fc.bias"));
}

void TestModels::forwardShapes_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("classes");
    QTest::addColumn<int>("batch");
    QTest::newRow("mlp paper") << "mlp" << 1 << 28 << 10 << 3;
    QTest::newRow("vgg paper") << "vgg" << 3 << 32 << 10 << 2;
    QTest::newRow("resnet20 cifar") << "resnet20" << 3 << 32 << 10 << 2;
    QTest::newRow("resnet56 paper") << "resnet56" << 3 << 32 << 100 << 2;
    QTest::newRow("mobilenetv1 paper") << "mobilenetv1" << 3 << 224 << 1000 << 1;
    QTest::newRow("mobilenetv1 32") << "mobilenetv1" << 3 << 32 << 10 << 2;
    for (const char* m : {"mlp", "vgg", "resnet20", "resnet56", "mobilenetv1"})
        QTest::newRow(qPrintable(QStringLiteral("%1 28x28x1").arg(m))) << m << 1 << 28 << 10 << 2;
}

void TestModels::forwardShapes()
{
    QFETCH(QString, model);
    QFETCH(int, channels);
    QFETCH(int, size);
    QFETCH(int, classes);
    QFETCH(int, batch);
    auto net = make(model.toStdString(), {channels, size, size}, classes);
    net->setTraining(false);
    torch::NoGradGuard noGrad;
    const auto logits = net->forward(torch::randn({batch, channels, size, size}));
    QCOMPARE(logits.sizes().vec(), (std::vector<int64_t>{batch, classes}));
    QVERIFY(torch::isfinite(logits).all().item<bool>());
}

void TestModels::trainModeBackward()
{
    for (const char* m : {"mlp", "vgg", "resnet20", "mobilenetv1"}) {
        auto net = make(m, {1, 28, 28});
        net->setTraining(true);
        const auto loss = net->forward(torch::randn({4, 1, 28, 28})).logsumexp(1).mean();
        loss.backward();
        for (const auto& p : net->parameters())
            QVERIFY2(p.tensor.grad().defined(), (std::string(m) + " " + p.name).c_str());
    }
}

void TestModels::widthMultiplier()
{
    const auto full = describeModel("mobilenetv1", {3, 224, 224}, 1000, 1.0);
    const auto half = describeModel("mobilenetv1", {3, 224, 224}, 1000, 0.5);
    QVERIFY(half.partialWeights < full.partialWeights / 3);
    QCOMPARE(half.parameters[0].shape, (std::vector<int64_t>{16, 3, 3, 3}));
    QCOMPARE(half.parameters.back().shape, (std::vector<int64_t>{1000}));
    auto net = make("mobilenetv1", {3, 32, 32}, 10, 0.25);
    net->setTraining(false);
    torch::NoGradGuard noGrad;
    QCOMPARE(net->forward(torch::randn({1, 3, 32, 32})).sizes().vec(), (std::vector<int64_t>{1, 10}));
}

void TestModels::wrongInputShape()
{
    auto net = make("resnet20", {3, 32, 32});
    try {
        net->forward(torch::randn({2, 1, 28, 28}));
        QFAIL("no error for a wrong input shape");
    } catch (const Error& e) {
        QVERIFY2(std::string(e.what()).find("3, 32, 32") != std::string::npos, e.what());
    }
}

QTEST_APPLESS_MAIN(TestModels)
#include "test_models.moc"
