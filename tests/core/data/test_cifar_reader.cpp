// SPDX-License-Identifier: MIT
// CIFAR-10/100 binary reader: layout, label choice, folder forms and each kind of broken file.
#include "TestSupport.h"
#include "data/CifarReader.h"
#include "data/CifarRecords.h"
#include "data/FileReader.h"
#include "dpu/Error.h"

using dpu::DataError;
using namespace dpu::data;
using dpu::test::cifarPixel;
using dpu::test::cifarRecord;
using dpu::test::writeFile;

namespace {

std::vector<uint8_t> records(const std::vector<std::pair<int, int>>& labels)
{
    std::vector<uint8_t> out;
    for (size_t i = 0; i < labels.size(); ++i) {
        const auto rec = cifarRecord(static_cast<uint32_t>(i), labels[i].first, static_cast<uint8_t>(labels[i].second));
        out.insert(out.end(), rec.begin(), rec.end());
    }
    return out;
}

} // namespace

class TestCifarReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsCifar10Record()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("b.bin").toStdString();
        writeFile(path, records({{-1, 3}, {-1, 9}, {-1, 0}}));
        const auto split = readCifarFile(path, CifarKind::Cifar10);
        QCOMPARE(split.pixels.sizes().vec(), (std::vector<int64_t>{3, 3, 32, 32}));
        QCOMPARE(split.pixels.scalar_type(), torch::kUInt8);
        QCOMPARE(split.labels.scalar_type(), torch::kInt64);
        QCOMPARE(split.labels[1].item<int64_t>(), int64_t{9});
        // Channel-major layout: red plane, then green, then blue, each row-major.
        for (int c = 0; c < 3; ++c)
            for (int y : {0, 7, 31})
                for (int x : {0, 19, 31})
                    QCOMPARE(split.pixels[2][c][y][x].item<int>(), int(cifarPixel(2, c, y, x)));
    }

    void cifar100UsesFineLabel()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("train.bin").toStdString();
        writeFile(path, records({{19, 99}, {0, 42}}));
        const auto split = readCifarFile(path, CifarKind::Cifar100);
        QCOMPARE(split.labels[0].item<int64_t>(), int64_t{99});
        QCOMPARE(split.labels[1].item<int64_t>(), int64_t{42});
        QCOMPARE(split.pixels[1][2][5][6].item<int>(), int(cifarPixel(1, 2, 5, 6)));
    }

    void readsCifar10FolderInBatchOrder()
    {
        QTemporaryDir dir;
        dpu::test::writeCifarFolder(dir.path().toStdString(), false, 4, 3);
        const auto raw = readCifarFolder(dir.path().toStdString(), CifarKind::Cifar10);
        QCOMPARE(raw.train.size(), int64_t{20});
        QCOMPARE(raw.test.size(), int64_t{3});
        QCOMPARE(raw.train.pixels.sizes().vec(), (std::vector<int64_t>{20, 3, 32, 32}));
        // Record 1 of batch 3 is training sample 9, written with index 9.
        QCOMPARE(raw.train.pixels[9][1][3][4].item<int>(), int(cifarPixel(9, 1, 3, 4)));
        QCOMPARE(raw.train.labels[9].item<int64_t>(), int64_t{1});
        QCOMPARE(raw.test.pixels[2][0][0][0].item<int>(), int(cifarPixel(1000002, 0, 0, 0)));
    }

    void readsCifar100Folder()
    {
        QTemporaryDir dir;
        dpu::test::writeCifarFolder(dir.path().toStdString(), true, 30, 7);
        const auto raw = readCifarFolder(dir.path().toStdString(), CifarKind::Cifar100);
        QCOMPARE(raw.train.size(), int64_t{150});
        QCOMPARE(raw.test.size(), int64_t{7});
        QCOMPARE(raw.train.labels.max().item<int64_t>(), int64_t{99});
    }

    void findsArchiveSubfolder()
    {
        QTemporaryDir dir;
        dpu::test::writeCifarFolder(dir.filePath("cifar-10-batches-bin").toStdString(), false, 2, 2);
        QCOMPARE(readCifarFolder(dir.path().toStdString(), CifarKind::Cifar10).train.size(), int64_t{10});
    }

    void missingBatch()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeCifarFolder(d, false, 2, 2);
        QVERIFY(QFile::remove(QString::fromStdString(d + "/data_batch_3.bin")));
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFolder(d, CifarKind::Cifar10), d + "/data_batch_3.bin",
                                 "missing file");
    }

    void missingFolder()
    {
        QTemporaryDir dir;
        const auto d = dir.filePath("none").toStdString();
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFolder(d, CifarKind::Cifar100), d, "does not exist");
    }

    void sizeNotMultipleOfRecord()
    {
        QTemporaryDir dir;
        auto bytes = records({{-1, 1}, {-1, 2}});
        bytes.resize(bytes.size() - 10);
        const auto path = dir.filePath("test_batch.bin").toStdString();
        writeFile(path, bytes);
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFile(path, CifarKind::Cifar10), path, "size mismatch",
                                 "6136 bytes", "not a multiple of the 3073-byte CIFAR-10 record",
                                 "1 records and 3063 bytes left over");
    }

    void cifar100FileReadAsCifar10()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("data_batch_1.bin").toStdString();
        writeFile(path, records({{1, 5}, {2, 10}}));
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFile(path, CifarKind::Cifar10), path, "size mismatch");
    }

    void labelOutOfRange()
    {
        QTemporaryDir dir;
        std::vector<std::pair<int, int>> labels(8, {-1, 4});
        labels[5].second = 12;
        const auto path = dir.filePath("data_batch_2.bin").toStdString();
        writeFile(path, records(labels));
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFile(path, CifarKind::Cifar10), path, "label out of range",
                                 "CIFAR-10 label 12 at record 5", "expected 0..9");
    }

    void fineLabelOutOfRange()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("train.bin").toStdString();
        writeFile(path, records({{3, 17}, {3, 100}}));
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFile(path, CifarKind::Cifar100), path, "label out of range",
                                 "CIFAR-100 label 100 at record 1", "expected 0..99");
    }

    void coarseLabelOutOfRange()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("test.bin").toStdString();
        writeFile(path, records({{25, 17}}));
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFile(path, CifarKind::Cifar100), path, "label out of range",
                                 "coarse label 25 at record 0", "expected 0..19");
    }

    void emptyFile()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("test_batch.bin").toStdString();
        writeFile(path, {});
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarFile(path, CifarKind::Cifar10), path, "no samples");
    }

    void gzipCompressedBatchReads()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("test_batch.bin").toStdString();
        writeFile(path, dpu::test::gzip(records({{-1, 7}})));
        QCOMPARE(readCifarFile(path, CifarKind::Cifar10).labels[0].item<int64_t>(), int64_t{7});
    }

    // The fuzz target's entry: bytes in memory give what the file gives, and a caller's smaller
    // size limit (the fuzz harness's, against gzip bombs) is refused by name.
    void memorySourceAndSizeLimit()
    {
        const auto bytes = records({{-1, 4}, {-1, 2}});
        const auto gz = dpu::test::gzip(bytes);
        FileReader in("mem.bin", gz.data(), gz.size());
        const CifarRecords r = readCifarRecords(in, CifarKind::Cifar10);
        QCOMPARE(r.count, int64_t{2});
        QCOMPARE(r.labels, (std::vector<int64_t>{4, 2}));
        QCOMPARE(r.pixels[size_t(kCifarPixelBytes) + 5], cifarPixel(1, 0, 0, 5));
        FileReader limited("mem.bin", gz.data(), gz.size());
        DPU_EXPECT_THROW_MESSAGE(DataError, readCifarRecords(limited, CifarKind::Cifar10, bytes.size() - 1),
                                 "mem.bin", "too large", std::to_string(bytes.size() - 1));
        FileReader exact("mem.bin", gz.data(), gz.size());
        QCOMPARE(readCifarRecords(exact, CifarKind::Cifar10, bytes.size()).count, int64_t{2});
    }
};

QTEST_APPLESS_MAIN(TestCifarReader)
#include "test_cifar_reader.moc"
