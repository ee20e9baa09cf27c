// SPDX-License-Identifier: MIT
// Tests of the portable seeded initialiser: determinism, bounds, C agreement, worked example.
#include "ModelTestUtil.h"
#include "dpu/Error.h"

using namespace dpu;
using namespace dpu::modeltest;

namespace {

/// A network with a float64 parameter, which the portable initialiser must refuse.
class DoubleNetwork : public Network {
public:
    torch::Tensor forward(const torch::Tensor& images) override { return images; }
    void setTraining(bool) override {}
    std::vector<NamedTensor> parameters() override
    {
        return {{"fc.weight", torch::zeros({2, 2}, torch::kFloat32)},
                {"odd.weight", torch::zeros({3, 2}, torch::kFloat64)}};
    }
    std::vector<NamedTensor> buffers() override { return {}; }
    void to(const torch::Device&) override {}
};

} // namespace

class TestInitializer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initDeterminism();
    void initBounds();
    void initMatchesC();
    void workedExample();
    void batchNormConstants();
    void nonFloat32Rejected();
};

void TestInitializer::initDeterminism()
{
    auto a = make("resnet20", {3, 32, 32});
    auto b = make("resnet20", {3, 32, 32});
    auto c = make("resnet20", {3, 32, 32});
    initialiseNetwork(*a, 7);
    initialiseNetwork(*b, 7);
    initialiseNetwork(*c, 8);
    const auto pa = a->parameters(), pb = b->parameters(), pc = c->parameters();
    for (size_t i = 0; i < pa.size(); ++i) {
        QVERIFY2(sameBytes(pa[i].tensor, pb[i].tensor), pa[i].name.c_str());
        if (pa[i].tensor.dim() > 1 || pa[i].name == "fc.bias")
            QVERIFY2(!torch::equal(pa[i].tensor, pc[i].tensor), pa[i].name.c_str());
    }
    // Same shape and bound, different tensor index: unrelated values.
    const auto named = byName(pa);
    QVERIFY(!torch::equal(named.at("layer1.0.conv1.weight"), named.at("layer1.0.conv2.weight")));
    QVERIFY(!torch::equal(named.at("layer1.0.conv1.weight"), named.at("layer1.1.conv1.weight")));
    // createNetwork is initialiseNetwork(seed 0), whatever the state before.
    auto fresh = make("resnet20", {3, 32, 32});
    initialiseNetwork(*a, 0);
    const auto pf = fresh->parameters(), p0 = a->parameters();
    for (size_t i = 0; i < pf.size(); ++i)
        QVERIFY2(sameBytes(pf[i].tensor, p0[i].tensor), pf[i].name.c_str());
}

void TestInitializer::initBounds()
{
    auto net = make("mlp");
    initialiseNetwork(*net, 5);
    const auto p = byName(net->parameters());
    const float bound = dpu_init_bound(784);
    for (const char* name : {"fc1.weight", "fc1.bias"}) {
        const auto t = p.at(name);
        QVERIFY(t.abs().max().item<float>() < bound);
    }
    const auto w = p.at("fc1.weight");
    // Uniform on (-b, b): mean 0, standard deviation b / sqrt(3), extremes close to +-b.
    DPU_COMPARE_NEAR(w.mean().item<double>() / bound, 0.0, 0.005);
    DPU_COMPARE_NEAR(w.std().item<double>() / (bound / std::sqrt(3.0)), 1.0, 0.01);
    QVERIFY(w.max().item<float>() > 0.999f * bound);
    QVERIFY(w.min().item<float>() < -0.999f * bound);
    QVERIFY(p.at("fc3.weight").abs().max().item<float>() < dpu_init_bound(512));
    QVERIFY(p.at("fc3.bias").abs().max().item<float>() < dpu_init_bound(512));
    QVERIFY(p.at("fc3.bias").abs().min().item<float>() > 0.f); // odd numerators: never exactly 0
}

void TestInitializer::initMatchesC()
{
    for (const char* m : {"mlp", "vgg", "resnet20", "mobilenetv1"}) {
        auto net = make(m, {3, 32, 32});
        const uint64_t seed = 0x0123456789ABCDEFULL;
        initialiseNetwork(*net, seed);
        const auto params = net->parameters();
        for (size_t t = 0; t < params.size(); ++t)
            QVERIFY2(sameBytes(params[t].tensor, expectedFromC(params, t, seed)),
                     (std::string(m) + " " + params[t].name).c_str());
    }
    // Streaming in pieces gives the same values as one call.
    const uint64_t key = dpu_init_key(3, 4);
    std::vector<float> whole(1000), parts(1000);
    dpu_init_uniform(whole.data(), whole.size(), key, 0, 0.5f);
    dpu_init_uniform(parts.data(), 300, key, 0, 0.5f);
    dpu_init_uniform(parts.data() + 300, 700, key, 300, 0.5f);
    QVERIFY(std::memcmp(whole.data(), parts.data(), whole.size() * sizeof(float)) == 0);
}

void TestInitializer::workedExample()
{
    // docs/initializer.md, "Worked example": mlp on 1x28x28, seed 1, fc1.weight (tensor 0).
    QCOMPARE(dpu_init_key(1, 0), 0x5c52bd4054e958c9ULL);
    const float bound = dpu_init_bound(784);
    QCOMPARE(bound, 0x1.24924ap-5f);
    auto net = make("mlp");
    initialiseNetwork(*net, 1);
    const auto w = net->parameters()[0].tensor.flatten();
    const float expected[4] = {-0x1.af54d6p-6f, 0x1.be543ap-6f, 0x1.24a14ep-7f, -0x1.1eedc2p-5f};
    QVERIFY(std::memcmp(w.data_ptr<float>(), expected, sizeof expected) == 0);
    // fc1.bias: tensor 1, the same bound.
    const float bias[4] = {0x1.0291e6p-5f, 0x1.b0d766p-8f, 0x1.d8f078p-8f, -0x1.34fea6p-9f};
    QVERIFY(std::memcmp(net->parameters()[1].tensor.data_ptr<float>(), bias, sizeof bias) == 0);
}

void TestInitializer::batchNormConstants()
{
    auto net = make("vgg", {1, 28, 28});
    // Disturb every BatchNorm tensor: a training step moves the running statistics.
    net->setTraining(true);
    {
        torch::NoGradGuard noGrad;
        for (auto& p : net->parameters())
            if (p.tensor.dim() == 1)
                p.tensor.add_(0.25);
        net->forward(torch::randn({4, 1, 28, 28}) * 3 + 1);
    }
    const auto before = byName(net->buffers());
    QCOMPARE(before.at("features.1.num_batches_tracked").item<int64_t>(), int64_t(1));
    initialiseNetwork(*net, 11);
    for (const auto& p : net->parameters()) {
        if (p.name.rfind("features.", 0) == 0 && p.tensor.dim() == 1) {
            const float v = p.name.find("weight") != std::string::npos ? 1.f : 0.f;
            QVERIFY2(torch::equal(p.tensor, torch::full_like(p.tensor, v)), p.name.c_str());
        }
    }
    const auto p = byName(net->parameters());
    QVERIFY(torch::equal(p.at("classifier.1.weight"), torch::ones({1024})));
    QVERIFY(torch::equal(p.at("classifier.1.bias"), torch::zeros({1024})));
    QVERIFY(p.at("classifier.6.bias").abs().max().item<float>() > 0.f); // linear bias: uniform
    for (const auto& b : net->buffers()) {
        const double v = b.name.find("running_var") != std::string::npos ? 1.0 : 0.0;
        QVERIFY2(torch::equal(b.tensor, torch::full_like(b.tensor, v)), b.name.c_str());
    }
}

void TestInitializer::nonFloat32Rejected()
{
    DoubleNetwork net;
    try {
        initialiseNetwork(net, 1);
        QFAIL("no error for a float64 parameter");
    } catch (const Error& e) {
        QVERIFY2(std::string(e.what()).find("odd.weight") != std::string::npos, e.what());
    }
}

QTEST_APPLESS_MAIN(TestInitializer)
#include "test_initializer.moc"
