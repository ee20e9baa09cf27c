// SPDX-License-Identifier: MIT
// Tests of the main window without training: cost readout, validation, plan files, settings,
// chart export and the rounds table.
#include "MainWindow.h"
#include "ResultsRenderer.h"
#include "dpu/LinkModel.h"
#include "dpu/Runner.h"
#include "UiTestSupport.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/LossChart.h"
#include "dpu/Plan.h"
#include "models/RoundsTableModel.h"
#include "models/RunBook.h"
#include "panels/CostReadout.h"
#include "panels/FrozenColumnsTable.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/SweepTargetBox.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QGuiApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QScreen>
#include <QSettings>
#include <QtTest/QtTest>
#include <cmath>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using dpu::ui::MainWindow;

class TestUiWindow : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    static dpu::RoundRecord record(const char* strategy, int round, double acc, double bits)
    {
        dpu::RoundRecord r;
        r.strategy = strategy;
        r.seed = 1;
        r.round = round;
        r.samples = 300 * round;
        r.deployed = true;
        r.testAccuracy = acc;
        r.valAccuracy = acc;
        r.analyticBits = bits;
        r.cumulativeBits = bits * round;
        r.cumulativeRatio = 0.01;
        r.updatedWeights = 6687;
        return r;
    }

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
        QCOMPARE(cost->deployedFullBytes(), 676944.0); // what an INT8 run's FU round is priced at
        QCOMPARE(cost->fullBytesPerRound(), 4.0 * (668672 + 1034));
        QCOMPARE(cost->bytesPerRound(), dpu::partialRoundBits(cost->costModel(), 0.01) / 8);
        QVERIFY(cost->bytesPerRound() < fp32Bytes);
        const QString int8Text = ratio->text();
        QVERIFY2(int8Text.contains(QStringLiteral("of FP32's 2.68 MB")) && int8Text.contains(QStringLiteral("of INT8's 676.9 KB")),
                 qPrintable(int8Text));
        QVERIFY2(int8Text.contains(QString::number(cost->bytesPerRound() / 676944.0, 'g', 4)), qPrintable(int8Text));
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

    void chartsExportPngAndSvg()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        dpu::ui::ResultsPanel* results = w.resultsPanel();
        for (int round = 1; round <= 3; ++round) {
            results->addRecord(QStringLiteral("1"), QStringLiteral("dpu"), record("dpu", round, 0.7 + 0.05 * round, 301096));
            results->addRecord(QStringLiteral("1"), QStringLiteral("fu"), record("fu", round, 0.72 + 0.05 * round, 21443392));
            dpu::EpochEvent e;
            e.strategy = "dpu";
            e.round = round;
            e.trainLoss = 1.0 / round;
            results->addEpoch(QStringLiteral("dpu"), e);
        }
        QCOMPARE(results->accuracyChart()->pointCount(QStringLiteral("dpu")), 3);
        QCOMPARE(results->bytesChart()->pointCount(QStringLiteral("fu")), 3);
        QCOMPARE(results->lossChart()->pointCount(QStringLiteral("dpu")), 3);
        const QList<dpu::ui::ChartView*> charts{results->accuracyChart(), results->bytesChart(), results->lossChart()};
        int n = 0;
        for (dpu::ui::ChartView* chart : charts) {
            const QString png = tmp_.filePath(QStringLiteral("chart%1.png").arg(n));
            const QString svg = tmp_.filePath(QStringLiteral("chart%1.svg").arg(n++));
            QString error;
            QVERIFY2(chart->exportPng(png, &error), qPrintable(error));
            QVERIFY2(chart->exportSvg(svg, &error), qPrintable(error));
            QImage image(png);
            QVERIFY(!image.isNull());
            QVERIFY(image.width() >= 640 && image.height() >= 440);
            // Not a blank canvas: the plot draws dark axis labels on white.
            bool dark = false;
            for (int y = 0; y < image.height() && !dark; y += 3)
                for (int x = 0; x < image.width() && !dark; x += 3)
                    dark = qGray(image.pixel(x, y)) < 100;
            QVERIFY(dark);
            QFile f(svg);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            QVERIFY(text.startsWith("<?xml"));
            QVERIFY(text.contains("<svg"));
            // Axis titles and the legend are in the file as text.
            QVERIFY2(text.toLower().contains("accuracy") || text.contains("loss"),
                     qPrintable(QStringLiteral("%1: %2 <text> elements").arg(chart->chart()->title()).arg(text.count("<text"))));
            QVERIFY2(text.contains("dpu"), "legend entry missing from the SVG");
        }
    }

    void resultsRendererDrawsARunFolder()
    {
        const QString folder = tmp_.filePath(QStringLiteral("run-folder"));
        QVERIFY(QDir().mkpath(folder));
        QFile f(QDir(folder).filePath(QStringLiteral("results.jsonl")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int round = 1; round <= 3; ++round) {
            for (const char* s : {"dpu", "fu"}) {
                dpu::RoundRecord r = record(s, round, 0.7 + 0.04 * round, 301096);
                r.layers = {{"fc1.weight", 401408, 4000}, {"fc2.weight", 262144, 2600}, {"fc3.weight", 5120, 87}};
                f.write(QByteArray::fromStdString(dpu::recordToJson(r)) + "\n");
            }
        }
        f.close();
        QFile planFile(QDir(folder).filePath(QStringLiteral("plan.json"))); // a run folder: its plan names it
        QVERIFY(planFile.open(QIODevice::WriteOnly));
        planFile.write(QByteArray::fromStdString(dpu::planToJson(dpu::defaultPlan())));
        planFile.close();
        QStringList written;
        QString error;
        QVERIFY2(dpu::ui::ResultsRenderer::render(folder, &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 6);
        QImage png(QDir(folder).filePath(QStringLiteral("accuracy-vs-bytes.png")));
        QVERIFY(!png.isNull());
        QVERIFY(!QImage(QDir(folder).filePath(QStringLiteral("layers.png"))).isNull());
        QVERIFY(!dpu::ui::ResultsRenderer::render(tmp_.filePath(QStringLiteral("missing")), nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("missing")) && error.contains(QStringLiteral("run folder")), qPrintable(error));
        QFile::remove(QDir(folder).filePath(QStringLiteral("plan.json"))); // the plan names the runs: refused by name
        QVERIFY(!dpu::ui::ResultsRenderer::render(folder, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("plan.json")), qPrintable(error));
    }

    void legendToggleHidesSeries()
    {
        MainWindow w;
        dpu::ui::AccuracyChart* chart = w.resultsPanel()->accuracyChart();
        w.resultsPanel()->addRecord(QStringLiteral("1"), QStringLiteral("dpu"), record("dpu", 1, 0.8, 1000));
        chart->setSeriesVisible(QStringLiteral("dpu"), false);
        QVERIFY(!chart->series(QStringLiteral("dpu"))->isVisible());
        const auto markers = chart->chart()->legend()->markers(chart->series(QStringLiteral("dpu")));
        QCOMPARE(markers.size(), 1); // still in the legend, so it can be clicked back on
        markers[0]->clicked(); // as a click on the legend does
        QVERIFY(chart->series(QStringLiteral("dpu"))->isVisible());
    }

    void roundsTableSortsCopiesAndExports()
    {
        MainWindow w;
        dpu::ui::ResultsPanel* results = w.resultsPanel();
        // A run's rounds as the queue reports them: into the run book, which every view follows.
        w.closeRuns();
        dpu::ui::RunBook* book = w.runBook();
        book->addQueued(1, dpu::defaultPlan());
        book->addRecord(1, record("dpu", 1, 0.70, 301096));
        book->addRecord(1, record("dpu", 2, 0.90, 301096));
        book->addRecord(1, record("fu", 1, 0.80, 21443392));
        using M = dpu::ui::RoundsTableModel;
        QSortFilterProxyModel* proxy = results->roundsProxy();
        QCOMPARE(proxy->rowCount(), 3);
        proxy->sort(M::TestAccuracy, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, M::TestAccuracy).data().toString(), QStringLiteral("90.00 %"));
        proxy->sort(M::Bytes, Qt::DescendingOrder); // numerically: 2680424 > 37637
        QCOMPARE(proxy->index(0, M::Strategy).data().toString(), QStringLiteral("fu"));
        results->copyRows();
        const QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].contains(QStringLiteral("Bytes (analytic)")));
        QVERIFY(lines[0].contains(QStringLiteral("Bundle bytes")));
        QVERIFY(lines[1].contains(QStringLiteral("fu"))); // in the order on screen
        const QString csv = tmp_.filePath(QStringLiteral("rounds.csv"));
        QString error;
        QVERIFY2(results->exportTableCsv(csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 4);
        QVERIFY(rows[0].startsWith(QStringLiteral("run,round,strategy")));
        QVERIFY(rows[3].contains(QStringLiteral("2680424")));
        // File > Export results: the engine's results.csv and a JSON array.
        QVERIFY(w.exportResultsCsv(tmp_.filePath(QStringLiteral("results.csv")), &error));
        QVERIFY(w.exportResultsJson(tmp_.filePath(QStringLiteral("results.json")), &error));
        QFile j(tmp_.filePath(QStringLiteral("results.json")));
        QVERIFY(j.open(QIODevice::ReadOnly));
        const QJsonDocument doc = QJsonDocument::fromJson(j.readAll());
        QVERIFY(doc.isArray());
        QCOMPARE(doc.array().size(), 3);

        // The window's exports share core's writer: a link keeps pointing at its (new) target, a
        // device node stays a device, a folder or a FIFO nobody reads is an error shown, not a loss.
        const QString target = tmp_.filePath(QStringLiteral("results-2026.csv")), link = tmp_.filePath(QStringLiteral("latest.csv"));
        QVERIFY(QFile::link(QStringLiteral("results-2026.csv"), link));
        QVERIFY2(w.exportResultsCsv(link, &error), qPrintable(error));
        QVERIFY(QFileInfo(link).isSymLink());
        QFile linked(target);
        QVERIFY(linked.open(QIODevice::ReadOnly) && linked.readAll().startsWith("run,"));
        QString node = tmp_.filePath(QStringLiteral("null-copy"));
        if (::mknod(QFile::encodeName(node).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            node = QStringLiteral("/dev/null"); // only root may make one
        QVERIFY2(results->exportTableCsv(node, &error), qPrintable(error));
        struct stat st {};
        QVERIFY(::lstat(QFile::encodeName(node).constData(), &st) == 0 && S_ISCHR(st.st_mode));
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("a-folder")));
        QVERIFY(!w.exportResultsJson(tmp_.filePath(QStringLiteral("a-folder")), &error));
        QVERIFY2(error.contains(QStringLiteral("is a folder")), qPrintable(error));
        const QString fifo = tmp_.filePath(QStringLiteral("pipe.csv"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QVERIFY(!results->exportTableCsv(fifo, &error));
        QVERIFY2(error.contains(QStringLiteral("no process is reading")), qPrintable(error));
        QVERIFY(::lstat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    }
    /// Issue 45: at 1366x768 the rounds table scrolls right through its figures while Run, Round
    /// and Strategy stay on the left, row for row with the rest, through sorting and scrolling.
    void roundsTableFreezesIdentityColumns()
    {
        MainWindow w;
        dpu::ui::ResultsPanel* results = w.resultsPanel();
        w.closeRuns();
        dpu::ui::RunBook* book = w.runBook();
        book->addQueued(1, dpu::defaultPlan());
        const int rounds = 30; // more rows than the table shows, so it scrolls down too
        for (int r = 1; r <= rounds; ++r) {
            book->addRecord(1, record("dpu", r, 0.5 + 0.01 * r, 301096 + 1000 * ((r * 7) % rounds)));
            book->addRecord(1, record("fu", r, 0.4 + 0.01 * r, 21443392 - 1000 * r));
        }
        using M = dpu::ui::RoundsTableModel;
        auto* table = qobject_cast<dpu::ui::FrozenColumnsTable*>(results->roundsView());
        QVERIFY(table);
        QTableView* frozen = table->frozenView();
        results->tabs()->setCurrentWidget(table);
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY(table->horizontalScrollBar()->maximum() > 0); // the figures do not fit: it scrolls
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        QCoreApplication::processEvents();

        // The overlay: visible, on the viewport's left edge, as wide as the columns it freezes.
        QVERIFY(frozen->isVisible());
        const int n = table->frozenCount();
        QVERIFY2(n >= M::Strategy + 1 && n <= M::Coding + 1, qPrintable(QString::number(n)));
        int width = 0;
        for (int c = 0; c < M::ColumnCount; ++c) {
            QCOMPARE(frozen->isColumnHidden(c), c >= n);
            if (c < n) {
                QCOMPARE(frozen->columnWidth(c), table->columnWidth(c));
                width += table->columnWidth(c);
            }
        }
        QCOMPARE(frozen->geometry().left(), table->viewport()->geometry().left());
        QCOMPARE(frozen->width(), width);
        QCOMPARE(frozen->viewport()->height(), table->viewport()->height());
        QVERIFY(frozen->selectionModel() == table->selectionModel());
        QVERIFY(table->columnAt(width + 1) >= n); // what shows beside the overlay has scrolled on

        // Sorting by a column that scrolled (its header clicked): the overlay's rows follow.
        const auto clickHeader = [](QTableView* view, int column) {
            QHeaderView* header = view->horizontalHeader();
            const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2);
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
        };
        clickHeader(table, M::Bytes);
        QCOMPARE(results->roundsProxy()->sortColumn(), int(M::Bytes));
        const auto sameRows = [&] {
            for (int y = 1; y < table->viewport()->height(); y += table->rowHeight(0)) {
                const int row = table->rowAt(y);
                if (row != frozen->rowAt(y))
                    return false;
                if (row >= 0 && frozen->indexAt(QPoint(1, y)).data() != results->roundsProxy()->index(row, M::Run).data())
                    return false;
            }
            return true;
        };
        QVERIFY(sameRows());
        // dpu's rounds send the fewest bytes, fu's the most: which is on top depends on the order.
        const bool ascending = table->horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder;
        QCOMPARE(frozen->indexAt(QPoint(frozen->columnViewportPosition(M::Strategy) + 1, 1)).data().toString(),
                 ascending ? QStringLiteral("dpu") : QStringLiteral("fu"));
        clickHeader(table, M::Bytes); // again: the other way round
        QCOMPARE(frozen->indexAt(QPoint(frozen->columnViewportPosition(M::Strategy) + 1, 1)).data().toString(),
                 ascending ? QStringLiteral("fu") : QStringLiteral("dpu"));
        QVERIFY(sameRows());
        // The overlay's own header sorts too, and both headers agree on the indicator.
        clickHeader(frozen, M::Round);
        QCOMPARE(results->roundsProxy()->sortColumn(), int(M::Round));
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), int(M::Round));
        QVERIFY(sameRows());

        // Scrolling down, by this view's bar or the wheel over the overlay, moves both.
        QTRY_VERIFY(table->verticalScrollBar()->maximum() > 0);
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
        QCOMPARE(frozen->verticalScrollBar()->value(), table->verticalScrollBar()->value());
        QVERIFY(table->rowAt(1) > 0);
        QVERIFY(sameRows());
        frozen->verticalScrollBar()->setValue(3);
        QCOMPARE(table->verticalScrollBar()->value(), 3);
        QVERIFY(sameRows());

        // A click on the overlay selects the row in the table without scrolling it back left;
        // Copy rows still gives every column.
        const int x = table->horizontalScrollBar()->value();
        QTest::mouseClick(frozen->viewport(), Qt::LeftButton, {}, QPoint(2, table->rowHeight(0) / 2));
        QCOMPARE(table->horizontalScrollBar()->value(), x);
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(table->selectionModel()->selectedRows().first().row(), frozen->rowAt(1));
        results->copyRows();
        QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].split(QLatin1Char('\t')).size(), int(M::ColumnCount));
        QCOMPARE(lines[1].split(QLatin1Char('\t')).size(), int(M::ColumnCount));
        table->clearSelection();
        results->copyRows();
        lines = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2 * rounds + 1);
        QVERIFY(lines[1].startsWith(results->roundsProxy()->index(0, M::Run).data().toString()));
    }
};

QTEST_MAIN(TestUiWindow)
#include "test_ui_window.moc"
