// SPDX-License-Identifier: MIT
// The safetensors reader on hostile headers: every finding of fuzz_safetensors is a named
// dpu::Error, and what it accepts writes back to a file it reads the same.
#include "TestSupport.h"
#include "bundle/SafetensorsFile.h"
#include "dpu/Error.h"
#include <QtTest/QtTest>

using dpu::bundle::SafetensorsFile;
using dpu::bundle::TensorData;

namespace {

/// A file with this JSON header and `dataBytes` zero bytes of data.
std::vector<uint8_t> fileWith(const std::string& header, size_t dataBytes)
{
    std::vector<uint8_t> out;
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(uint64_t(header.size()) >> (8 * i)));
    out.insert(out.end(), header.begin(), header.end());
    out.resize(out.size() + dataBytes, 0);
    return out;
}

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hostileHeadersAreNamedErrors_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<QString>("fragment");
        // Found by fuzz_safetensors: each escaped as an nlohmann exception or asked for 2^62 floats.
        QTest::newRow("no data_offsets") << R"({"x":{"dtype":"F32","shape":[1]}})" << 4 << "data_offsets must be two";
        QTest::newRow("dtype not a string") << R"({"x":{"dtype":[1],"shape":[1],"data_offsets":[0,4]}})" << 4 << "dtype must be F32";
        QTest::newRow("metadata not strings") << R"({"__metadata__":{"a":[1]}})" << 0 << "__metadata__ a: expected a string";
        QTest::newRow("metadata not an object") << R"({"__metadata__":3})" << 0 << "__metadata__ must be an object";
        QTest::newRow("shape wraps to 0 bytes") << R"({"x":{"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]}})" << 0 << "data offsets out of range";
        QTest::newRow("negative shape") << R"({"x":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})" << 4 << "shape entries must be unsigned";
        QTest::newRow("offsets negative") << R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}})" << 4 << "data_offsets must be two";
        QTest::newRow("empty name") << R"({"":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})" << 4 << "empty name";
        QTest::newRow("not an object") << R"([1,2])" << 0 << "not a JSON object";
    }

    void hostileHeadersAreNamedErrors()
    {
        QFETCH(QString, header);
        QFETCH(int, dataBytes);
        QFETCH(QString, fragment);
        try {
            SafetensorsFile::read(fileWith(header.toStdString(), size_t(dataBytes)));
            QFAIL("accepted");
        } catch (const dpu::Error& e) {
            QVERIFY2(QString(e.what()).contains(fragment), e.what());
        }
    }

    void noTensorsWritesAnObject()
    {
        // Found by fuzz_safetensors: an empty file ("{}") was read, but written back as "null".
        const auto file = SafetensorsFile::write({}, {});
        QVERIFY(SafetensorsFile::read(file).empty());
        QCOMPARE(char(file[8]), '{');
    }

    void acceptedFilesRoundTrip()
    {
        const std::vector<TensorData> tensors{{"w", {2, 2}, {1.f, -2.f, 0.5f, 3.f}}, {"e", {0}, {}}, {"b", {1}, {7.f}}};
        std::map<std::string, std::string> meta{{"dpu.update_version", "3"}};
        const auto file = SafetensorsFile::write(tensors, meta);
        std::map<std::string, std::string> metaBack;
        const auto back = SafetensorsFile::read(file, nullptr, &metaBack);
        QCOMPARE(back.size(), tensors.size());
        QCOMPARE(metaBack, meta);
        QCOMPARE(SafetensorsFile::write(back, metaBack), file);
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
