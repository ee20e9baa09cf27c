// SPDX-License-Identifier: MIT
// DeviceUpdate on every zoo model's real tensors: each kind and value coding round-trips through the device decoder.
#include "TestSupport.h"
#include "dpu/Error.h"
#include "experiment/DeviceUpdate.h"
#include "models/Network.h"
#include <QtTest/QtTest>
#include <cstring>

using dpu::DeviceUpdate;
using dpu::Weights;
namespace bundle = dpu::bundle;

namespace {

bool sameBits(const torch::Tensor& a, const torch::Tensor& b)
{
    return a.sizes() == b.sizes() && std::memcmp(a.data_ptr<float>(), b.data_ptr<float>(), 4 * size_t(a.numel())) == 0;
}

/// `from` with a seeded share `k` of every partial tensor moved, and every 1-D parameter and
/// float buffer nudged (biases and BatchNorm statistics change densely in a real round).
Weights roundOf(const Weights& from, double k, uint64_t seed)
{
    torch::manual_seed(seed);
    Weights w = dpu::cloneWeights(from);
    for (auto& p : w.params) {
        if (p.dim() > 1)
            p.add_(torch::randn_like(p).mul_(0.02).mul_(torch::rand_like(p).lt(k)));
        else
            p.add_(torch::randn_like(p).mul_(0.01));
    }
    for (auto& b : w.buffers)
        if (b.is_floating_point())
            b.add_(torch::rand_like(b).mul_(0.1));
    return w;
}

int64_t changedPartial(const Weights& a, const Weights& b)
{
    int64_t n = 0;
    for (size_t i = 0; i < a.params.size(); ++i)
        if (a.params[i].dim() > 1)
            n += a.params[i].ne(b.params[i]).sum().item<int64_t>();
    return n;
}

} // namespace

class TestDeviceUpdate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyModelEveryKindRoundTrips_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("coding");
        for (const char* m : {"mlp", "vgg", "resnet20", "resnet56", "mobilenetv1"})
            QTest::newRow(m) << m << int(bundle::ValueCoding::Fp32);
        QTest::newRow("resnet20 fp16") << "resnet20" << int(bundle::ValueCoding::Fp16);
        QTest::newRow("mobilenetv1 q8") << "mobilenetv1" << int(bundle::ValueCoding::Q8);
        QTest::newRow("resnet20 q8c") << "resnet20" << int(bundle::ValueCoding::Q8c);
        QTest::newRow("mlp q4") << "mlp" << int(bundle::ValueCoding::Q4);
        QTest::newRow("mlp ternary") << "mlp" << int(bundle::ValueCoding::Ternary);
    }
    void everyModelEveryKindRoundTrips()
    {
        QFETCH(QString, model);
        QFETCH(int, coding);
        const bool cifar = model != "mlp";
        const dpu::InputShape shape = cifar ? dpu::InputShape{3, 32, 32} : dpu::InputShape{1, 28, 28};
        auto net = dpu::createNetwork({model.toStdString(), shape, 10, 1.0});
        dpu::initialiseNetwork(*net, 11);
        const Weights w0 = dpu::snapshot(*net);
        const auto valueCoding = bundle::ValueCoding(coding);
        DeviceUpdate du(*net, {model.toStdString(), DeviceUpdate::compatString(model.toStdString(), shape, 10),
                               valueCoding, {}});
        const torch::Device cpu(torch::kCPU);
        const bool exact = valueCoding == bundle::ValueCoding::Fp32;

        // Round 1 from the seeded model (reinit+delta), round 2 a delta, round 3 full.
        Weights device = w0;
        for (int version = 1; version <= 3; ++version) {
            const auto kind = version == 1 ? bundle::Kind::ReinitDelta : version == 2 ? bundle::Kind::Delta : bundle::Kind::Full;
            const Weights target = roundOf(device, 0.01, uint64_t(version));
            const auto r = du.build(kind, device, target, 11, uint64_t(version), cpu);
            QCOMPARE(r.file, du.deviceFile(r.weights, uint64_t(version))); // the deployed state is the file
            QVERIFY(r.bundle.size() > 0);
            QCOMPARE(r.weights.params.size(), target.params.size());
            for (size_t i = 0; i < target.params.size(); ++i) {
                const auto& got = r.weights.params[i];
                if (exact || kind == bundle::Kind::Full || target.params[i].dim() < 2) {
                    QVERIFY2(sameBits(got, target.params[i]), net->parameters()[i].name.c_str());
                    continue;
                }
                // Lossy values: unchanged weights stay bit-identical, changed ones land near the target.
                const auto moved = device.params[i].ne(target.params[i]);
                QVERIFY(got.masked_select(moved.logical_not()).equal(device.params[i].masked_select(moved.logical_not())));
                const double err = (got - target.params[i]).abs().max().item<double>();
                // ternary moves each change by the tensor's mean step only: its sign is its promise
                if (valueCoding == bundle::ValueCoding::Ternary) {
                    const auto dir = (got - device.params[i]).sign() * (target.params[i] - device.params[i]).sign();
                    QVERIFY(dir.masked_select(moved).ge(0).all().item<bool>());
                    continue;
                }
                QVERIFY2(err < (valueCoding == bundle::ValueCoding::Q4 ? 0.2 : 0.02), qPrintable(QStringLiteral("%1: error %2").arg(net->parameters()[i].name.c_str()).arg(err)));
            }
            for (size_t i = 0; i < target.buffers.size(); ++i)
                if (target.buffers[i].scalar_type() == torch::kFloat)
                    QVERIFY(sameBits(r.weights.buffers[i], target.buffers[i]));
            if (kind != bundle::Kind::Full) { // positions: exactly the moved weights
                // (q8c leaves out changes below half its step: the device keeps those values)
                if (valueCoding == bundle::ValueCoding::Q8c)
                    QVERIFY(int64_t(r.stats.changed) <= changedPartial(device, target));
                else
                    QCOMPARE(int64_t(r.stats.changed), changedPartial(device, target));
                // Far below a full model: positions near H(k) bits plus the values.
                QVERIFY(r.bundle.size() < du.deviceFile(target, 0).size() / 8);
            }
            device = r.weights;
        }
    }

    /// Every weight of fc1 moves: the bundle still round-trips, and the writer's choice between
    /// positions and a dense section keeps it no larger than fc1 shipped dense.
    void aWhollyChangedTensorCostsAtMostItsDenseSize()
    {
        auto net = dpu::createNetwork({"mlp", {1, 28, 28}, 10, 1.0});
        dpu::initialiseNetwork(*net, 3);
        const Weights w0 = dpu::snapshot(*net);
        DeviceUpdate du(*net, {"mlp", "c", bundle::ValueCoding::Fp32, {}});
        Weights target = dpu::cloneWeights(w0);
        target.params[0].add_(0.5);
        const auto r = du.build(bundle::Kind::Delta, w0, target, 3, 1, torch::Device(torch::kCPU));
        QVERIFY(sameBits(r.weights.params[0], target.params[0]));
        for (size_t i = 1; i < target.params.size(); ++i)
            QVERIFY(sameBits(r.weights.params[i], w0.params[i]));
        QVERIFY2(r.bundle.size() <= size_t(4 * target.params[0].numel()) + 2048, qPrintable(QString::number(r.bundle.size())));
    }

    void aSnapshotOfAnotherModelIsRefused()
    {
        auto mlp = dpu::createNetwork({"mlp", {1, 28, 28}, 10, 1.0});
        auto resnet = dpu::createNetwork({"resnet20", {3, 32, 32}, 10, 1.0});
        DeviceUpdate du(*mlp, {"mlp", "c", bundle::ValueCoding::Fp32, {}});
        const Weights other = dpu::snapshot(*resnet);
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, du.deviceFile(other, 0), "parameters, expected");
    }

    /// write() is build() without the device: the same bytes, and decoded() gives the weights
    /// build() takes from the device's file (what a round's budget and quantisation-aware
    /// fine-tune rely on); build() can apply a write() as it is.
    void writeIsBuildWithoutTheDevice()
    {
        const dpu::InputShape shape{1, 28, 28};
        auto net = dpu::createNetwork({"mlp", shape, 10, 1.0});
        dpu::initialiseNetwork(*net, 5);
        const Weights w0 = dpu::snapshot(*net);
        const Weights w1 = roundOf(w0, 0.01, 2);
        DeviceUpdate du(*net, {"mlp", DeviceUpdate::compatString("mlp", shape, 10), bundle::ValueCoding::Q8, {}});
        const torch::Device cpu(torch::kCPU);
        for (auto kind : {bundle::Kind::ReinitDelta, bundle::Kind::Delta}) {
            const auto built = du.build(kind, w0, w1, 5, 1, cpu);
            const auto written = du.write(kind, w0, w1, 5, 1);
            QVERIFY(written.bytes == built.bundle);
            const Weights decoded = du.decoded(written, w1, cpu);
            for (size_t i = 0; i < decoded.params.size(); ++i)
                QVERIFY(sameBits(decoded.params[i].contiguous(), built.weights.params[i].contiguous()));
            // build() given write()'s result applies it as it is: the same bundle, file and weights.
            const auto reused = du.build(kind, w0, w1, 5, 1, cpu, &written);
            QVERIFY(reused.bundle == built.bundle);
            QVERIFY(reused.file == built.file);
            for (size_t i = 0; i < reused.weights.params.size(); ++i)
                QVERIFY(sameBits(reused.weights.params[i].contiguous(), built.weights.params[i].contiguous()));
        }
        // A written delta from another base is refused by the device's decoder, never shipped.
        const auto fromW0 = du.write(bundle::Kind::Delta, w0, w1, 5, 1);
        DPU_EXPECT_THROW_MESSAGE(dpu::InternalError, du.build(bundle::Kind::Delta, w1, w1, 5, 1, cpu, &fromW0),
                                 "rejected");
    }

    /// With codeDenseTensors a bias travels as a sparse section under the bundle's coding: exact
    /// under fp32; under q8 a bias changed everywhere is quantised (lossy, and smaller) where
    /// exact mode ships it exactly.
    void denseTensorsCanBeCoded()
    {
        const dpu::InputShape shape{1, 28, 28};
        auto net = dpu::createNetwork({"mlp", shape, 10, 1.0});
        dpu::initialiseNetwork(*net, 5);
        const Weights w0 = dpu::snapshot(*net);
        Weights w1 = dpu::cloneWeights(w0);
        size_t bias = 0;
        for (size_t i = 0; i < w1.params.size(); ++i)
            if (w1.params[i].dim() == 1 && w1.params[i].numel() > 300) {
                bias = i;
                break;
            }
        QVERIFY(bias > 0);
        w1.params[bias].narrow(0, 0, 3).add_(0.25); // three of its values move
        w1.params[0].view({-1}).narrow(0, 0, 10).add_(0.5);
        const torch::Device cpu(torch::kCPU);
        const std::string compat = DeviceUpdate::compatString("mlp", shape, 10);
        DeviceUpdate exact(*net, {"mlp", compat, bundle::ValueCoding::Fp32, {}});
        DeviceUpdate::Config codedConfig{"mlp", compat, bundle::ValueCoding::Fp32, {}};
        codedConfig.codeDenseTensors = true;
        DeviceUpdate coded(*net, codedConfig);
        const auto a = exact.build(bundle::Kind::Delta, w0, w1, 5, 1, cpu);
        const auto b = coded.build(bundle::Kind::Delta, w0, w1, 5, 1, cpu);
        for (size_t i = 0; i < w1.params.size(); ++i) {
            QVERIFY(sameBits(a.weights.params[i].contiguous(), w1.params[i].contiguous()));
            QVERIFY(sameBits(b.weights.params[i].contiguous(), w1.params[i].contiguous()));
        }

        Weights w2 = dpu::cloneWeights(w0);
        torch::manual_seed(4);
        w2.params[bias].add_(torch::randn_like(w2.params[bias]).mul_(0.05));
        DeviceUpdate::Config q8Config{"mlp", compat, bundle::ValueCoding::Q8, {}};
        DeviceUpdate q8Exact(*net, q8Config);
        q8Config.codeDenseTensors = true;
        DeviceUpdate q8Coded(*net, q8Config);
        const auto c = q8Exact.build(bundle::Kind::Delta, w0, w2, 5, 1, cpu);
        const auto d = q8Coded.build(bundle::Kind::Delta, w0, w2, 5, 1, cpu);
        QVERIFY(sameBits(c.weights.params[bias].contiguous(), w2.params[bias].contiguous()));
        QVERIFY(!sameBits(d.weights.params[bias].contiguous(), w2.params[bias].contiguous()));
        QVERIFY2(d.bundle.size() < c.bundle.size(), qPrintable(QString("%1 vs %2").arg(d.bundle.size()).arg(c.bundle.size())));
        const double err = (d.weights.params[bias] - w2.params[bias]).abs().max().item<double>();
        QVERIFY2(err < 0.01, qPrintable(QString::number(err))); // 8-bit: close, not exact
    }
};

QTEST_GUILESS_MAIN(TestDeviceUpdate)
#include "test_device_update.moc"
