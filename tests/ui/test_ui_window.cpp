// SPDX-License-Identifier: MIT
// Tests of the main window without training: cost readout, validation, plan files and settings (charts and the rounds table: test_ui_results).
#include "MainWindow.h"
#include "dpu/LinkModel.h"
#include "dpu/Runner.h"
#include "UiTestSupport.h"
#include "dpu/Plan.h"
#include "panels/CostReadout.h"
#include "panels/PlanPanel.h"
#include "panels/SweepTargetBox.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QtTest/QtTest>
#include <cmath>

using dpu::ui::MainWindow;

class TestUiWindow : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dpu::uitest::isolateSettings(tmp_.filePath(QStringLiteral("settings")));
    }

    /// Runs and sweeps go to one folder of the program's own, named once (the organisation and
    /// the application both in the path read "DPU Planner/dpu-planner").
    void defaultFoldersNameTheProgramOnce()
    {
        // As dpu-planner's main names them; settings stay in the scratch folder (isolateSettings' path).
        const QString organisation = QCoreApplication::organizationName(), application = QCoreApplication::applicationName();
        QCoreApplication::setOrganizationName(QStringLiteral("DPU Planner"));
        QCoreApplication::setApplicationName(QStringLiteral("dpu-planner"));
        const QString runs = MainWindow().runQueue()->outputRoot(), sweeps = dpu::ui::SweepTargetBox::defaultFolder();
        QCoreApplication::setOrganizationName(organisation);
        QCoreApplication::setApplicationName(application);
        QVERIFY2(runs.endsWith(QStringLiteral("/dpu-planner/runs")) && !runs.contains(QStringLiteral("DPU Planner")), qPrintable(runs));
        QCOMPARE(QFileInfo(sweeps).dir().absolutePath(), QFileInfo(runs).dir().absolutePath());
    }

    void costReadoutShowsBytesForK()
    {
        MainWindow w;
        dpu::ui::PlanPanel* panel = w.planPanel();
        panel->findChild<QComboBox*>(QStringLiteral("model"))->setCurrentText(QStringLiteral("mlp"));
        panel->findChild<QComboBox*>(QStringLiteral("datasetKind"))->setCurrentIndex(0);
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->setValue(0.01);
        dpu::ui::CostReadout* cost = panel->costReadout();
        // DESIGN.md / README: one DPU round of the MLP at k = 0.01 is 37.6 KB.
        QCOMPARE(qRound64(cost->bytesPerRound()), qint64(37637));
        QVERIFY2(cost->bytesText().startsWith(QStringLiteral("37637 B")), qPrintable(cost->bytesText()));
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("modelInfo"))->text().contains(QStringLiteral("fp32")));
        // Per device: one device's session on the plan's own link (fleet.link: LoRaWAN EU868 at
        // SF7 on the 1 % sub-band, 200 devices by default), as core's linkRound has it; the duty
        // cycle makes it far longer than the bare 5.5 kbit/s the row once divided by.
        const auto bytes = static_cast<int64_t>(std::ceil(cost->bytesPerRound()));
        QVERIFY(cost->hasLink());
        QCOMPARE(cost->transferSeconds(), dpu::linkRound(dpu::lorawanEu868(7, 0.01), bytes, 200).deviceSeconds);
        QVERIFY(cost->transferSeconds() > 50 * 37637.0 * 8 / 5500);
        // The Link row is the plan's fleet.link: choosing NB-IoT there changes the plan and the row.
        auto* link = panel->findChild<QComboBox*>(QStringLiteral("planLink"));
        QVERIFY(link);
        const int nb = link->findData(QStringLiteral("nb-iot-nb2"));
        QVERIFY(nb > 0);
        link->setCurrentIndex(nb);
        Q_EMIT link->activated(nb);
        QCOMPARE(panel->plan().fleet.link.link, std::string("nb-iot-nb2"));
        QCOMPARE(cost->link().key, std::string("nb-iot-nb2"));
        QCOMPARE(cost->transferSeconds(), dpu::linkRound(dpu::nbIot(2), bytes, 200).deviceSeconds);
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("costTime"))->text().contains(QStringLiteral(" J")));
        // k = 1 costs exactly a full round.
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->setValue(1.0);
        QCOMPARE(cost->bytesPerRound(), cost->fullBytesPerRound());
        // A k of several digits shows whole in its field ("0.001" for 0.001763 at 1366x768).
        {
            w.resize(1366, 768);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* kField = panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"));
            kField->setValue(0.001763);
            QCoreApplication::processEvents();
            const QLineEdit* line = kField->findChild<QLineEdit*>();
            QVERIFY(line);
            QCOMPARE(line->text(), QStringLiteral("0.001763"));
            QVERIFY2(line->width() >= line->fontMetrics().horizontalAdvance(line->text()),
                     qPrintable(QString::number(line->width())));
        }
        // k = 1e-7 changes no weight of the MLP's 668,672: said, not priced silently.
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->setValue(1e-7);
        QVERIFY2(cost->bytesText().contains(QStringLiteral("no weight changes")), qPrintable(cost->bytesText()));
        // An invalid k (the field marks it) shows no figure, and no basis beside none.
        cost->setK(0);
        QCOMPARE(cost->bytesText(), QStringLiteral("–"));
    }

    /// An INT8 or sparse plan: the bytes are priced as the run prices them (8-bit codes; positions
    /// among the nonzeros), the ratio names both full updates (FP32's, the paper's reference, and
    /// the deployed model's own) and the per-device row's full is the deployed model's.
    void costReadoutPricesTheDeployedForm()
    {
        MainWindow w;
        dpu::ui::PlanPanel* panel = w.planPanel();
        dpu::Plan plan = panel->plan();
        plan.model = "mlp";
        plan.k = 0.01;
        panel->setPlan(plan);
        dpu::ui::CostReadout* cost = panel->costReadout();
        auto* ratio = panel->findChild<QLabel*>(QStringLiteral("costRatio"));
        auto* time = panel->findChild<QLabel*>(QStringLiteral("costTime"));
        const double fp32Bytes = cost->bytesPerRound();
        QCOMPARE(cost->deployedFullBytes(), cost->fullBytesPerRound());
        QVERIFY2(ratio->text().contains(QStringLiteral("(full: ")), qPrintable(ratio->text()));

        plan.deployed = dpu::DeployedForm::Int8;
        panel->setPlan(plan);
        QCOMPARE(cost->costModel().valueBits, 8);
        QCOMPARE(cost->costModel().scaleValues, int64_t(1034)); // 512 + 512 + 10 output channels
        // What an INT8 run's FU round is priced at, its biases as codes (int8_biases, the default):
        // `dpu-cli cost --deployed int8` says the same (test_cli).
        QCOMPARE(cost->costModel().codedDenseWeights, int64_t(1034));
        QCOMPARE(cost->deployedFullBytes(), 673854.0);
        QCOMPARE(cost->fullBytesPerRound(), 4.0 * (668672 + 1034));
        QCOMPARE(cost->bytesPerRound(), dpu::partialRoundBits(cost->costModel(), 0.01) / 8);
        QVERIFY(cost->bytesPerRound() < fp32Bytes);
        const QString int8Text = ratio->text();
        QVERIFY2(int8Text.contains(QStringLiteral("of FP32's 2.68 MB")) && int8Text.contains(QStringLiteral("of INT8's 673.9 KB")),
                 qPrintable(int8Text));
        QVERIFY2(int8Text.contains(QString::number(cost->bytesPerRound() / 673854.0, 'g', 4)), qPrintable(int8Text));
        plan.int8Biases = dpu::Int8Biases::Float; // float biases: 32 bits each again
        panel->setPlan(plan);
        QCOMPARE(cost->deployedFullBytes(), 676944.0);
        plan.int8Biases = dpu::Int8Biases::Codes;
        panel->setPlan(plan);
        // At 1366x768 the row holds the whole text, wrapped, not cut at the right edge.
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCoreApplication::processEvents();
        QVERIFY2(ratio->wordWrap() && ratio->height() >= ratio->heightForWidth(ratio->width()),
                 qPrintable(QStringLiteral("%1 x %2, needs %3").arg(ratio->width()).arg(ratio->height()).arg(ratio->heightForWidth(ratio->width()))));
        QVERIFY2(time->text().contains(QStringLiteral("full INT8: ")), qPrintable(time->text()));
        const auto fullInt8 = dpu::linkRound(cost->link(), 676944, 200).deviceSeconds;
        QVERIFY(fullInt8 < dpu::linkRound(cost->link(), static_cast<int64_t>(cost->fullBytesPerRound()), 200).deviceSeconds);

        plan.deployed = dpu::DeployedForm::Sparse;
        plan.deployedSparsity = 0.5;
        panel->setPlan(plan);
        QCOMPARE(cost->costModel().nonzeroWeights, int64_t(668672 / 2));
        QCOMPARE(cost->bytesPerRound(), dpu::partialRoundBits(cost->costModel(), 0.01) / 8);
        QVERIFY(cost->bytesPerRound() < fp32Bytes); // positions among half the weights
        QVERIFY2(ratio->text().contains(QStringLiteral("of sparse's ")), qPrintable(ratio->text()));
        QVERIFY2(time->text().contains(QStringLiteral("full sparse: ")), qPrintable(time->text()));
    }

    void kSliderIsLogarithmic()
    {
        using dpu::ui::PlanPanel;
        QVERIFY(qAbs(PlanPanel::kForSliderPos(0) - 0.0005) < 1e-12);
        QVERIFY(qAbs(PlanPanel::kForSliderPos(1000) - 1.0) < 1e-12);
        QCOMPARE(PlanPanel::sliderPosForK(PlanPanel::kForSliderPos(437)), 437);
        MainWindow w;
        auto* slider = w.planPanel()->findChild<QSlider*>(QStringLiteral("kSlider"));
        auto* spin = w.planPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("k"));
        slider->setValue(PlanPanel::sliderPosForK(0.1));
        QVERIFY2(qAbs(spin->value() - 0.1) < 0.002, qPrintable(QString::number(spin->value())));
        spin->setValue(0.001);
        QCOMPARE(slider->value(), PlanPanel::sliderPosForK(0.001));
    }

    void invalidInputIsMarkedAndDoesNotRun()
    {
        MainWindow w;
        dpu::ui::PlanPanel* panel = w.planPanel();
        dpu::uitest::fillPlanForm(w, dpu::uitest::datasetFolder(tmp_.path()), 300, 300, 2, 1, {"dpu", "fu"});
        QVERIFY(panel->isValid());
        QVERIFY(w.runAction()->isEnabled());
        for (QCheckBox* c : panel->findChildren<QCheckBox*>())
            if (c->objectName().startsWith(QStringLiteral("strategy_")))
                c->setChecked(false);
        QVERIFY(!panel->isValid());
        QVERIFY2(panel->fieldError(QStringLiteral("strategies")).contains(QStringLiteral("at least one strategy")),
                 qPrintable(panel->errorText()));
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("planErrors"))->text().contains(QStringLiteral("strategies")));
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY(!w.startRun());
        QVERIFY(!w.runQueue()->isBusy());

        panel->findChild<QCheckBox*>(QStringLiteral("strategy_dpu"))->setChecked(true);
        QVERIFY(panel->isValid());
        // The engine's reason, at the field: k = 0 is outside (0, 1].
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->setValue(0);
        QVERIFY2(panel->fieldError(QStringLiteral("k")).contains(QStringLiteral("(0, 1]")), qPrintable(panel->errorText()));
        QVERIFY(panel->fieldFor(QStringLiteral("k"))->toolTip().contains(QStringLiteral("(0, 1]")));
        panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->setValue(0.01);
        panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(tmp_.filePath(QStringLiteral("nowhere")));
        QVERIFY(panel->fieldError(QStringLiteral("dataset.path")).startsWith(QStringLiteral("folder not found")));
        QVERIFY(!w.startRun());
        panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(dpu::uitest::datasetFolder(tmp_.path()));
        panel->findChild<QLineEdit*>(QStringLiteral("seeds"))->setText(QStringLiteral("1, x"));
        QVERIFY(panel->fieldError(QStringLiteral("seeds")).contains(QStringLiteral("\"x\"")));
        QVERIFY(!w.runQueue()->isBusy());
    }

    void planSaveAndLoadRoundTrip()
    {
        const QString path = tmp_.filePath(QStringLiteral("round-trip.json"));
        dpu::Plan saved;
        {
            MainWindow w;
            dpu::uitest::fillPlanForm(w, dpu::uitest::datasetFolder(tmp_.path()), 500, 250, 7, 3, {"dpu", "gcpu", "rpu"}, 0.05);
            w.planPanel()->findChild<QLineEdit*>(QStringLiteral("seeds"))->setText(QStringLiteral("4, 5"));
            QString error;
            QVERIFY2(w.savePlanTo(path, &error), qPrintable(error));
            saved = w.planPanel()->plan();
            QCOMPARE(w.currentFile(), path);
            // Where no file can be made: refused, naming the path (core's atomic writer), and
            // the window keeps the file it had.
            const QString nowhere = tmp_.filePath(QStringLiteral("no-such-folder/plan.json"));
            QVERIFY(!w.savePlanTo(nowhere, &error));
            QVERIFY2(error.contains(nowhere), qPrintable(error));
            QCOMPARE(w.currentFile(), path);
        }
        // The file is what dpu-cli reads.
        const dpu::Plan fromFile = dpu::loadPlanFile(path.toStdString());
        QCOMPARE(QString::fromStdString(dpu::planToJson(fromFile)), QString::fromStdString(dpu::planToJson(saved)));
        QCOMPARE(fromFile.split.rounds, 7);
        QCOMPARE(fromFile.seeds.size(), size_t(2));
        QCOMPARE(fromFile.dataset.testLimit, int64_t(1000)); // a field the form does not show survives
        MainWindow other;
        QString error;
        QVERIFY2(other.openPlan(path, &error), qPrintable(error));
        QCOMPARE(QString::fromStdString(dpu::planToJson(other.planPanel()->plan())),
                 QString::fromStdString(dpu::planToJson(saved)));
        // A file with a bad field opens with that field marked (naming the file) and Run refused;
        // its good fields are used (test_ui_fields has the hostile cases).
        const QString bad = tmp_.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"train\": {\"epochs\": -1}, \"split\": {\"rounds\": 4}}");
        f.close();
        QVERIFY2(other.openPlan(bad, &error), qPrintable(error));
        QVERIFY(!other.planPanel()->isValid());
        const QString reason = other.planPanel()->fieldError(QStringLiteral("train.epochs"));
        QVERIFY2(reason.contains(QStringLiteral("bad.json")), qPrintable(reason));
        QCOMPARE(other.planPanel()->plan().split.rounds, 4);
        QVERIFY(!other.runAction()->isEnabled());
    }

    void firstStartOnASmallScreenIsMaximised()
    {
        QSettings().remove(QStringLiteral("window/geometry"));
        const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY2(screen.width() < 1440 || screen.height() < 900, "the offscreen screen is expected below 1440x900");
        {
            MainWindow w; // never saved: the application shows it maximised
            QVERIFY(w.startMaximized());
            w.show();
            QVERIFY(w.close()); // saves its geometry
        }
        MainWindow again; // its saved geometry wins
        QVERIFY(!again.startMaximized());
    }

    void settingsRestoreLastPlan()
    {
        {
            MainWindow w;
            w.planPanel()->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("restored-plan"));
            w.resize(1000, 700);
            w.show();
            QVERIFY(w.close());
        }
        MainWindow again;
        QCOMPARE(QString::fromStdString(again.planPanel()->plan().name), QStringLiteral("restored-plan"));
    }
};

QTEST_MAIN(TestUiWindow)
#include "test_ui_window.moc"
