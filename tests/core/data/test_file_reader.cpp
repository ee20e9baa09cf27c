// SPDX-License-Identifier: MIT
// FileReader: raw and gzip content, and the errors for missing, unreadable, corrupt and cut-short files.
#include "TestSupport.h"
#include "data/FileReader.h"
#include "dpu/Error.h"

using dpu::DataError;
using dpu::data::FileReader;

namespace {

std::vector<uint8_t> sampleBytes(size_t n)
{
    std::vector<uint8_t> out(n);
    uint32_t x = 12345;
    for (auto& b : out) {
        x = x * 1103515245u + 12345u;
        b = static_cast<uint8_t>((x >> 16) % 7); // compressible, but not trivially
    }
    return out;
}

std::vector<uint8_t> readAll(FileReader& in)
{
    std::vector<uint8_t> out;
    in.readAppend(out, uint64_t{1} << 40);
    return out;
}

std::vector<uint8_t> readAll(const std::string& path)
{
    FileReader in(path);
    return readAll(in);
}

std::vector<uint8_t> readAllFromMemory(const std::vector<uint8_t>& bytes)
{
    FileReader in("in-memory.bin", bytes.data(), bytes.size());
    return readAll(in);
}

std::vector<uint8_t> concat(std::vector<uint8_t> a, const std::vector<uint8_t>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

class TestFileReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsRawAndGzipAlike()
    {
        QTemporaryDir dir;
        const auto bytes = sampleBytes(100000);
        const auto raw = dir.filePath("a.bin").toStdString();
        const auto gz = dir.filePath("a.bin.gz").toStdString();
        dpu::test::writeFile(raw, bytes);
        dpu::test::writeFile(gz, dpu::test::gzip(bytes));
        QVERIFY(!FileReader(raw).compressed());
        QVERIFY(FileReader(gz).compressed());
        QCOMPARE(FileReader(raw).diskSize(), uint64_t{bytes.size()});
        QVERIFY(readAll(raw) == bytes);
        QVERIFY(readAll(gz) == bytes);
    }

    void detectsGzipByContentNotName()
    {
        QTemporaryDir dir;
        const auto bytes = sampleBytes(1000);
        const auto misnamed = dir.filePath("raw.gz").toStdString();
        dpu::test::writeFile(misnamed, bytes);
        QVERIFY(!FileReader(misnamed).compressed());
        QVERIFY(readAll(misnamed) == bytes);
    }

    void readStopsAtTheEndAndGrowsOnlyWithData()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("small").toStdString();
        dpu::test::writeFile(path, sampleBytes(10));
        FileReader in(path);
        std::vector<uint8_t> out;
        // A request far beyond the file must not allocate for the request.
        QCOMPARE(in.readAppend(out, uint64_t{1} << 40), size_t{10});
        QCOMPARE(out.size(), size_t{10});
        uint8_t b;
        QCOMPARE(in.read(&b, 1), size_t{0});
    }

    void missingFile()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("nothing-here").toStdString();
        DPU_EXPECT_THROW_MESSAGE(DataError, FileReader(path), path, "missing file");
    }

    void folderIsNotReadable()
    {
        QTemporaryDir dir;
        const auto path = dir.filePath("folder").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(path)));
        DPU_EXPECT_THROW_MESSAGE(DataError, FileReader(path), path, "unreadable", "not a regular file");
    }

    void corruptGzip()
    {
        QTemporaryDir dir;
        auto gz = dpu::test::gzip(sampleBytes(200000));
        for (size_t i = gz.size() / 3; i < gz.size() / 3 + 16; ++i)
            gz[i] ^= 0xA5;
        const auto path = dir.filePath("corrupt.gz").toStdString();
        dpu::test::writeFile(path, gz);
        DPU_EXPECT_THROW_MESSAGE(DataError, readAll(path), path, "gzip data is corrupt");
    }

    void badGzipChecksum()
    {
        QTemporaryDir dir;
        auto gz = dpu::test::gzip(sampleBytes(5000));
        gz[gz.size() - 6] ^= 0xFF; // inside the CRC-32 of the trailer
        const auto path = dir.filePath("crc.gz").toStdString();
        dpu::test::writeFile(path, gz);
        DPU_EXPECT_THROW_MESSAGE(DataError, readAll(path), path, "gzip data is corrupt");
    }

    void truncatedGzip()
    {
        QTemporaryDir dir;
        auto gz = dpu::test::gzip(sampleBytes(200000));
        gz.resize(gz.size() / 2);
        const auto path = dir.filePath("cut.gz").toStdString();
        dpu::test::writeFile(path, gz);
        DPU_EXPECT_THROW_MESSAGE(DataError, readAll(path), path, "gzip stream is truncated");
    }

    // The memory source (the fuzz targets' entry) runs the same detection and inflation.
    void memorySourceReadsAsAFile()
    {
        const auto bytes = sampleBytes(300000); // more than the file source's input buffer
        const auto gz = dpu::test::gzip(bytes);
        FileReader raw("raw.bin", bytes.data(), bytes.size());
        QVERIFY(!raw.compressed());
        QCOMPARE(raw.diskSize(), uint64_t{bytes.size()});
        FileReader packed("packed.bin", gz.data(), gz.size());
        QVERIFY(packed.compressed());
        QCOMPARE(packed.diskSize(), uint64_t{gz.size()});
        QVERIFY(readAll(raw) == bytes);
        QVERIFY(readAll(packed) == bytes);
        QVERIFY(readAllFromMemory({}).empty());
        QVERIFY(readAllFromMemory({0x1f}) == std::vector<uint8_t>{0x1f}); // one magic byte is raw data
    }

    void memorySourceErrorsNameIt()
    {
        auto gz = dpu::test::gzip(sampleBytes(200000));
        gz.resize(gz.size() / 2);
        DPU_EXPECT_THROW_MESSAGE(DataError, readAllFromMemory(gz), "in-memory.bin", "gzip stream is truncated");
        gz = dpu::test::gzip(sampleBytes(5000));
        gz[gz.size() - 6] ^= 0xFF;
        DPU_EXPECT_THROW_MESSAGE(DataError, readAllFromMemory(gz), "in-memory.bin", "gzip data is corrupt");
        const std::vector<uint8_t> magicOnly{0x1f, 0x8b};
        DPU_EXPECT_THROW_MESSAGE(DataError, readAllFromMemory(magicOnly), "in-memory.bin", "gzip stream is truncated");
    }

    // As gzread: members one after another read as one stream, anything else after a member is
    // ignored; from a file (past its 256 KiB input buffer) and from memory alike.
    void gzipMembersAndTrailingBytes()
    {
        QTemporaryDir dir;
        const auto a = sampleBytes(400000), b = sampleBytes(1234);
        const auto twoMembers = concat(dpu::test::gzip(a), dpu::test::gzip(b));
        const auto trailing = concat(dpu::test::gzip(b), {'j', 'u', 'n', 'k'});
        const auto path = dir.filePath("two.gz").toStdString();
        dpu::test::writeFile(path, twoMembers);
        QVERIFY(readAll(path) == concat(a, b));
        QVERIFY(readAllFromMemory(twoMembers) == concat(a, b));
        QVERIFY(readAllFromMemory(trailing) == b);
        const auto cutSecond = std::vector<uint8_t>(twoMembers.begin(), twoMembers.end() - 10);
        DPU_EXPECT_THROW_MESSAGE(DataError, readAllFromMemory(cutSecond), "in-memory.bin", "gzip stream is truncated");
    }
};

QTEST_APPLESS_MAIN(TestFileReader)
#include "test_file_reader.moc"
