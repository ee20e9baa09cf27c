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
        QTest::newRow("unknown dtype") << R"({"x":{"dtype":"I16","shape":[1],"data_offsets":[0,2]}})" << 2 << "dtype must be F32 or I8";
        QTest::newRow("I8 sized as F32") << R"({"x":{"dtype":"I8","shape":[2],"data_offsets":[0,8]}})" << 8 << "data offsets out of range";
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

    void int8TensorsRoundTrip()
    {
        // I8 tensors (an INT8 deployed model's codes): "I8" in the header, one byte per code.
        TensorData codes{"w", {2, 3}, {}, dpu::bundle::DType::I8, {-128, -1, 0, 1, 5, 127}};
        const std::vector<TensorData> tensors{codes, {"w.scale", {2}, {0.5f, 0.25f}}};
        const auto file = SafetensorsFile::write(tensors, {});
        const std::string text(file.begin() + 8, file.end());
        QVERIFY2(text.find(R"("w":{"dtype":"I8","shape":[2,3],"data_offsets":[0,6]})") != std::string::npos, text.c_str());
        const auto back = SafetensorsFile::read(file);
        QCOMPARE(int(back[0].dtype), int(dpu::bundle::DType::I8));
        QVERIFY(back[0].codes == codes.codes && back[0].values.empty());
        QCOMPARE(back[1].values, tensors[1].values);
        QCOMPARE(SafetensorsFile::write(back, {}), file);
        codes.codes.pop_back(); // five codes for a shape of six
        QVERIFY_THROWS_EXCEPTION(dpu::Error, SafetensorsFile::write({codes}, {}));
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
