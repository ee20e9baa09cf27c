// SPDX-License-Identifier: MIT
// The data-reader registry: one reader per DataKind, each pointing at its facts, detecting its own fixture only, and counting what it reads.
#include "TestSupport.h"
#include "data/DataReaders.h"
#include "data/Dataset.h"
#include "dpu/DataFormats.h"
#include "dpu/DataProbe.h"
#include "dpu/DatasetSize.h"
#include "dpu/PlanEnums.h"
#include <QDir>
#include <QTemporaryDir>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using dpu::DataKind;
using dpu::test::datasetSpec;
using dpu::test::ownData;

/// One fixture per kind. CIFAR folders are judged by their file names, so empty files do for
/// detection (test_cifar_reader reads real records).
struct Fixtures {
    QTemporaryDir tmp;
    std::vector<std::pair<DataKind, std::string>> paths;

    Fixtures()
    {
        const std::string cifar10 = tmp.filePath(QStringLiteral("cifar10")).toStdString();
        const std::string cifar100 = tmp.filePath(QStringLiteral("cifar100")).toStdString();
        QDir().mkpath(QString::fromStdString(cifar10));
        QDir().mkpath(QString::fromStdString(cifar100));
        std::ofstream(cifar10 + "/data_batch_1.bin");
        std::ofstream(cifar100 + "/train.bin");
        paths = {{DataKind::Idx, ownData("idx")},
                 {DataKind::Cifar10, cifar10},
                 {DataKind::Cifar100, cifar100},
                 {DataKind::Npy, ownData("npy")},
                 {DataKind::Npz, ownData("npz/data.npz")},
                 {DataKind::Safetensors, ownData("safetensors/data.safetensors")},
                 {DataKind::Images, ownData("images")}};
    }
};

} // namespace

class TestDataReaders : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Every DataKind (the formats table lists them all, in enum order) has exactly one reader,
    /// the registry lists them in that order, and each reader's facts are the table's entry.
    void everyKindHasExactlyOneReader()
    {
        const auto& formats = dpu::dataFormats();
        const auto& readers = dpu::data::dataReaders();
        QCOMPARE(readers.size(), formats.size());
        QCOMPARE(formats.size(), size_t(7)); // DataKind's values: a new kind needs a reader
        for (size_t i = 0; i < formats.size(); ++i) {
            const DataKind kind = formats[i].kind;
            int count = 0;
            for (const dpu::data::DataReader* r : readers)
                count += r->kind() == kind;
            QVERIFY2(count == 1, dpu::nameOf(kind).c_str());
            QCOMPARE(readers[i]->kind(), kind);
            QCOMPARE(&dpu::data::dataReader(kind), readers[i]);
            QCOMPARE(&readers[i]->format(), &dpu::dataFormat(kind));
        }
    }

    /// Each reader's detect accepts its own fixture and refuses every other kind's, and
    /// detectDatasetKind names the kind of each.
    void eachReaderDetectsItsOwnFixtureOnly()
    {
        Fixtures f;
        QVERIFY(f.tmp.isValid());
        for (const dpu::data::DataReader* r : dpu::data::dataReaders()) {
            for (const auto& [kind, path] : f.paths) {
                const std::string what = dpu::nameOf(r->kind()) + " on " + dpu::nameOf(kind) + " fixture " + path;
                QVERIFY2(r->detect(path) == (r->kind() == kind), what.c_str());
            }
            QVERIFY(!r->detect(f.tmp.filePath(QStringLiteral("nonexistent")).toStdString()));
        }
        for (const auto& [kind, path] : f.paths)
            QCOMPARE(dpu::detectDatasetKind(path), kind);
    }

    /// What a reader counts from headers (size) is what it reads, for every fixture with samples,
    /// with and without a test split of its own (npy and images have one; npz holdout.npz not).
    void sizesAreWhatIsRead()
    {
        const std::vector<std::pair<std::string, std::string>> fixtures{
            {"idx", ownData("idx")},        {"npy", ownData("npy")},
            {"npz", ownData("npz/data.npz")}, {"npz", ownData("npz/holdout.npz")},
            {"safetensors", ownData("safetensors/data.safetensors")},
            {"images", ownData("images")},  {"images", ownData("images-jpeg")}};
        for (const auto& [kind, path] : fixtures) {
            const dpu::DatasetSpec spec = datasetSpec(kind, path);
            const dpu::data::DataReader& r = dpu::data::dataReader(spec.kind);
            const dpu::DatasetSize size = r.size(spec);
            const dpu::RawDataset read = r.read(spec, nullptr, nullptr);
            QVERIFY2(size.train == read.raw.train.size() && size.test == read.raw.test.size(), path.c_str());
            QVERIFY2(size.train > 0 && size.test > 0, path.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestDataReaders)
#include "test_data_readers.moc"
