// SPDX-License-Identifier: MIT
// Preprocessing of the plan: normalisation given, none or of the first round; seeded crop-with-padding and flip.
#include "TestSupport.h"
#include "data/Augment.h"
#include "data/Dataset.h"
#include "dpu/Error.h"

using dpu::DatasetSpec;

namespace {

DatasetSpec npySpec()
{
    DatasetSpec s;
    s.kind = dpu::DataKind::Npy;
    s.path = dpu::test::dataDir() + "/owndata/npy";
    return s;
}

torch::Tensor batch(int64_t b, int64_t c, int64_t h, int64_t w)
{
    return torch::arange(b * c * h * w, torch::kFloat32).reshape({b, c, h, w}).add_(1);
}

/// True when `out` is `in` shifted by (dy, dx) within a zero border of `pad` (and mirrored when `flip`).
bool isCropOf(const torch::Tensor& out, const torch::Tensor& in, int64_t padH, int64_t padW, bool flip)
{
    const auto padded = torch::constant_pad_nd(in, {padW, padW, padH, padH}, 0);
    for (int64_t dy = 0; dy <= 2 * padH; ++dy)
        for (int64_t dx = 0; dx <= 2 * padW; ++dx) {
            auto window = padded.narrow(1, dy, in.size(1)).narrow(2, dx, in.size(2));
            if (flip)
                window = window.flip({2});
            if (torch::equal(window, out))
                return true;
        }
    return false;
}

} // namespace

class TestPreprocess : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void givenAndNoNormalisation()
    {
        auto s = npySpec();
        s.normalise = dpu::Normalise::Given;
        s.mean = {0.25};
        s.std = {0.5};
        const auto raw = dpu::readRawData(s).raw;
        const auto given = dpu::loadData(s);
        QVERIFY(torch::allclose(given.train.images, (raw.train.pixels.to(torch::kFloat32) / 255 - 0.25) / 0.5, 1e-6, 1e-6));
        QCOMPARE(given.normalisation.mean, std::vector<double>{0.25});
        s.normalise = dpu::Normalise::None;
        QVERIFY(torch::allclose(dpu::loadData(s).test.images, raw.test.pixels.to(torch::kFloat32) / 255, 1e-7, 1e-7));
        // Float data is normalised as stored: given values are in its units.
        s.x = "x_f32";
        s.xTest = "x_test_f32";
        s.normalise = dpu::Normalise::Given;
        s.mean = {10};
        s.std = {4};
        QVERIFY(torch::allclose(dpu::loadData(s).train.images, (raw.train.pixels.to(torch::kFloat32) - 10) / 4, 1e-6, 1e-6));
        s.mean = {0.1, 0.2, 0.3};
        s.std = {1, 1, 1};
        DPU_EXPECT_THROW_MESSAGE(dpu::PlanError, dpu::loadData(s), "dataset.normalise", "expected 1 mean and std values");
    }

    void firstRoundStatistics()
    {
        auto s = npySpec();
        s.normalise = dpu::Normalise::FirstRound;
        const auto data = dpu::loadData(s); // left at p / 255: each seed normalises with its own D1
        const auto raw = dpu::readRawData(s).raw;
        QVERIFY(torch::allclose(data.train.images, raw.train.pixels.to(torch::kFloat32) / 255, 1e-7, 1e-7));
        dpu::SplitSpec split;
        split.initial = 12;
        const auto stats = dpu::firstRoundStats(data, split, 7);
        const auto first = dpu::arrivalOrder(40, 7).narrow(0, 0, 12);
        const auto d1 = raw.train.pixels.index_select(0, first).to(torch::kFloat64) / 255;
        DPU_COMPARE_NEAR(stats.mean[0], d1.mean().item<double>(), 1e-6);
        DPU_COMPARE_NEAR(stats.std[0], d1.std(/*unbiased=*/false).item<double>(), 1e-6);
        QVERIFY(dpu::firstRoundStats(data, split, 8).mean[0] != stats.mean[0]); // another seed, another D1
        const auto normalised = dpu::normalisedWith(data.train.select(first), stats);
        DPU_COMPARE_NEAR(normalised.images.mean().item<double>(), 0.0, 1e-5);
        DPU_COMPARE_NEAR(normalised.images.to(torch::kFloat64).std(false).item<double>(), 1.0, 1e-5);
    }

    void cropAndFlipAreSeededAndValid()
    {
        const auto x = batch(64, 3, 8, 8);
        dpu::AugmentSpec spec;
        spec.cropPadding = 2;
        spec.flip = true;
        const auto a = dpu::data::augmentBatch(x, spec, 42);
        QVERIFY(torch::equal(a, dpu::data::augmentBatch(x, spec, 42)));
        QVERIFY(!torch::equal(a, dpu::data::augmentBatch(x, spec, 43)));
        QCOMPARE(a.sizes(), x.sizes());
        int flipped = 0, shifted = 0;
        for (int64_t i = 0; i < 64; ++i) {
            const bool plain = isCropOf(a[i], x[i], 2, 2, false), mirrored = isCropOf(a[i], x[i], 2, 2, true);
            QVERIFY2(plain || mirrored, qPrintable(QString("sample %1 is no crop of its input").arg(i)));
            flipped += mirrored && !plain;
            shifted += !torch::equal(a[i], x[i]) && !torch::equal(a[i], x[i].flip({2}));
        }
        QVERIFY(flipped > 16 && flipped < 48); // about half
        QVERIFY(shifted > 40);                  // 24 of 25 offsets shift
        // Flip alone never shifts; nothing enabled returns the batch as it is.
        spec.cropPadding = 0;
        const auto f = dpu::data::augmentBatch(x, spec, 5);
        for (int64_t i = 0; i < 64; ++i)
            QVERIFY(torch::equal(f[i], x[i]) || torch::equal(f[i], x[i].flip({2})));
        QVERIFY(torch::equal(dpu::data::augmentBatch(x, dpu::AugmentSpec{}, 5), x));
    }

    void windowsShiftInTimeOnly()
    {
        const auto x = batch(16, 2, 1, 20);
        dpu::AugmentSpec spec;
        spec.cropPadding = 3;
        const auto a = dpu::data::augmentBatch(x, spec, 9);
        for (int64_t i = 0; i < 16; ++i)
            QVERIFY(isCropOf(a[i], x[i], 0, 3, false));
    }

    void trainingSplitCarriesTheAugmentation()
    {
        auto s = npySpec();
        s.augment.cropPadding = 1;
        s.augment.flip = true;
        const auto data = dpu::loadData(s);
        QCOMPARE(data.train.augment.cropPadding, 1);
        QVERIFY(data.train.select(torch::arange(3)).augment.flip);
        QVERIFY(!data.test.augment.enabled()); // validation and test are drawn from here: never augmented
    }
};

QTEST_GUILESS_MAIN(TestPreprocess)
#include "test_preprocess.moc"
