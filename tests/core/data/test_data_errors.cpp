// SPDX-License-Identifier: MIT
// Malformed own-data files: every error names the file and the problem (magic, truncation, counts, labels, dtypes, images).
#include "TestSupport.h"
#include "data/Dataset.h"
#include "data/DataReaders.h"
#include "dpu/DataFormats.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include <QTemporaryDir>
#include <filesystem>
#include <stdexcept>
#include <type_traits>

using dpu::DataError;
using dpu::DatasetSpec;
using dpu::test::ownData;

namespace {

DatasetSpec npySpec(const std::string& folder, const std::string& x, const std::string& y)
{
    DatasetSpec s;
    s.kind = dpu::DataKind::Npy;
    s.path = folder;
    s.x = x;
    s.y = y;
    return s;
}

/// A copy of the npy fixture folder in which `name` holds `bytes`.
std::string npyFolderWith(const QTemporaryDir& dir, const std::string& name, const std::vector<uint8_t>& bytes)
{
    const std::string folder = dir.path().toStdString() + "/npy";
    std::filesystem::copy(ownData("npy"), folder);
    dpu::test::writeFile(folder + "/" + name, bytes);
    return folder;
}

std::vector<uint8_t> cut(std::vector<uint8_t> bytes, size_t drop)
{
    bytes.resize(bytes.size() - drop);
    return bytes;
}

} // namespace

class TestDataErrors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void npyBadMagicAndTruncation()
    {
        QTemporaryDir dir;
        const auto good = dpu::test::readFile(ownData("npy/x.npy"));
        std::string folder = npyFolderWith(dir, "x.npy", {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(folder, "", "")), folder + "/x.npy", "bad magic");
        dpu::test::writeFile(folder + "/x.npy", cut(good, 5));
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(folder, "", "")), folder + "/x.npy", "truncated",
                                 "1440 data bytes", "1435");
        dpu::test::writeFile(folder + "/x.npy", cut(good, good.size() - 30)); // inside the header
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(folder, "", "")), folder + "/x.npy", "truncated");
        auto extra = good;
        extra.push_back(0);
        dpu::test::writeFile(folder + "/x.npy", extra);
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(folder, "", "")), folder + "/x.npy", "size mismatch",
                                 "1 trailing bytes");
        auto version = good;
        version[6] = 9;
        dpu::test::writeFile(folder + "/x.npy", version);
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(folder, "", "")), "unsupported .npy version 9.0");
        // An .npz handed over as an .npy file says what it is.
        dpu::test::writeFile(folder + "/x.npy", dpu::test::readFile(ownData("npz/data.npz")));
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(folder, "", "")), "ZIP archive (an .npz?)");
    }

    void countsLabelsAndDtypes()
    {
        const std::string f = ownData("npy");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x", "y_short")), f + "/y_short.npy", "wrong count",
                                 "39 labels", f + "/x.npy holds 40 samples");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x", "y_negative")), f + "/y_negative.npy",
                                 "label out of range: -1 at sample 5");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x", "y_gap")), "class 5 has no samples",
                                 "dataset.classes");
        auto given = npySpec(f, "x", "y_gap");
        given.classes = 10; // empty classes allowed when the count is given
        given.yTest = "y_test_i8";
        QCOMPARE(dpu::readRawData(given).classes, 10);
        given.classes = 3;
        given.y = "y";
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(given), "label out of range: 3, expected 0..2");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x", "y_float")), f + "/y_float.npy",
                                 "labels must be integers, found dtype float32");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x_fortran", "y")), f + "/x_fortran.npy",
                                 "Fortran order is not supported");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x_bool", "y")), f + "/x_bool.npy",
                                 "unsupported dtype '|b1'");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "x_u16", "y")), "unsupported dtype '<u2'");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(npySpec(f, "nope", "y")), f + "/nope.npy", "missing file");
        auto shape = npySpec(f, "x", "y");
        shape.xTest = "x_test_windows"; // test samples of another shape than the training ones
        shape.yTest = "y_test";
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(shape), f + "/x_test_windows.npy", "shape mismatch");
        auto layout = npySpec(f, "x", "y");
        layout.layout = dpu::ArrayLayout::Nhwc; // a 3-D array cannot be channels-last
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(layout), "does not fit dataset.layout \"nhwc\"");
        auto half = npySpec(f, "x", "y");
        half.yTest = "y_test";
        half.xTest = "x_missing";
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(half), f + "/x_missing.npy", "missing");
    }

    void npzArchives()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("d.npz").toStdString();
        DatasetSpec s;
        s.kind = dpu::DataKind::Npz;
        s.path = path;
        const auto good = dpu::test::readFile(ownData("npz/compressed.npz"));
        dpu::test::writeFile(path, cut(good, 30));
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), path, "truncated ZIP archive");
        auto damaged = good;
        for (size_t i = 200; i < 260; ++i) // inside the first member's deflated data
            damaged[i] ^= 0x5A;
        dpu::test::writeFile(path, damaged);
        const std::string m = dpu::test::thrownMessage<DataError>([&] { dpu::readRawData(s); });
        QVERIFY2(m.find(path + ":") == 0 && (m.find("corrupt") != std::string::npos || m.find("size mismatch") != std::string::npos ||
                                             m.find("truncated") != std::string::npos),
                 m.c_str());
        dpu::test::writeFile(path, dpu::test::readFile(ownData("npy/x.npy")));
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), path, "this is an .npy file");
        s.path = ownData("npz/data.npz");
        s.x = "features";
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), "missing array \"features\"", "x_train.npy");
        s.x.clear();
        s.path = ownData("npz/compressed.npz");
        s.y = "x_test"; // images as labels
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), "compressed.npz:x_test.npy", "labels of shape (16, 6, 6)");
    }

    void safetensorsFiles()
    {
        DatasetSpec s;
        s.kind = dpu::DataKind::Safetensors;
        s.path = ownData("safetensors/data.safetensors");
        s.x = "x_bool";
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), s.path, "tensor x_bool", "unsupported dtype BOOL");
        s.x = "pixels";
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), "missing tensor \"pixels\"", "x_f16");
        QTemporaryDir dir;
        const std::string path = dir.filePath("d.safetensors").toStdString();
        const auto good = dpu::test::readFile(s.path);
        dpu::test::writeFile(path, cut(good, 100));
        s.path = path;
        s.x.clear();
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), path, "truncated: the header's tensors need");
        auto longer = good;
        longer.push_back(1);
        dpu::test::writeFile(path, longer);
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), path, "1 bytes after the last tensor");
        dpu::test::writeFile(path, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, '{', '}'});
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), path, "bad magic");
    }

    void imageFolders()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString() + "/img";
        std::filesystem::copy(ownData("images"), root, std::filesystem::copy_options::recursive);
        DatasetSpec s;
        s.kind = dpu::DataKind::Images;
        s.path = root;
        dpu::test::writeFile(root + "/b/broken.png", {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0});
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), root + "/b/broken.png", "does not decode as PNG or JPEG");
        std::filesystem::remove(root + "/b/broken.png");
        std::filesystem::create_directory(root + "/e");
        dpu::test::writeFile(root + "/e/notes.txt", {'x'});
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), root + "/e", "class \"e\" has no samples");
        std::filesystem::remove_all(root + "/e");
        std::filesystem::copy_file(ownData("images-mixed/b/001.png"), root + "/c/zz-big.png");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), root + "/c/zz-big.png", "image size mismatch: 12x12",
                                 "dataset.image_size");
        std::filesystem::remove(root + "/c/zz-big.png");
        std::filesystem::create_directories(root + "/test/z");
        std::filesystem::copy_file(ownData("images/a/000.png"), root + "/test/z/0.png");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(s), root + "/test/z", "test class \"z\" has no training folder");
        DatasetSpec empty;
        empty.kind = dpu::DataKind::Images;
        empty.path = dir.path().toStdString();
        std::filesystem::create_directory(dir.path().toStdString() + "/only-files");
        DPU_EXPECT_THROW_MESSAGE(DataError, dpu::readRawData(empty), "class \"img\"");
    }

    /// A defect is not a user's error (issue 43): DPU_INTERNAL_CHECK and DPU_UNREACHABLE throw
    /// InternalError, which no `catch (const dpu::Error&)` takes, naming the file and line and
    /// asking to report it; a check that holds costs nothing, not even its message.
    void defectsAreInternalErrors()
    {
        bool built = false;
        const auto message = [&built] {
            built = true;
            return std::string("the invariant");
        };
        DPU_INTERNAL_CHECK(1 + 1 == 2, message());
        QVERIFY(!built);
        const int line = __LINE__ + 2;
        const std::string m = dpu::test::thrownMessage<dpu::InternalError>(
            [&] { DPU_INTERNAL_CHECK(1 + 1 == 3, message()); });
        QVERIFY(built);
        const std::string expected = "tests/core/data/test_data_errors.cpp:" + std::to_string(line)
                                     + ": the invariant (an engine defect: please report it)";
        QVERIFY2(m.size() >= expected.size() && m.compare(m.size() - expected.size(), expected.size(), expected) == 0,
                 m.c_str());
        QVERIFY2(m.rfind('/', 0) != 0, m.c_str()); // from the project's top folder, not the build's root
        static_assert(std::is_base_of_v<std::logic_error, dpu::InternalError>);
        static_assert(!std::is_base_of_v<dpu::Error, dpu::InternalError>);
        bool asUserError = false;
        try {
            try {
                DPU_UNREACHABLE("no valid state comes here");
            } catch (const dpu::Error&) {
                asUserError = true;
            }
        } catch (const dpu::InternalError& e) {
            QVERIFY(std::string(e.what()).find("test_data_errors.cpp:") != std::string::npos);
            QVERIFY(dpu::failureText(e).rfind("internal error: ", 0) == 0);
        }
        QVERIFY(!asUserError);
        // The unreachable ends of the data layer's lookups: a kind outside the enum is a defect.
        const auto bogus = static_cast<dpu::DataKind>(99);
        DPU_EXPECT_THROW_MESSAGE(dpu::InternalError, dpu::dataFormat(bogus), "core/src/data/DataFormats.cpp:",
                                 "data kind 99");
        DPU_EXPECT_THROW_MESSAGE(dpu::InternalError, dpu::data::dataReader(bogus), "core/src/data/DataReaders.cpp:",
                                 "data kind 99");
        QCOMPARE(dpu::failureText(DataError("x.npy: truncated")), std::string("x.npy: truncated"));
    }
};

QTEST_GUILESS_MAIN(TestDataErrors)
#include "test_data_errors.moc"
