// SPDX-License-Identifier: MIT
// Image folders (PNG, JPEG, test/ or hold-out, resizing) against the IDX reference; kind detection, the probe, model fit.
#include "TestSupport.h"
#include "data/Dataset.h"
#include "dpu/DataProbe.h"
#include "dpu/DataReadObserver.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "dpu/RunControl.h"
#include <QTemporaryDir>
#include <filesystem>

using dpu::DatasetSpec;
using dpu::test::datasetSpec;
using dpu::test::ownData;

namespace {

const dpu::RawDataset& reference()
{
    static const dpu::RawDataset r = dpu::readRawData(datasetSpec("idx", ownData("idx")));
    return r;
}

/// The reference's samples of `split` in the order an image folder lists them: by class, then file name.
std::pair<torch::Tensor, torch::Tensor> byClass(const dpu::data::RawSplit& split)
{
    const auto order = torch::argsort(split.labels * 1000 + torch::arange(split.size()));
    return {split.pixels.index_select(0, order), split.labels.index_select(0, order)};
}

} // namespace

class TestImageFolder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pngFolderIsIdenticalToIdx()
    {
        const auto got = dpu::readRawData(datasetSpec("images", ownData("images")));
        QCOMPARE(got.classNames, (std::vector<std::string>{"a", "b", "c", "d"}));
        QVERIFY(!got.heldOut);
        const auto [trainPixels, trainLabels] = byClass(reference().raw.train);
        const auto [testPixels, testLabels] = byClass(reference().raw.test);
        QVERIFY(torch::equal(got.raw.train.pixels, trainPixels));
        QVERIFY(torch::equal(got.raw.train.labels, trainLabels));
        QVERIFY(torch::equal(got.raw.test.pixels, testPixels));
        QVERIFY(torch::equal(got.raw.test.labels, testLabels));
        const auto size = dpu::readDatasetSize(datasetSpec("images", ownData("images")));
        QCOMPARE(size.train, int64_t{40});
        QCOMPARE(size.test, int64_t{16});
    }

    void trainAndTestFoldersAtTheRoot()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        std::filesystem::create_directory(root + "/train");
        for (const char* c : {"a", "b", "c", "d"})
            std::filesystem::copy(ownData("images/") + c, root + "/train/" + c);
        std::filesystem::copy(ownData("images/test"), root + "/test", std::filesystem::copy_options::recursive);
        const auto got = dpu::readRawData(datasetSpec("images", root));
        QCOMPARE(got.raw.train.size(), int64_t{40});
        QCOMPARE(got.raw.test.size(), int64_t{16});
        QCOMPARE(got.classNames.size(), size_t{4});
        QCOMPARE(dpu::readDatasetSize(datasetSpec("images", root)).test, int64_t{16});
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(root)), std::string("images"));
    }

    void jpegColourHeldOut()
    {
        const auto got = dpu::readRawData(datasetSpec("images", ownData("images-jpeg")));
        QVERIFY(got.heldOut);
        QCOMPARE(got.raw.train.pixels.sizes().vec(), (std::vector<int64_t>{32, 3, 12, 12}));
        QCOMPARE(got.raw.test.size(), int64_t{8});
        const auto size = dpu::readDatasetSize(datasetSpec("images", ownData("images-jpeg")));
        QCOMPARE(size.train, int64_t{32});
        QCOMPARE(size.test, int64_t{8});
        auto gray = datasetSpec("images", ownData("images-jpeg"));
        gray.channels = 1;
        QCOMPARE(dpu::readRawData(gray).raw.train.pixels.size(1), int64_t{1});
        auto few = datasetSpec("images", ownData("images-jpeg"));
        few.testFraction = 0.025; // round(40 * 0.025) = 1 test sample
        const auto all = dpu::readRawData(few);
        QCOMPARE(all.raw.train.size(), int64_t{39});
    }

    void resizedToOneSize()
    {
        auto s = datasetSpec("images", ownData("images-mixed"));
        DPU_EXPECT_THROW_MESSAGE(dpu::DataError, dpu::readRawData(s), "image size mismatch");
        s.imageHeight = s.imageWidth = 6;
        s.testFraction = 0.25;
        const auto got = dpu::readRawData(s);
        QCOMPARE(got.raw.train.pixels.sizes().vec(), (std::vector<int64_t>{6, 1, 6, 6}));
        s.imageHeight = 9;
        s.imageWidth = 7;
        QCOMPARE(dpu::readRawData(s).raw.test.pixels.sizes().vec(), (std::vector<int64_t>{2, 1, 9, 7}));
    }

    void detectsEveryKind()
    {
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(ownData("idx"))), std::string("idx"));
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(ownData("npy"))), std::string("npy"));
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(ownData("npz/data.npz"))), std::string("npz"));
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(ownData("safetensors/data.safetensors"))), std::string("safetensors"));
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(ownData("images"))), std::string("images"));
        QTemporaryDir dir;
        dpu::test::writeCifarFolder(dir.filePath("c10").toStdString(), false, 2, 2);
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(dir.filePath("c10").toStdString())), std::string("cifar10"));
        dpu::test::writeCifarFolder(dir.filePath("c100").toStdString(), true, 2, 2);
        QCOMPARE(dpu::nameOf(dpu::detectDatasetKind(dir.filePath("c100").toStdString())), std::string("cifar100"));
        DPU_EXPECT_THROW_MESSAGE(dpu::DataError, dpu::detectDatasetKind(ownData("npy/x.npy")), "x.npy", "choose the folder");
        DPU_EXPECT_THROW_MESSAGE(dpu::DataError, dpu::detectDatasetKind(dir.path().toStdString() + "/none"), "does not exist");
        std::filesystem::create_directory(dir.filePath("empty").toStdString());
        DPU_EXPECT_THROW_MESSAGE(dpu::DataError, dpu::detectDatasetKind(dir.filePath("empty").toStdString()), "no dataset found");
    }

    void probeDescribesWhatWasFound()
    {
        const auto p = dpu::probeDataset(datasetSpec("images", ownData("images")));
        QCOMPARE(p.train, int64_t{40});
        QCOMPARE(p.test, int64_t{16});
        QVERIFY(p.shape == (dpu::InputShape{1, 6, 6}));
        QCOMPARE(p.classes, 4);
        QCOMPARE(p.dtype, std::string("uint8"));
        QCOMPARE(p.perClass.size(), size_t{4});
        QCOMPARE(p.perClass[2].name, std::string("c"));
        QCOMPARE(p.perClass[2].train, int64_t{10});
        QCOMPARE(p.perClass[2].test, int64_t{4});
        auto windows = datasetSpec("npy", ownData("npy"));
        windows.x = "x_windows";
        windows.xTest = "x_test_windows";
        const auto w = dpu::probeDataset(windows);
        QVERIFY(w.shape == (dpu::InputShape{2, 1, 18}));
        QCOMPARE(w.layout, std::string("ncl"));
        QCOMPARE(w.dtype, std::string("float32"));
        QCOMPARE(w.perClass[0].name, std::string("0"));
        const auto h = dpu::probeDataset(datasetSpec("npz", ownData("npz/holdout.npz")));
        QVERIFY(h.heldOut);
        QVERIFY(h.description.find("(held out)") != std::string::npos);
    }

    /// A read of a big folder can be stopped between two images: the token is checked before
    /// each, and a cancel ends the read there with Cancelled (the runner's Stop, a probe the form
    /// no longer needs); the observer hears each image read.
    void aLongReadStopsAtTheNextImage()
    {
        struct Counting : dpu::DataReadObserver {
            dpu::RunControl control;
            int calls = 0, stopAt = 0;
            void imageRead() override
            {
                if (++calls == stopAt)
                    control.requestCancel();
            }
        };
        const DatasetSpec spec = datasetSpec("images", ownData("images"));
        Counting all;
        const auto p = dpu::probeDataset(spec, &all.control, &all);
        QCOMPARE(all.calls, static_cast<int>(p.train + p.test));
        Counting run;
        dpu::loadData(spec, &run.control, &run); // what a run reads, with the run's token
        QCOMPARE(run.calls, static_cast<int>(p.train + p.test));
        Counting stopped;
        stopped.stopAt = 5;
        QVERIFY_THROWS_EXCEPTION(dpu::Cancelled, dpu::probeDataset(spec, &stopped.control, &stopped));
        QCOMPARE(stopped.calls, 5); // nothing read after the stop
        dpu::RunControl before;
        before.requestCancel();
        QVERIFY_THROWS_EXCEPTION(dpu::Cancelled, dpu::probeDataset(spec, &before)); // not one image
    }

    void modelsThatFit()
    {
        QCOMPARE(dpu::modelFitProblem("mlp", {1, 6, 6}, 4), std::string());
        QCOMPARE(dpu::modelFitProblem("mlp", {2, 1, 18}, 4), std::string());
        QCOMPARE(dpu::modelFitProblem("resnet20", {2, 1, 18}, 4), std::string());
        QVERIFY(dpu::modelFitProblem("vgg", {1, 6, 6}, 4).find("8x8") != std::string::npos);
        QCOMPARE(dpu::modelFitProblem("vgg", {3, 12, 12}, 4), std::string());
        const std::string script = "torchscript:" + dpu::test::dataDir() + "/torchscript/tiny_mlp.pt";
        QCOMPARE(dpu::modelFitProblem(script, {1, 6, 6}, 10), std::string());
        QVERIFY(dpu::modelFitProblem(script, {1, 6, 6}, 4).find("expected [2, 4]") != std::string::npos);
        QVERIFY(!dpu::modelFitProblem(script, {3, 6, 6}, 10).empty()); // its first convolution takes one channel
        QVERIFY(dpu::modelFitProblem("nonsense", {1, 6, 6}, 4).find("unknown model") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestImageFolder)
#include "test_image_folder.moc"
