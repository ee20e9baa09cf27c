// SPDX-License-Identifier: MIT
// NumPy (.npy, .npz) and safetensors datasets: every dtype and layout read to the same tensors as the IDX reference.
#include "TestSupport.h"
#include "data/ArrayDataset.h"
#include "data/Dataset.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"

using dpu::DatasetSpec;
using dpu::test::datasetSpec;
using dpu::test::ownData;

namespace {

/// The reference: the same samples as MNIST-format IDX files.
const dpu::RawDataset& reference()
{
    static const dpu::RawDataset r = dpu::readRawData(datasetSpec("idx", ownData("idx")));
    return r;
}

bool sameTensor(const torch::Tensor& a, const torch::Tensor& b)
{
    return a.sizes() == b.sizes() && a.scalar_type() == b.scalar_type() && torch::equal(a, b);
}

/// Pixels (as float when the reader keeps floats) and labels equal the reference's, and so do the classes.
void compareToReference(const dpu::RawDataset& got, bool asFloat)
{
    const auto& ref = reference().raw;
    for (const auto& [mine, theirs] : {std::make_pair(&got.raw.train, &ref.train), std::make_pair(&got.raw.test, &ref.test)}) {
        const auto expected = asFloat ? theirs->pixels.to(torch::kFloat32) : theirs->pixels;
        QVERIFY2(sameTensor(mine->pixels, expected),
                 qPrintable(QString("pixels %1 vs %2").arg(QString::fromStdString(c10::str(mine->pixels.sizes())))
                                .arg(QString::fromStdString(c10::str(expected.sizes())))));
        QVERIFY(sameTensor(mine->labels, theirs->labels));
    }
    QCOMPARE(got.classes, 4);
}

} // namespace

class TestArrayReaders : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void referenceIsTheGeneratedData()
    {
        QCOMPARE(reference().raw.train.pixels.sizes().vec(), (std::vector<int64_t>{40, 1, 6, 6}));
        QCOMPARE(reference().raw.test.size(), int64_t{16});
    }

    void npyDefaultNamesAreIdenticalToIdx()
    {
        const auto got = dpu::readRawData(datasetSpec("npy", ownData("npy")));
        compareToReference(got, false);
        QCOMPARE(got.layout, std::string("nhw"));
        QVERIFY(!got.heldOut);
    }

    void npyEveryDtype_data()
    {
        QTest::addColumn<QString>("x");
        QTest::addColumn<QString>("y");
        QTest::addColumn<bool>("asFloat");
        QTest::newRow("uint8") << "u8" << "i8" << false;
        for (const char* t : {"i8", "i16", "i32", "i64", "f16", "f32", "f64", "i16be"})
            QTest::newRow(t) << t << (std::string(t) == "i8" ? "i64" : "i32") << true;
        QTest::newRow("labels int16") << "u8" << "i16" << false;
    }
    void npyEveryDtype()
    {
        QFETCH(QString, x);
        QFETCH(QString, y);
        QFETCH(bool, asFloat);
        auto s = datasetSpec("npy", ownData("npy"));
        s.x = "x_" + x.toStdString();
        s.xTest = "x_test_" + x.toStdString();
        s.y = "y_" + y.toStdString() + ".npy"; // with or without the extension
        s.yTest = "y_test_" + y.toStdString();
        compareToReference(dpu::readRawData(s), asFloat);
    }

    void npyLayouts()
    {
        auto s = datasetSpec("npy", ownData("npy"));
        s.x = "x_nhwc";
        s.xTest = "x_test_nhwc";
        auto got = dpu::readRawData(s);
        QCOMPARE(got.layout, std::string("nhwc")); // (N, 6, 6, 1): channels last detected
        compareToReference(got, false);
        s.x = "x_nchw";
        s.xTest = "x_test_nchw";
        got = dpu::readRawData(s);
        QCOMPARE(got.layout, std::string("nchw"));
        compareToReference(got, false);
        // Forcing nchw on the channels-last file reads 6 channels of 6x1: a different, valid shape.
        s.x = "x_nhwc";
        s.xTest = "x_test_nhwc";
        s.layout = dpu::ArrayLayout::Nchw;
        QCOMPARE(dpu::readRawData(s).raw.train.pixels.sizes().vec(), (std::vector<int64_t>{40, 6, 6, 1}));
    }

    void windowsAndTables()
    {
        auto s = datasetSpec("npy", ownData("npy"));
        s.x = "x_windows"; // (N, 2, 18): not square, so sensor windows N,C,L -> [2, 1, 18]
        s.xTest = "x_test_windows";
        auto got = dpu::readRawData(s);
        QCOMPARE(got.layout, std::string("ncl"));
        QCOMPARE(got.raw.train.pixels.sizes().vec(), (std::vector<int64_t>{40, 2, 1, 18}));
        QVERIFY(sameTensor(got.raw.train.pixels.flatten(1), reference().raw.train.pixels.flatten(1).to(torch::kFloat32)));
        s.x = "x_table"; // (N, 36) float64 -> [1, 1, 36]
        s.xTest = "x_test_table";
        got = dpu::readRawData(s);
        QCOMPARE(got.layout, std::string("nf"));
        QCOMPARE(got.raw.test.pixels.sizes().vec(), (std::vector<int64_t>{16, 1, 1, 36}));
        QVERIFY(sameTensor(got.raw.test.pixels.flatten(1), reference().raw.test.pixels.flatten(1).to(torch::kFloat32)));
        // Square 3-D arrays can be windows too when the plan says so.
        s.x = "x";
        s.xTest = "x_test";
        s.layout = dpu::ArrayLayout::Ncl;
        QCOMPARE(dpu::readRawData(s).raw.train.pixels.sizes().vec(), (std::vector<int64_t>{40, 6, 1, 6}));
    }

    void npzStoredWithKerasNames()
    {
        compareToReference(dpu::readRawData(datasetSpec("npz", ownData("npz/data.npz"))), false);
    }

    void npzDeflated()
    {
        compareToReference(dpu::readRawData(datasetSpec("npz", ownData("npz/compressed.npz"))), true);
    }

    void npzHoldOut()
    {
        const auto got = dpu::readRawData(datasetSpec("npz", ownData("npz/holdout.npz")));
        QVERIFY(got.heldOut);
        QCOMPARE(got.raw.train.size() + got.raw.test.size(), int64_t{56});
        QCOMPARE(got.raw.test.size(), int64_t{11}); // round(56 * 0.2)
        // Fixed, whatever the plan's seed: reading again gives the same split.
        QVERIFY(sameTensor(dpu::readRawData(datasetSpec("npz", ownData("npz/holdout.npz"))).raw.test.labels, got.raw.test.labels));
        auto s = datasetSpec("npz", ownData("npz/holdout.npz"));
        s.testFraction = 0.5;
        QCOMPARE(dpu::readRawData(s).raw.test.size(), int64_t{28});
        // The counts a plan form checks its split against, without reading it twice.
        const auto size = dpu::readDatasetSize(datasetSpec("npz", ownData("npz/holdout.npz")));
        QCOMPARE(size.train, int64_t{45});
        QCOMPARE(size.test, int64_t{11});
    }

    void safetensorsEveryDtype_data()
    {
        QTest::addColumn<QString>("x");
        QTest::addColumn<QString>("y");
        QTest::addColumn<bool>("asFloat");
        QTest::newRow("U8") << "" << "" << false;
        QTest::newRow("F16") << "_f16" << "_i64" << true;
        QTest::newRow("BF16") << "_bf16" << "_i32" << true;
        QTest::newRow("F64") << "_f64" << "" << true;
    }
    void safetensorsEveryDtype()
    {
        QFETCH(QString, x);
        QFETCH(QString, y);
        QFETCH(bool, asFloat);
        auto s = datasetSpec("safetensors", ownData("safetensors/data.safetensors"));
        s.x = "x" + x.toStdString();
        s.xTest = "x_test" + x.toStdString();
        s.y = "y" + y.toStdString();
        s.yTest = "y_test" + y.toStdString();
        compareToReference(dpu::readRawData(s), asFloat);
    }

    void sizesFromHeaders()
    {
        for (const auto& s : {datasetSpec("npy", ownData("npy")), datasetSpec("safetensors", ownData("safetensors/data.safetensors")), datasetSpec("npz", ownData("npz/data.npz"))}) {
            const auto size = dpu::readDatasetSize(s);
            QCOMPARE(size.train, int64_t{40});
            QCOMPARE(size.test, int64_t{16});
        }
        auto limited = datasetSpec("npy", ownData("npy"));
        limited.trainLimit = 30;
        QCOMPARE(dpu::readDatasetSize(limited).train, int64_t{30});
    }

    void loadDataNormalisesFloatAndByteAlike()
    {
        // (p / 255 - m / 255) / (s / 255) = (p - m) / s: the uint8 and float32 files give the same inputs.
        const auto bytes = dpu::loadData(datasetSpec("npy", ownData("npy")));
        auto f = datasetSpec("npy", ownData("npy"));
        f.x = "x_f32";
        f.xTest = "x_test_f32";
        const auto floats = dpu::loadData(f);
        QVERIFY(torch::allclose(bytes.train.images, floats.train.images, 1e-5, 1e-5));
        QVERIFY(torch::allclose(bytes.test.images, floats.test.images, 1e-5, 1e-5));
        QVERIFY(bytes.shape == (dpu::InputShape{1, 6, 6}));
        QCOMPARE(bytes.classes, 4);
        QCOMPARE(bytes.description, std::string("npy (npy) 40 train / 16 test"));
    }
};

QTEST_GUILESS_MAIN(TestArrayReaders)
#include "test_array_readers.moc"
