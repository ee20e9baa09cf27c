// SPDX-License-Identifier: MIT
// IDX reader: good files (raw and gzip) and one test per kind of broken or hostile file.
#include "TestSupport.h"
#include "data/FileReader.h"
#include "data/IdxArray.h"
#include "data/IdxReader.h"
#include "dpu/Error.h"

using dpu::DataError;
using namespace dpu::data;
using dpu::test::gzip;
using dpu::test::idxBytes;
using dpu::test::writeFile;

namespace {

// Three 2x3 images with distinct bytes, so the layout is checked value by value.
const std::vector<uint8_t> kPixels{0,  1,  2,  3,  4,  5,  10, 11, 12,
                                   13, 14, 15, 250, 251, 252, 253, 254, 255};

void writeMaybeGz(const std::string& path, const std::vector<uint8_t>& bytes, bool compressed)
{
    writeFile(path, compressed ? gzip(bytes) : bytes);
}

} // namespace

class TestIdxReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsImages_data()
    {
        QTest::addColumn<bool>("compressed");
        QTest::newRow("raw") << false;
        QTest::newRow("gzip") << true;
    }
    void readsImages()
    {
        QFETCH(bool, compressed);
        QTemporaryDir dir;
        const auto path = dir.filePath(compressed ? "img.gz" : "img").toStdString();
        writeMaybeGz(path, idxBytes(0x08, {3, 2, 3}, kPixels), compressed);
        const auto images = readIdxImages(path);
        QCOMPARE(images.scalar_type(), torch::kUInt8);
        QCOMPARE(images.sizes().vec(), (std::vector<int64_t>{3, 1, 2, 3}));
        QVERIFY(images.is_contiguous());
        const auto* p = images.data_ptr<uint8_t>();
        QVERIFY(std::equal(kPixels.begin(), kPixels.end(), p));
        QCOMPARE(images[2][0][1][2].item<int>(), 255);
    }

    // The fuzz target's entry: the same parsing over bytes in memory, errors under the given name.
    void readsFromMemory_data() { readsImages_data(); }
    void readsFromMemory()
    {
        QFETCH(bool, compressed);
        const auto raw = idxBytes(0x08, {3, 2, 3}, kPixels);
        const auto bytes = compressed ? gzip(raw) : raw;
        FileReader in("mem.idx", bytes.data(), bytes.size());
        const IdxArray a = readIdxImageArray(in);
        QCOMPARE(a.dims, (std::vector<uint32_t>{3, 2, 3}));
        QVERIFY(a.bytes == kPixels);
        const auto cut = std::vector<uint8_t>(raw.begin(), raw.end() - 1);
        FileReader short_("mem.idx", cut.data(), cut.size());
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImageArray(short_), "mem.idx", "truncated");
        FileReader labels("mem.idx", bytes.data(), bytes.size());
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxLabelArray(labels), "mem.idx", "bad magic");
    }

    void readsLabels_data() { readsImages_data(); }
    void readsLabels()
    {
        QFETCH(bool, compressed);
        QTemporaryDir dir;
        const auto path = dir.filePath("lbl").toStdString();
        writeMaybeGz(path, idxBytes(0x08, {4}, {7, 0, 9, 255}), compressed);
        const auto labels = readIdxLabels(path);
        QCOMPARE(labels.scalar_type(), torch::kInt64);
        QCOMPARE(labels.sizes().vec(), (std::vector<int64_t>{4}));
        QCOMPARE(labels[0].item<int64_t>(), int64_t{7});
        QCOMPARE(labels[3].item<int64_t>(), int64_t{255});
    }

    void readsFolder_data() { readsImages_data(); }
    void readsFolder()
    {
        QFETCH(bool, compressed);
        QTemporaryDir dir;
        dpu::test::writeIdxFolder(dir.path().toStdString(), 30, 12, compressed, 28, 10);
        const auto raw = readIdxFolder(dir.path().toStdString());
        QCOMPARE(raw.train.size(), int64_t{30});
        QCOMPARE(raw.test.size(), int64_t{12});
        QCOMPARE(raw.train.pixels.sizes().vec(), (std::vector<int64_t>{30, 1, 28, 28}));
        QCOMPARE(raw.train.labels[13].item<int64_t>(), int64_t{3});
        const auto img = dpu::test::syntheticImage(5, 5, 28, 10);
        QVERIFY(std::equal(img.begin(), img.end(), raw.train.pixels[5].contiguous().data_ptr<uint8_t>()));
    }

    void acceptsDottedNames()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 4, 2, false, 8, 10);
        QVERIFY(QFile::rename(QString::fromStdString(d + "/train-images-idx3-ubyte"),
                              QString::fromStdString(d + "/train-images.idx3-ubyte")));
        QCOMPARE(readIdxFolder(d).train.size(), int64_t{4});
    }

    void missingFolder()
    {
        QTemporaryDir dir;
        const auto d = dir.filePath("absent").toStdString();
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxFolder(d), d, "does not exist");
    }

    void missingFile()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 4, 2, true, 8, 10);
        QVERIFY(QFile::remove(QString::fromStdString(d + "/t10k-labels-idx1-ubyte.gz")));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxFolder(d), d + "/t10k-labels-idx1-ubyte", "missing file",
                                 "t10k-labels-idx1-ubyte.gz");
    }

    void unreadableFile()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("train-images-idx3-ubyte").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(path)));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "unreadable");
    }

    void corruptGzip()
    {
        QTemporaryDir dir;
        auto gz = gzip(idxBytes(0x08, {3, 2, 3}, kPixels));
        gz[gz.size() - 7] ^= 0x5A; // CRC-32 of the trailer
        const auto path = dir.filePath("img.gz").toStdString();
        writeFile(path, gz);
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "gzip data is corrupt");
    }

    void truncatedGzip()
    {
        QTemporaryDir dir;
        std::vector<uint8_t> pixels(200 * 28 * 28);
        for (size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<uint8_t>(i * 7919 % 251);
        auto gz = gzip(idxBytes(0x08, {200, 28, 28}, pixels));
        gz.resize(gz.size() / 2);
        const auto path = dir.filePath("img.gz").toStdString();
        writeFile(path, gz);
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "truncated");
    }

    void truncatedData_data() { readsImages_data(); }
    void truncatedData()
    {
        QFETCH(bool, compressed);
        QTemporaryDir dir;
        auto bytes = idxBytes(0x08, {3, 2, 3}, kPixels);
        bytes.resize(30);
        const auto path = dir.filePath("img").toStdString();
        writeMaybeGz(path, bytes, compressed);
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "truncated",
                                 "header says 3 images of 2x3", "needs 34 bytes", "file has 30");
    }

    void truncatedHeader()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("lbl").toStdString();
        writeFile(path, {0, 0, 8, 1, 0, 0});
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxLabels(path), path, "truncated", "header");
    }

    void badMagicImages()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("train-images-idx3-ubyte").toStdString();
        writeFile(path, idxBytes(0x08, {3}, {1, 2, 3})); // a labels file in the images' place
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "bad magic", "expected 0x00000803",
                                 "found 0x00000801");
    }

    void badMagicLabels()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("train-labels-idx1-ubyte").toStdString();
        writeFile(path, idxBytes(0x08, {3, 2, 3}, kPixels));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxLabels(path), path, "bad magic", "expected 0x00000801",
                                 "found 0x00000803");
    }

    void notAnIdxFile()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("img").toStdString();
        writeFile(path, {'G', 'I', 'F', '8', '9', 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "bad magic", "found 0x47494638",
                                 "not an IDX file");
    }

    void wrongCount()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 5, 2, false, 8, 10);
        writeFile(d + "/train-labels-idx1-ubyte", idxBytes(0x08, {4}, {0, 1, 2, 3}));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxFolder(d), d + "/train-images-idx3-ubyte", "wrong count",
                                 "5 images", d + "/train-labels-idx1-ubyte", "4 labels");
    }

    void sizeMismatch_data() { readsImages_data(); }
    void sizeMismatch()
    {
        QFETCH(bool, compressed);
        QTemporaryDir dir;
        auto bytes = idxBytes(0x08, {3, 2, 3}, kPixels);
        bytes.insert(bytes.end(), 6, 0);
        const auto path = dir.filePath("img").toStdString();
        writeMaybeGz(path, bytes, compressed);
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "size mismatch", "needs 34 bytes",
                                 "file has 40");
    }

    void imageSizeDiffersBetweenSplits()
    {
        QTemporaryDir dir;
        const auto d = dir.path().toStdString();
        dpu::test::writeIdxFolder(d, 4, 2, false, 8, 10);
        writeFile(d + "/t10k-images-idx3-ubyte", idxBytes(0x08, {2, 2, 3}, std::vector<uint8_t>(12, 1)));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxFolder(d), d + "/t10k-images-idx3-ubyte",
                                 "image size mismatch", "2x3", "8x8");
    }

    void noSamples()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("img").toStdString();
        writeFile(path, idxBytes(0x08, {0, 28, 28}, {}));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "no samples");
    }

    void hostileHeaders_data()
    {
        QTest::addColumn<uint32_t>("count");
        QTest::addColumn<uint32_t>("rows");
        QTest::addColumn<uint32_t>("cols");
        QTest::newRow("max count and sides") << 0xFFFFFFFFu << 0xFFFFFFFFu << 0xFFFFFFFFu;
        QTest::newRow("zero rows") << 10u << 0u << 28u;
        QTest::newRow("side above cap") << 10u << 5000u << 28u;
        QTest::newRow("total above cap") << 0xFFFFFFFFu << 28u << 28u;
    }
    void hostileHeaders()
    {
        QFETCH(uint32_t, count);
        QFETCH(uint32_t, rows);
        QFETCH(uint32_t, cols);
        QTemporaryDir dir;
        const auto path = dir.filePath("img").toStdString();
        writeFile(path, idxBytes(0x08, {count, rows, cols}, {1, 2, 3}));
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "bad header");
    }

    void hugeClaimWithLittleDataIsTruncatedNotAllocated()
    {
        // 5,000,000 images of 28x28 pass the header caps (3.9 GB) but the file holds 3 bytes:
        // the reader must report truncation quickly instead of allocating the claimed size.
        QTemporaryDir dir;
        const auto path = dir.filePath("img.gz").toStdString();
        writeFile(path, gzip(idxBytes(0x08, {5000000, 28, 28}, {1, 2, 3})));
        QElapsedTimer timer;
        timer.start();
        DPU_EXPECT_THROW_MESSAGE(DataError, readIdxImages(path), path, "truncated",
                                 "5000000 images of 28x28");
        QVERIFY(timer.elapsed() < 2000);
    }
};

QTEST_APPLESS_MAIN(TestIdxReader)
#include "test_idx_reader.moc"
