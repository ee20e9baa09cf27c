// SPDX-License-Identifier: MIT
// splitData (seeded validation/test split and arrival order), roundSamples, scheduledRounds,
// and the dataset-size check shared by the GUI and the runner (readDatasetSize, checkSplitFits).
#include "TestSupport.h"
#include "data/Dataset.h"
#include "dpu/DatasetSize.h"
#include <QTemporaryDir>
#include "dpu/Error.h"
#include "util/Rng.h"

using dpu::PlanError;
using dpu::SplitSpec;

namespace {

/// Labels equal to the sample index (and images that repeat it), so every subset reveals
/// which samples it took.
dpu::LoadedData indexedData(int64_t train, int64_t test)
{
    auto make = [](int64_t n) {
        const auto idx = torch::arange(n, torch::kInt64);
        return dpu::TensorDataset{idx.to(torch::kFloat32).reshape({n, 1, 1, 1}).expand({n, 1, 2, 2}).contiguous(),
                                  idx};
    };
    dpu::LoadedData data;
    data.train = make(train);
    data.test = make(test);
    data.shape = {1, 2, 2};
    return data;
}

std::vector<int64_t> toVector(const torch::Tensor& t)
{
    const auto c = t.contiguous();
    return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

SplitSpec splitSpec(int64_t validation)
{
    SplitSpec s;
    s.validation = validation;
    return s;
}

} // namespace

class TestSplit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sizesAndDisjointness()
    {
        const auto data = indexedData(500, 100);
        const auto split = dpu::splitData(data, splitSpec(30), 7);
        QCOMPARE(split.validation.size(), int64_t{30});
        QCOMPARE(split.test.size(), int64_t{70});
        auto all = toVector(split.validation.labels);
        const auto test = toVector(split.test.labels);
        all.insert(all.end(), test.begin(), test.end());
        std::sort(all.begin(), all.end());
        std::vector<int64_t> expected(100);
        std::iota(expected.begin(), expected.end(), int64_t{0});
        QVERIFY(all == expected); // disjoint and together the whole test split
        // Images travel with their labels.
        QCOMPARE(split.test.images[5][0][1][1].item<float>(), float(test[5]));
    }

    void subsetsKeepTheOriginalOrder()
    {
        const auto split = dpu::splitData(indexedData(10, 200), splitSpec(50), 3);
        const auto v = toVector(split.validation.labels);
        const auto t = toVector(split.test.labels);
        QVERIFY(std::is_sorted(v.begin(), v.end()));
        QVERIFY(std::is_sorted(t.begin(), t.end()));
    }

    void followsTheDocumentedStreams()
    {
        const uint64_t seed = 12345;
        const auto split = dpu::splitData(indexedData(300, 80), splitSpec(20), seed);
        auto perm = dpu::Rng(dpu::deriveSeed(seed, 1)).permutation(80);
        std::vector<int64_t> validation(perm.begin(), perm.begin() + 20);
        std::sort(validation.begin(), validation.end());
        QVERIFY(toVector(split.validation.labels) == validation);
        QCOMPARE(split.arrivalOrder.scalar_type(), torch::kInt64);
        QVERIFY(toVector(split.arrivalOrder) == dpu::Rng(dpu::deriveSeed(seed, 2)).permutation(300));
    }

    void arrivalOrderIsAPermutation()
    {
        const auto split = dpu::splitData(indexedData(1000, 10), splitSpec(3), 1);
        auto order = toVector(split.arrivalOrder);
        QCOMPARE(order.size(), size_t{1000});
        QVERIFY(!std::is_sorted(order.begin(), order.end()));
        std::sort(order.begin(), order.end());
        for (int64_t i = 0; i < 1000; ++i)
            QCOMPARE(order[static_cast<size_t>(i)], i);
    }

    void deterministicPerSeed()
    {
        const auto data = indexedData(400, 150);
        const auto a = dpu::splitData(data, splitSpec(40), 99);
        const auto b = dpu::splitData(data, splitSpec(40), 99);
        const auto c = dpu::splitData(data, splitSpec(40), 100);
        QVERIFY(toVector(a.validation.labels) == toVector(b.validation.labels));
        QVERIFY(toVector(a.arrivalOrder) == toVector(b.arrivalOrder));
        QVERIFY(toVector(a.validation.labels) != toVector(c.validation.labels));
        QVERIFY(toVector(a.arrivalOrder) != toVector(c.arrivalOrder));
    }

    void doesNotTouchTorchsGenerator()
    {
        torch::manual_seed(5);
        const auto expected = torch::rand({4});
        torch::manual_seed(5);
        dpu::splitData(indexedData(100, 50), splitSpec(10), 8);
        QVERIFY(torch::equal(torch::rand({4}), expected));
    }

    void validationMustLeaveTestSamples()
    {
        const auto data = indexedData(10, 50);
        try {
            dpu::splitData(data, splitSpec(50), 1);
            QFAIL("no PlanError for validation == test size");
        } catch (const PlanError& e) {
            QCOMPARE(e.path(), std::string("split.validation"));
            QVERIFY2(std::string(e.what()).find("expected fewer than 50") != std::string::npos, e.what());
        }
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::splitData(data, splitSpec(3000), 1), "split.validation",
                                 "expected fewer than 50", "3000");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::splitData(data, splitSpec(-1), 1), "split.validation");
        QCOMPARE(dpu::splitData(data, splitSpec(49), 1).test.size(), int64_t{1});
        QCOMPARE(dpu::splitData(data, splitSpec(0), 1).test.size(), int64_t{50});
    }

    void roundSamples()
    {
        SplitSpec s;
        s.initial = 1000;
        s.perRound = 500;
        QCOMPARE(dpu::roundSamples(s, 1), int64_t{1000});
        QCOMPARE(dpu::roundSamples(s, 2), int64_t{1500});
        QCOMPARE(dpu::roundSamples(s, 10), int64_t{5500});
        QCOMPARE(dpu::roundSamples(s, 0), int64_t{0});
        s.perRound = int64_t{1} << 62;
        QCOMPARE(dpu::roundSamples(s, 5), std::numeric_limits<int64_t>::max()); // saturates
    }

    void scheduledRounds()
    {
        SplitSpec s; // 1000 + 1000 per round, 10 rounds
        QCOMPARE(dpu::scheduledRounds(s, 60000), 10);
        s.rounds = 100;
        QCOMPARE(dpu::scheduledRounds(s, 60000), 60); // round 60 uses exactly 60000
        QCOMPARE(dpu::scheduledRounds(s, 59999), 59);
        QCOMPARE(dpu::scheduledRounds(s, 999), 0);
        s.perRound = int64_t{1} << 62;
        QCOMPARE(dpu::scheduledRounds(s, 60000), 1);
        s.rounds = 0;
        QCOMPARE(dpu::scheduledRounds(s, 60000), 0);
    }

    void checkSplitFitsNamesTheFieldThatDoesNotFit()
    {
        dpu::Plan p; // 1000 + 1000 per round, 10 rounds, 3000 validation
        const dpu::DatasetSize fashion{60000, 10000};
        dpu::checkSplitFits(p, fashion); // fits: no throw
        p.split.rounds = 60;
        dpu::checkSplitFits(p, fashion); // round 60 uses exactly the 60,000
        QCOMPARE(dpu::trainingSamplesNeeded(p), int64_t{60000});
        p.split.rounds = 80;
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::checkSplitFits(p, fashion), "split.rounds",
                                 "expected at most 60 rounds");
        QVERIFY(dpu::test::thrownMessage<PlanError>([&] { dpu::checkSplitFits(p, fashion); })
                    .find("80,000 training samples, the training split has 60,000") != std::string::npos);
        p.mode = dpu::RunMode::Single; // single-round mode uses two rounds whatever the plan says
        dpu::checkSplitFits(p, fashion);
        p.mode = dpu::RunMode::Multi;
        p.split.rounds = 1;
        p.split.initial = 70000;
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::checkSplitFits(p, fashion), "split.initial", "at most 60,000");
        p.split.initial = 1000;
        p.split.validation = 10000;
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::checkSplitFits(p, fashion), "split.validation", "fewer than 10,000");
    }

    void readDatasetSizeReadsHeadersOnly()
    {
        QTemporaryDir dir;
        const std::string idx = dir.filePath(QStringLiteral("idx")).toStdString();
        dpu::test::writeIdxFolder(idx, 700, 300); // gzip
        dpu::DatasetSpec spec;
        spec.kind = dpu::DataKind::Idx;
        spec.path = idx;
        QCOMPARE(dpu::readDatasetSize(spec).train, int64_t{700});
        QCOMPARE(dpu::readDatasetSize(spec).test, int64_t{300});
        spec.trainLimit = 500; // the plan's limits apply, as when the run loads the data
        QCOMPARE(dpu::readDatasetSize(spec).train, int64_t{500});
        QCOMPARE(dpu::readDatasetSize(spec).train, dpu::loadData(spec).train.size());

        const std::string c10 = dir.filePath(QStringLiteral("c10")).toStdString();
        dpu::test::writeCifarFolder(c10, false, 20, 30);
        dpu::DatasetSpec cifar;
        cifar.kind = dpu::DataKind::Cifar10;
        cifar.path = c10;
        QCOMPARE(dpu::readDatasetSize(cifar).train, int64_t{100});
        QCOMPARE(dpu::readDatasetSize(cifar).test, int64_t{30});
        const std::string c100 = dir.filePath(QStringLiteral("c100")).toStdString();
        dpu::test::writeCifarFolder(c100, true, 20, 30);
        cifar.kind = dpu::DataKind::Cifar100;
        cifar.path = c100;
        QCOMPARE(dpu::readDatasetSize(cifar).train, int64_t{100});
        QCOMPARE(dpu::readDatasetSize(cifar).test, int64_t{30});

        spec.path = dir.filePath(QStringLiteral("missing")).toStdString();
        QVERIFY(!dpu::test::thrownMessage<dpu::DataError>([&] { dpu::readDatasetSize(spec); }).empty());
    }
};

QTEST_APPLESS_MAIN(TestSplit)
#include "test_split.moc"
