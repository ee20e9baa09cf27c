// SPDX-License-Identifier: MIT
// The plan form's own-data flow: a picked path's kind is detected, what it holds shown, the model list
// filtered to the models that fit, bad data refused at the field, and a short run of each format trains.
#include "MainWindow.h"
#include "TestSupport.h"
#include "UiTestSupport.h"
#include "dpu/DataProbe.h"
#include "dpu/Models.h"
#include "panels/PlanPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/ProbeWorker.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGuiApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QtTest/QtTest>
#include <filesystem>

using dpu::ui::MainWindow;
using dpu::ui::PlanPanel;

namespace {
constexpr int kProbeTimeoutMs = 60000;
constexpr int kRunTimeoutMs = 120000;

QString ownData(const char* sub)
{
    return QString::fromStdString(dpu::test::ownData(sub));
}

/// Types `path` into the dataset field as a user would, and waits for the form to have read it.
bool pick(PlanPanel* panel, const QString& path)
{
    panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(path);
    return QTest::qWaitFor([panel] { return !panel->probePending(); }, kProbeTimeoutMs) && panel->currentProbe();
}

/// The plan's JSON by line: a difference is reported at its line.
QStringList jsonLines(const dpu::Plan& plan)
{
    return QString::fromStdString(dpu::planToJson(plan)).split(QLatin1Char('\n'));
}

QString kindShown(PlanPanel* panel)
{
    return panel->findChild<QComboBox*>(QStringLiteral("datasetKind"))->currentData().toString();
}
} // namespace

class TestUiDataset : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    void formats()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("kind");
        QTest::newRow("idx") << ownData("idx") << "idx";
        QTest::newRow("npy") << ownData("npy") << "npy";
        QTest::newRow("npz stored") << ownData("npz/data.npz") << "npz";
        QTest::newRow("npz deflated") << ownData("npz/compressed.npz") << "npz";
        QTest::newRow("npz held out") << ownData("npz/holdout.npz") << "npz";
        QTest::newRow("safetensors") << ownData("safetensors/data.safetensors") << "safetensors";
        QTest::newRow("png folders") << ownData("images") << "images";
        QTest::newRow("jpeg folders") << ownData("images-jpeg") << "images";
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
    }

    void detectsSummarisesAndFiltersModels_data() { formats(); }
    void detectsSummarisesAndFiltersModels()
    {
        QFETCH(QString, path);
        QFETCH(QString, kind);
        MainWindow w;
        PlanPanel* panel = w.planPanel();
        // The data is read on the form's own worker thread, not the GUI thread.
        auto* reader = panel->findChild<QThread*>(QStringLiteral("dpu-probe"));
        QVERIFY(reader && reader->isRunning() && reader != QThread::currentThread());
        // Start from another kind, so the detection has something to change.
        panel->findChild<QComboBox*>(QStringLiteral("datasetKind"))->setCurrentIndex(kind == "cifar10" ? 0 : 1);
        QVERIFY(pick(panel, path));
        QCOMPARE(kindShown(panel), kind);
        QCOMPARE(QString::fromStdString(dpu::nameOf(panel->plan().dataset.kind)), kind);
        QVERIFY2(panel->currentProbe()->error.empty(), panel->currentProbe()->error.c_str());
        // The automatic name says which data: own data by its file or folder name.
        const QFileInfo where(path);
        const QString data = kind == "idx" ? QStringLiteral("idx") : where.isFile() ? where.completeBaseName() : where.fileName();
        QCOMPARE(panel->findChild<QLineEdit*>(QStringLiteral("name"))->text(), QStringLiteral("%1-mlp-k0.01").arg(data));

        // The summary is the engine's own reading of the data.
        dpu::DatasetSpec spec;
        spec.kind = *dpu::enumFromString<dpu::DataKind>(kind.toStdString());
        spec.path = path.toStdString();
        const dpu::DataProbe expected = dpu::probeDataset(spec);
        const QString summary = panel->findChild<QLabel*>(QStringLiteral("datasetInfo"))->text();
        const QString shape = QStringLiteral("%1×%2×%3").arg(expected.shape.channels).arg(expected.shape.height).arg(expected.shape.width);
        QVERIFY2(summary.contains(QStringLiteral("%L1 train / %L2 test").arg(expected.train).arg(expected.test)), qPrintable(summary));
        QVERIFY2(summary.contains(shape), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("%1 classes").arg(expected.classes)), qPrintable(summary));
        // Class balance: every class with its samples, or (many classes) the fewest and the most.
        if (expected.perClass.size() <= 6) {
            for (const dpu::ClassInfo& c : expected.perClass)
                QVERIFY2(summary.contains(QStringLiteral("%1 %L2").arg(QString::fromStdString(c.name)).arg(c.train)), qPrintable(summary));
        } else {
            int64_t fewest = expected.perClass[0].train, most = fewest;
            for (const dpu::ClassInfo& c : expected.perClass) {
                fewest = std::min(fewest, c.train);
                most = std::max(most, c.train);
            }
            QVERIFY2(summary.contains(QStringLiteral("fewest %L1 (").arg(fewest)), qPrintable(summary));
            QVERIFY2(summary.contains(QStringLiteral("most %L1 (").arg(most)), qPrintable(summary));
        }
        QCOMPARE(expected.heldOut, summary.contains(QStringLiteral("held out")));

        // Offered: exactly the models that fit; the others say why.
        auto* model = panel->findChild<QComboBox*>(QStringLiteral("model"));
        auto* items = qobject_cast<QStandardItemModel*>(model->model());
        int refused = 0;
        for (const std::string& name : dpu::builtinModels()) {
            const std::string problem = dpu::modelFitProblem(name, expected.shape, expected.classes);
            QStandardItem* item = items->item(model->findText(QString::fromStdString(name)));
            QCOMPARE(item->isEnabled(), problem.empty());
            if (!problem.empty()) {
                ++refused;
                QVERIFY2(item->toolTip().contains(QString::fromStdString(problem)), qPrintable(item->toolTip()));
            }
        }
        if (expected.shape.height < 8) // vgg's five poolings need 8 x 8 at least: the filter is exercised
            QVERIFY2(refused > 0, "tiny samples: some of the zoo cannot take them");
        panel->validate();
        QVERIFY2(panel->fieldError(QStringLiteral("dataset.path")).isEmpty(), qPrintable(panel->errorText()));
        QVERIFY2(panel->fieldError(QStringLiteral("model")).isEmpty(), qPrintable(panel->errorText())); // mlp fits all
    }

    /// A probe the fields have outdated, or that the window closes on, stops instead of reading on.
    void outdatedProbeStops()
    {
        dpu::ui::ProbeWorker worker;
        dpu::ui::ProbeRequest r;
        r.id = 1;
        r.spec.kind = dpu::DataKind::Images;
        r.spec.path = ownData("images").toStdString();
        r.models = {"mlp"};
        worker.cancelBefore(2);
        const dpu::ui::ProbeResult stale = worker.probeNow(r);
        QVERIFY(stale.cancelled);
        QVERIFY(stale.error.empty() && stale.fits.empty() && stale.probe.train == 0);
        r.id = 2;
        const dpu::ui::ProbeResult fresh = worker.probeNow(r);
        QVERIFY2(!fresh.cancelled && fresh.error.empty(), fresh.error.c_str());
        QCOMPARE(fresh.probe.train, int64_t{40});
        QCOMPARE(fresh.fits.size(), size_t{1});

        // The form: a path typed while another is read gets the newer answer; closing mid-read is clean.
        auto* w = new MainWindow;
        PlanPanel* panel = w->planPanel();
        auto* path = panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"));
        path->setText(ownData("npz/holdout.npz"));
        QVERIFY(QTest::qWaitFor([panel] { return panel->probePending(); }, kProbeTimeoutMs));
        QVERIFY(pick(panel, ownData("images")));
        QCOMPARE(kindShown(panel), QStringLiteral("images"));
        QCOMPARE(panel->currentProbe()->probe.train, int64_t{40});
        path->setText(ownData("npy"));
        delete w;
    }

    /// Closed while a typed path's kind was still being found: the next start finds it.
    void noErrorOfTheOldKindWhileDetecting()
    {
        MainWindow w;
        PlanPanel* panel = w.planPanel();
        QCOMPARE(kindShown(panel), QStringLiteral("idx"));
        auto* path = panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"));
        path->setText(ownData("npz/data.npz"));
        // Until its kind is known the file is not judged as IDX (it used to be marked red with
        // IDX's error until the probe answered), and the plan cannot run yet.
        QVERIFY(panel->detectingKind());
        QVERIFY2(panel->fieldError(QStringLiteral("dataset.path")).isEmpty(), qPrintable(panel->errorText()));
        QVERIFY(!panel->isValid());
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY2(w.runAction()->toolTip().contains(QStringLiteral("still being detected")), qPrintable(w.runAction()->toolTip()));
        QVERIFY(!w.startRun());
        QVERIFY(QTest::qWaitFor([panel] { return !panel->probePending(); }, kProbeTimeoutMs));
        QCOMPARE(kindShown(panel), QStringLiteral("npz"));
        QVERIFY2(panel->fieldError(QStringLiteral("dataset.path")).isEmpty(), qPrintable(panel->errorText()));
        QVERIFY(!w.runAction()->toolTip().contains(QStringLiteral("still being detected")));
        // Nothing there is marked at once: no kind would find it.
        path->setText(tmp_.filePath(QStringLiteral("nothing-here")));
        QVERIFY(panel->fieldError(QStringLiteral("dataset.path")).contains(QStringLiteral("not found")));
    }

    void kindDetectedAfterARestart()
    {
        {
            MainWindow w;
            w.show();
            w.planPanel()->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(ownData("npz/data.npz"));
            QVERIFY(w.planPanel()->detectingKind());
            QVERIFY(w.close());
        }
        MainWindow again;
        PlanPanel* panel = again.planPanel();
        QCOMPARE(panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->text(), ownData("npz/data.npz"));
        QVERIFY(QTest::qWaitFor([panel] { return !panel->probePending(); }, kProbeTimeoutMs));
        QCOMPARE(kindShown(panel), QStringLiteral("npz"));
        QVERIFY2(panel->currentProbe() && panel->currentProbe()->error.empty(), qPrintable(panel->errorText()));
        QVERIFY(!panel->detectingKind());
        QSettings().clear(); // the tests after this one start from the default plan
    }

    void modelThatDoesNotFitIsRefusedAtItsField()
    {
        MainWindow w;
        PlanPanel* panel = w.planPanel();
        QVERIFY(pick(panel, ownData("npy")));
        // A TorchScript model for 1x28x28 samples and 10 classes: one forward pass says no.
        const QString script = QStringLiteral("torchscript:") + QString::fromStdString(dpu::test::dataDir()) + "/torchscript/tiny_mlp.pt";
        QComboBox* model = panel->findChild<QComboBox*>(QStringLiteral("model"));
        // Once the data is read, the file is described on the GUI thread under a wait cursor,
        // which goes however that ends: here after a damaged file's refusal too.
        const QString damaged = QStringLiteral("torchscript:") + QString::fromStdString(dpu::test::dataDir()) +
                                "/torchscript/damaged_storage.pt";
        model->setCurrentText(damaged);
        QVERIFY(QTest::qWaitFor([panel] { return !panel->probePending(); }, kProbeTimeoutMs));
        QVERIFY(QGuiApplication::overrideCursor() == nullptr);
        const QString refused = panel->findChild<QLabel*>(QStringLiteral("modelInfo"))->property("error").toString();
        QVERIFY2(refused.contains(QStringLiteral("damaged_storage.pt")) && refused.contains(QStringLiteral("is damaged")),
                 qPrintable(refused));
        model->setCurrentText(script);
        QVERIFY(QGuiApplication::overrideCursor() == nullptr);
        QVERIFY(QTest::qWaitFor([panel] { return !panel->probePending(); }, kProbeTimeoutMs));
        QVERIFY(!panel->validate());
        QVERIFY2(panel->fieldError(QStringLiteral("model")).contains(QStringLiteral("tiny_mlp.pt")), qPrintable(panel->errorText()));
        QVERIFY(!w.runAction()->isEnabled());

        // On data of its shape it fits.
        const QString idx = tmp_.filePath(QStringLiteral("idx28"));
        dpu::test::writeIdxFolder(idx.toStdString(), 120, 60);
        QVERIFY(pick(panel, idx));
        QVERIFY2(panel->fieldError(QStringLiteral("model")).isEmpty(), qPrintable(panel->errorText()));
    }

    void badDataIsShownAtTheFieldAndRefused()
    {
        MainWindow w;
        PlanPanel* panel = w.planPanel();
        // labels one short of the images
        const QString folder = tmp_.filePath(QStringLiteral("short-labels"));
        std::filesystem::copy(dpu::test::ownData("npy"), folder.toStdString());
        std::filesystem::copy_file(dpu::test::ownData("npy/y_short.npy"), folder.toStdString() + "/y.npy",
                                   std::filesystem::copy_options::overwrite_existing);
        QVERIFY(pick(panel, folder));
        QCOMPARE(kindShown(panel), QStringLiteral("npy"));
        const QString error = panel->fieldError(QStringLiteral("dataset.path"));
        QVERIFY2(error.contains(QStringLiteral("y.npy")), qPrintable(error));
        QVERIFY(panel->errorLabelFor(QStringLiteral("dataset.path"))->isVisibleTo(panel));
        QVERIFY(!panel->validate());
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("datasetInfo"))->text().isEmpty());

        // A folder with nothing the engine reads: the detection says what it looked for.
        const QString empty = tmp_.filePath(QStringLiteral("nothing"));
        QVERIFY(QDir().mkpath(empty));
        QVERIFY(pick(panel, empty));
        QVERIFY2(panel->fieldError(QStringLiteral("dataset.path")).contains(QStringLiteral("no dataset found")),
                 qPrintable(panel->errorText()));
        QVERIFY(!w.runAction()->isEnabled());
    }

    void formKeepsEveryDatasetField()
    {
        MainWindow w;
        PlanPanel* panel = w.planPanel();
        dpu::Plan plan = dpu::defaultPlan();
        plan.name = "kept";
        dpu::DatasetSpec& d = plan.dataset;
        d.kind = dpu::DataKind::Images;
        d.path = ownData("images-mixed").toStdString();
        d.trainLimit = 7;
        d.testLimit = 3;
        d.x = "xs";
        d.y = "ys";
        d.xTest = "xts";
        d.yTest = "yts";
        d.layout = dpu::ArrayLayout::Nhwc;
        d.testFraction = 0.25;
        d.classes = 4;
        d.imageHeight = 6;
        d.imageWidth = 5;
        d.channels = 1;
        d.normalise = dpu::Normalise::Given;
        d.mean = {0.25};
        d.std = {0.5};
        d.augment.cropPadding = 2;
        d.augment.flip = true;
        plan.train.batch = 7;
        plan.widthMultiplier = 0.5;
        plan.strategies = {"fu", "dpu"}; // the form lists strategies in the engine's order
        QCOMPARE(dpu::strategyNames()[0], std::string("fu"));
        QCOMPARE(dpu::strategyNames()[1], std::string("dpu"));
        panel->setPlan(plan);
        QCOMPARE(jsonLines(panel->plan()), jsonLines(plan));
        QCOMPARE(panel->findChild<QComboBox*>(QStringLiteral("normalise"))->currentData().toString(), QStringLiteral("given"));
        QCOMPARE(panel->findChild<QSpinBox*>(QStringLiteral("cropPadding"))->value(), 2);
        QVERIFY(panel->findChild<QCheckBox*>(QStringLiteral("flip"))->isChecked());
        // Still identical once the data has been read (the probe changes no field of a plan that names its kind).
        QVERIFY(QTest::qWaitFor([panel] { return !panel->probePending(); }, kProbeTimeoutMs));
        QCOMPARE(jsonLines(panel->plan()), jsonLines(plan));

        // The toggles a user sets land in the plan.
        panel->findChild<QComboBox*>(QStringLiteral("normalise"))->setCurrentIndex(
            panel->findChild<QComboBox*>(QStringLiteral("normalise"))->findData(QStringLiteral("first_round")));
        panel->findChild<QSpinBox*>(QStringLiteral("cropPadding"))->setValue(0);
        panel->findChild<QCheckBox*>(QStringLiteral("flip"))->setChecked(false);
        const dpu::Plan edited = panel->plan();
        QCOMPARE(dpu::nameOf(edited.dataset.normalise), std::string("first_round"));
        QVERIFY(!edited.dataset.augment.enabled());
        QCOMPARE(edited.dataset.x, std::string("xs")); // hidden fields stay
        QCOMPARE(edited.dataset.imageWidth, 5);
    }

    void shortRunFromTheFormTrains_data() { formats(); }
    void shortRunFromTheFormTrains()
    {
        QFETCH(QString, path);
        QFETCH(QString, kind);
        MainWindow w;
        w.setAskBeforeClosingRun(false);
        w.runQueue()->setOutputRoot(tmp_.filePath(QStringLiteral("runs-") + QString::fromLatin1(QTest::currentDataTag()).replace(' ', '-')));
        PlanPanel* panel = w.planPanel();
        QVERIFY(pick(panel, path));
        QCOMPARE(kindShown(panel), kind);
        panel->findChild<QSpinBox*>(QStringLiteral("splitInitial"))->setValue(16);
        panel->findChild<QSpinBox*>(QStringLiteral("splitPerRound"))->setValue(8);
        panel->findChild<QSpinBox*>(QStringLiteral("splitRounds"))->setValue(2);
        panel->findChild<QSpinBox*>(QStringLiteral("splitValidation"))->setValue(4);
        panel->findChild<QSpinBox*>(QStringLiteral("epochs"))->setValue(1);
        for (const auto& s : dpu::strategyNames())
            panel->findChild<QCheckBox*>(QStringLiteral("strategy_") + QString::fromStdString(s))->setChecked(s == "dpu");
        panel->findChild<QLineEdit*>(QStringLiteral("seeds"))->setText(QStringLiteral("3"));
        panel->findChild<QComboBox*>(QStringLiteral("device"))->setCurrentText(dpu::uitest::uiTestDevice());
        panel->findChild<QCheckBox*>(QStringLiteral("flip"))->setChecked(true); // preprocessing from the form
        QVERIFY2(panel->validate(), qPrintable(panel->errorText()));

        QSignalSpy finished(&w, &MainWindow::runsFinished);
        QSignalSpy summaries(w.runQueue(), &dpu::ui::RunQueue::runFinished);
        QSignalSpy failures(w.runQueue(), &dpu::ui::RunQueue::runFailed);
        w.runAction()->trigger();
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY2(failures.isEmpty(), failures.isEmpty() ? "" : qPrintable(failures[0][1].toString()));
        QCOMPARE(summaries.size(), 1);
        const auto summary = summaries[0][1].value<dpu::RunSummary>();
        QVERIFY(!summary.cancelled);
        QCOMPARE(summary.records.size(), size_t(2)); // 2 rounds of dpu
        for (const dpu::RoundRecord& r : summary.records)
            QVERIFY(r.testAccuracy >= 0 && r.testAccuracy <= 1);
    }
};

QTEST_MAIN(TestUiDataset)
#include "test_ui_dataset.moc"
