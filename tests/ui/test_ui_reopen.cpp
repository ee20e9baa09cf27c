// SPDX-License-Identifier: MIT
// Runs outlive the window: finished run folders reopen into every view and export, on request and on
// start; the frontier keeps other plans apart; the PDF report, from the window and from dpu-cli, with and without a fleet page.
#include "MainWindow.h"
#include "RecentFiles.h"
#include "TestSupport.h"
#include "PdfText.h"
#include "UiTestSupport.h"
#include "CliProcess.h"
#include "RunFixtures.h"
#include "charts/AccuracyChart.h"
#include "dialogs/OpenRunsDialog.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "models/RoundsTableModel.h"
#include "models/RunBook.h"
#include "report/ReportWriter.h"
#include "charts/Units.h"
#include "panels/BudgetPanel.h"
#include "panels/FleetInputs.h"
#include "panels/FleetPanel.h"
#include "panels/ResultsPanel.h"
#include "workers/EngineMetatypes.h"
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QListView>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest/QtTest>
#include <algorithm>
#include <cmath>

using dpu::test::pdfPages;
using dpu::test::pdfText;
using dpu::ui::FleetInputs;
using dpu::ui::FleetPanel;
using dpu::ui::MainWindow;

namespace {

dpu::Plan tinyPlan(const char* name, double k, int rounds)
{
    dpu::Plan p;
    p.name = name;
    p.dataset.testLimit = 600;
    p.split = {300, 300, rounds, 300};
    p.strategies = {"dpu", "fu"};
    p.k = k;
    p.train.epochs = 1;
    p.seeds = {3};
    return p;
}

} // namespace

class TestUiReopen : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString sweep_;   // two runs of one plan at k = 0.01 and 0.1 (2 rounds)
    QString other_;   // the same plan with 3 rounds: a frontier of its own

    QString run(const QString& dir, const dpu::Plan& plan)
    {
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(plan, {dir.toStdString()}).run(quiet).records;
        return records.empty() ? QString() : dir;
    }

    /// Once the Fleet tab has simulated the window's runs, the report of `pdf` (which had
    /// `pagesBefore` pages without a fleet) gets its fleet page.
    void windowFleetPage(MainWindow& w, const QString& pdf, int pagesBefore)
    {
        // Once the tab has simulated them, its last simulation is the report's fleet page: the
        // fleet's settings, its charts and a row per series with the tab's time to 90 %.
        FleetPanel* fleet = w.resultsPanel()->fleetPanel();
        QTRY_VERIFY_WITH_TIMEOUT(!fleet->busy() && fleet->table()->rowCount() > 0, 60000);
        QString error;
        QVERIFY2(w.exportReport(pdf, &error), qPrintable(error));
        QFile withFleet(pdf);
        QVERIFY(withFleet.open(QIODevice::ReadOnly));
        QVERIFY(pdfPages(withFleet.readAll()) > pagesBefore);
        const QString fleetText = pdfText(pdf);
        for (const char* expected : {"Fleet simulation", "LoRaWAN EU868", "Devices", "200 (SF7: 90", "Availability",
                                     "80 % per round", "Frame loss", "10 %", "Duty cycle", "1 %", "multicast",
                                     "Fleet accuracy over time", "Versions in the fleet", "Per strategy on the fleet",
                                     "Strategy", "Versions"})
            QVERIFY2(fleetText.contains(QString::fromLatin1(expected)), expected);
        const QStringList lines = fleetText.split(QLatin1Char('\n'));
        for (int row = 0; row < fleet->table()->rowCount(); ++row) {
            const QString key = fleet->table()->item(row, FleetPanel::Series)->text();
            const QString to90 = fleet->table()->item(row, FleetPanel::LatestTo90)->text();
            // The row's first line holds the start of its series' name and its time to 90 %.
            const QString first = key.section(QLatin1Char(' '), 0, 0);
            const bool found = std::any_of(lines.begin(), lines.end(), [&](const QString& line) {
                return line.trimmed().startsWith(first) && line.contains(to90);
            });
            QVERIFY2(found, qPrintable(key + QStringLiteral(": ") + to90 + QStringLiteral("\n") + fleetText));
        }
    }

    /// dpu-cli report --fleet: the fleet page of the runs simulated with dpu-cli fleet's options,
    /// its times to 90 % those dpu-cli fleet gives for the same options.
    void cliFleetPage()
    {
        const QStringList fleetOptions = {QStringLiteral("--devices"), QStringLiteral("50"), QStringLiteral("--link"),
                                          QStringLiteral("lorawan-eu868"), QStringLiteral("--sf"), QStringLiteral("9"),
                                          QStringLiteral("--loss"), QStringLiteral("0.05"), QStringLiteral("--availability"),
                                          QStringLiteral("0.9"), QStringLiteral("--drain"), QStringLiteral("3")};
        QProcess sim;
        sim.start(qEnvironmentVariable("DPU_CLI"), QStringList{QStringLiteral("fleet"), sweep_, QStringLiteral("--json")} + fleetOptions);
        QVERIFY(sim.waitForFinished(60000));
        QVERIFY2(sim.exitCode() == 0, sim.readAllStandardError().constData());
        const QJsonArray strategies = QJsonDocument::fromJson(sim.readAllStandardOutput()).object()["strategies"].toArray();
        QCOMPARE(strategies.size(), 4); // dpu and fu of both runs

        const QString pdf = tmp_.filePath(QStringLiteral("cli-fleet.pdf"));
        QProcess cli;
        cli.start(qEnvironmentVariable("DPU_CLI"),
                  QStringList{QStringLiteral("report"), sweep_, QStringLiteral("--out"), pdf, QStringLiteral("--fleet")} + fleetOptions);
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY2(cli.readAllStandardOutput().contains("with a fleet page of 4 series"), "the command says what it drew");
        const QString text = pdfText(pdf);
        for (const char* expected : {"Fleet simulation", "LoRaWAN EU868 SF9", "Devices", "50", "90 % per round", "Frame loss",
                                     "5 %", "24.0 h", "3 rounds after the last", "Per strategy on the fleet",
                                     "Fleet accuracy over time", "Versions in the fleet: dpu · k=0.01"})
            QVERIFY2(text.contains(QString::fromUtf8(expected)), qPrintable(QString::fromUtf8(expected) + QStringLiteral("\n") + text));
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (const QJsonValue& v : strategies) {
            // The CLI names a run's series "LABEL/strategy" in its table, the report as the window does: "strategy · k=0.01".
            const QString to90 = dpu::ui::Units::span(v.toObject()["latest_time_to_share_s"].toObject()["90"].toDouble(NAN));
            const QString strategy = v.toObject()["strategy"].toString().section(QLatin1Char('/'), -1);
            const bool found = std::any_of(lines.begin(), lines.end(), [&](const QString& line) {
                return line.trimmed().startsWith(strategy + QLatin1Char(' ')) && line.contains(to90); // the run on the row above
            });
            QVERIFY2(found, qPrintable(v.toObject()["strategy"].toString() + QStringLiteral(": ") + to90 + QStringLiteral("\n") + text));
        }

        // A fleet option without --fleet is refused by name; nothing is written.
        const QString refused = tmp_.filePath(QStringLiteral("refused.pdf"));
        QProcess bad;
        bad.start(qEnvironmentVariable("DPU_CLI"), {QStringLiteral("report"), sweep_, QStringLiteral("--out"), refused,
                                                    QStringLiteral("--devices"), QStringLiteral("50")});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY2(bad.readAllStandardError().contains("--devices needs --fleet"), "names the option");
        QVERIFY(!QFile::exists(refused));
        // A frame loss outside [0, 1): the option and its range named (exit 2, as every number), nothing written.
        QProcess badLoss;
        badLoss.start(qEnvironmentVariable("DPU_CLI"),
                      QStringList{QStringLiteral("report"), sweep_, QStringLiteral("--out"), refused, QStringLiteral("--fleet"),
                                  QStringLiteral("--devices"), QStringLiteral("50"), QStringLiteral("--link"),
                                  QStringLiteral("lorawan-eu868"), QStringLiteral("--loss"), QStringLiteral("-0.1")});
        QVERIFY(badLoss.waitForFinished(60000));
        QCOMPARE(badLoss.exitCode(), 2);
        const QByteArray lossError = badLoss.readAllStandardError();
        QVERIFY2(lossError.contains("--loss") && lossError.contains("[0, 1)"), lossError.constData());
        QVERIFY(!QFile::exists(refused));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        sweep_ = tmp_.filePath(QStringLiteral("sweep"));
        QVERIFY(!run(sweep_ + "/a-k0.01", tinyPlan("tiny-sweep-k0.01", 0.01, 2)).isEmpty());
        QVERIFY(!run(sweep_ + "/b-k0.1", tinyPlan("tiny-sweep-k0.1", 0.1, 2)).isEmpty());
        other_ = run(tmp_.filePath(QStringLiteral("three-rounds")), tinyPlan("tiny-three", 0.05, 3));
        QVERIFY(!other_.isEmpty());
        const dpu::RunFolder a = dpu::loadRunFolder((sweep_ + "/a-k0.01").toStdString());
        QCOMPARE(a.status.state, std::string("finished")); // the runner's run.json
        QVERIFY(a.status.partialWeights > 0);
        QVERIFY(a.complete());
    }

    void openedSweepFeedsEveryView()
    {
        MainWindow w;
        w.closeRuns();
        QStringList errors;
        QCOMPARE(w.openRuns({sweep_}, &errors), 2); // a folder of runs opens them all
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(w.openRunFolders().size(), 2);
        auto* results = w.resultsPanel();
        QCOMPARE(results->roundsModel()->rowCount(), 8); // 2 runs x 2 rounds x 2 strategies
        QCOMPARE(results->roundsModel()->data(results->roundsModel()->index(0, 0)).toString(), QStringLiteral("a-k0.01"));
        // A sweep opens back as it ran: one series per strategy and k.
        QStringList keys = results->accuracyChart()->seriesKeys();
        keys.sort();
        QCOMPARE(keys, (QStringList{"dpu · k=0.01", "dpu · k=0.1", "fu · k=0.01", "fu · k=0.1"}));
        // The frontier: both k of dpu, from the opened folders.
        const auto points = results->budgetPanel()->shownPoints();
        QCOMPARE(dpu::pointsOf(points, "dpu").size(), size_t(2));
        // Bundles of either run, not only the last one.
        QCOMPARE(w.bundleRunFolders().size(), 2);
        // Export Results tells the runs apart: run, plan and k on every row.
        const QString csv = tmp_.filePath(QStringLiteral("results.csv"));
        QString error;
        QVERIFY2(w.exportResultsCsv(csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 9);
        QVERIFY(lines[0].startsWith(QStringLiteral("run,plan,k,coding,strategy,seed,round,")));
        QVERIFY2(lines[1].startsWith(QStringLiteral("a-k0.01,tiny-sweep-k0.01,0.01,fp32,dpu,3,1,")), qPrintable(lines[1]));
        QVERIFY2(lines[8].startsWith(QStringLiteral("b-k0.1,tiny-sweep-k0.1,0.1,fp32,fu,3,2,")), qPrintable(lines[8]));
        const QString json = tmp_.filePath(QStringLiteral("results.json"));
        QVERIFY2(w.exportResultsJson(json, &error), qPrintable(error));
        QFile j(json);
        QVERIFY(j.open(QIODevice::ReadOnly));
        const QJsonArray rows = QJsonDocument::fromJson(j.readAll()).array();
        QCOMPARE(rows.size(), 8);
        QCOMPARE(rows[7].toObject()["run"].toString(), QStringLiteral("b-k0.1"));
        QCOMPARE(rows[7].toObject()["k"].toDouble(), 0.1);
        QCOMPARE(rows[7].toObject()["plan"].toString(), QStringLiteral("tiny-sweep-k0.1"));
        // Opening a run already on screen adds nothing.
        QCOMPARE(w.openRuns({sweep_ + "/a-k0.01"}), 1);
        QCOMPARE(results->roundsModel()->rowCount(), 8);
    }

    void runsReopenOnStartUnlessTurnedOff()
    {
        {
            MainWindow w;
            w.closeRuns();
            QCOMPARE(w.openRuns({sweep_, other_}), 3);
            QVERIFY(w.reopenRunsAction()->isChecked()); // on by default
            QVERIFY(w.close());
        }
        {
            MainWindow w;
            QCOMPARE(w.openRunFolders().size(), 3);
            QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 8 + 6);
            QCOMPARE(QSettings().value(QStringLiteral("recentRuns")).toStringList().size(), 3);
            // Each entry says what its run is, not only its folder's name.
            const QStringList entries = w.recentRuns()->entryTexts();
            QCOMPARE(entries.size(), 3);
            for (const QString& e : entries)
                QVERIFY2(e.contains(QStringLiteral(" — dpu, fu · k=0.")) && e.contains(QStringLiteral("rounds")), qPrintable(e));
            w.reopenRunsAction()->setChecked(false);
            QVERIFY(w.close());
        }
        {
            MainWindow w;
            QVERIFY(w.openRunFolders().isEmpty());
            QVERIFY(!w.reopenRunsAction()->isChecked());
            w.reopenRunsAction()->setChecked(true);
        }
    }

    void frontierKeepsOtherPlansApart()
    {
        MainWindow w;
        w.closeRuns();
        QCOMPARE(w.openRuns({sweep_, other_}), 3);
        dpu::ui::BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        // The form's plan (the default) matches neither: the latest run's group is shown.
        QCOMPARE(budget->frontier().groups().size(), size_t(2));
        auto* groups = budget->findChild<QComboBox*>(QStringLiteral("frontierGroup"));
        QCOMPARE(groups->count(), 2);
        QCOMPARE(budget->shownGroup(), 1);
        QCOMPARE(budget->shownPoints().size(), size_t(2)); // dpu and fu of the 3-round run
        QVERIFY2(budget->leftOutText().contains(QStringLiteral("a-k0.01, b-k0.1")), qPrintable(budget->leftOutText()));
        QVERIFY2(budget->leftOutText().contains(QStringLiteral("split.rounds: 2 vs 3")), qPrintable(budget->leftOutText()));
        // The plan of the sweep on the form: its runs form the frontier, the 3-round run stays apart.
        QString error;
        QVERIFY2(w.openPlan(sweep_ + "/b-k0.1/plan.json", &error), qPrintable(error));
        QCOMPARE(budget->shownGroup(), 0);
        const auto dpuPoints = dpu::pointsOf(budget->shownPoints(), "dpu");
        QCOMPARE(dpuPoints.size(), size_t(2));
        QCOMPARE(dpuPoints[0].k, 0.01);
        QCOMPARE(dpuPoints[0].rounds, 2);
        QVERIFY(budget->leftOutText().contains(QStringLiteral("three-rounds")));
        // Picking the other group shows it.
        budget->showGroup(1);
        QCOMPARE(budget->shownGroup(), 1);
        QCOMPARE(dpu::pointsOf(budget->shownPoints(), "dpu").at(0).k, 0.05);
    }

    void openDialogTakesSeveralFolders()
    {
        dpu::ui::OpenRunsDialog dialog(nullptr, sweep_);
        dialog.show();
        auto* list = dialog.findChild<QListView*>(QStringLiteral("listView"));
        QVERIFY(list);
        QCOMPARE(list->selectionMode(), QAbstractItemView::ExtendedSelection);
        // The file system model lists the folder asynchronously.
        QTRY_COMPARE(list->model()->rowCount(list->rootIndex()), 2);
        list->selectAll(); // Ctrl+A: both runs of the sweep
        auto* buttons = dialog.findChild<QDialogButtonBox*>(QStringLiteral("buttonBox"));
        QVERIFY(buttons);
        QPushButton* open = buttons->button(QDialogButtonBox::Open);
        QVERIFY(open);
        QVERIFY(open->isEnabled());
        open->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QStringList folders = dialog.folders();
        folders.sort();
        QCOMPARE(folders, (QStringList{QDir(sweep_).absoluteFilePath("a-k0.01"), QDir(sweep_).absoluteFilePath("b-k0.1")}));
        MainWindow w;
        w.closeRuns();
        QCOMPARE(w.openRuns(folders), 2);
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 8);
    }

    void roundAxisSpansThePlan()
    {
        // A run stopped after round 1 of 3: its point sits at the left of a 1..3 axis, not alone
        // in the middle of an axis that follows the data.
        const QString stopped = tmp_.filePath(QStringLiteral("stopped"));
        QDir().mkpath(stopped);
        QVERIFY(QFile::copy(other_ + "/plan.json", stopped + "/plan.json"));
        QFile all(other_ + "/results.jsonl");
        QVERIFY(all.open(QIODevice::ReadOnly));
        QFile first(stopped + "/results.jsonl");
        QVERIFY(first.open(QIODevice::WriteOnly));
        int kept = 0;
        for (const QByteArray& line : all.readAll().split('\n'))
            if (QJsonDocument::fromJson(line).object().value("round").toInt() == 1) {
                first.write(line + '\n');
                ++kept;
            }
        first.close();
        QCOMPARE(kept, 2); // dpu and fu
        MainWindow w;
        w.closeRuns();
        QStringList errors;
        QCOMPARE(w.openRuns({stopped}, &errors), 1);
        auto* chart = w.resultsPanel()->accuracyChart();
        const auto* x = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).constFirst());
        QVERIFY(x);
        QCOMPARE(chart->expectedRounds(), 3);
        QVERIFY2(x->min() <= 1 && x->max() >= 3, qPrintable(QStringLiteral("%1..%2").arg(x->min()).arg(x->max())));
        // Closing the runs lets the axis follow the next data alone.
        w.closeRuns();
        QCOMPARE(chart->expectedRounds(), 0);
    }

    void badFoldersSayWhich()
    {
        MainWindow w;
        w.closeRuns();
        const QString corrupt = tmp_.filePath(QStringLiteral("corrupt"));
        QDir().mkpath(corrupt);
        QVERIFY(QFile::copy(sweep_ + "/a-k0.01/plan.json", corrupt + "/plan.json"));
        QFile bad(corrupt + "/results.jsonl");
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"strategy\": \"dpu\"}\n");
        bad.close();
        QStringList errors;
        QCOMPARE(w.openRuns({tmp_.filePath(QStringLiteral("missing")), corrupt}, &errors), 0);
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors[0].contains(QStringLiteral("missing")), qPrintable(errors[0]));
        QVERIFY2(errors[1].contains(QStringLiteral("corrupt/results.jsonl: line 1")), qPrintable(errors[1]));
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 0);
    }

    /// fp32, q4, INT8 and sparse runs of one plan: every table row and legend of the report says
    /// which run it is, as the window names them (each run cell read "fashion-mlp-k0.01 (k = 0.01)").
    void reportTellsRunsOfOnePlanApart()
    {
        const QString dir = tmp_.filePath(QStringLiteral("forms"));
        const auto records = dpu::test::joined({dpu::test::strategyRounds("dpu", 1, {0.6, 0.7}, {300, 300}, {2000, 2000}, 40000),
                                                dpu::test::strategyRounds("fu", 1, {0.6, 0.72}, {40000, 40000}, {40000, 40000}, 40000)});
        dpu::Plan base = dpu::test::sweepPlan(0.01);
        base.name = "forms-k0.01";
        dpu::Plan q4 = base, int8 = base, sparse = base;
        q4.bundle.values = dpu::Coding::Q4;
        int8.deployed = dpu::DeployedForm::Int8;
        sparse.deployed = dpu::DeployedForm::Sparse;
        QStringList folders;
        const std::pair<const char*, dpu::Plan> runs[] = {{"a", base}, {"b", q4}, {"c", int8}, {"d", sparse}};
        for (const auto& [name, plan] : runs)
            folders << QString::fromStdString(dpu::test::writeRunFolder((dir + "/" + name).toStdString(), plan, records));
        dpu::ui::RunBook book;
        for (const QString& f : folders)
            QVERIFY(book.openFolder(f) != 0);
        QStringList names;
        for (const dpu::ui::BookRun& r : book.runs())
            names << book.runName(r.id);
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), 4); // no two alike
        const QString pdf = tmp_.filePath(QStringLiteral("forms.pdf"));
        QString error;
        QVERIFY2(dpu::ui::ReportWriter::write(book, {}, pdf, &error), qPrintable(error));
        const QString text = pdfText(pdf);
        for (const QString& name : names) // the runs table and the table per strategy
            QVERIFY2(text.count(name) >= 2, qPrintable(name + QStringLiteral(" in\n") + text));
        for (const dpu::ui::BookRun& r : book.runs()) // the legends: the window's series names, whole
            QVERIFY2(text.contains(book.seriesKey(r.id, "dpu", 1, false)), qPrintable(book.seriesKey(r.id, "dpu", 1, false)));
        QVERIFY2(!text.contains(QStringLiteral("...")), qPrintable(text)); // Qt elides a legend's label with three dots
        // dpu-cli's report of the same folders names them alike.
        const QString cliPdf = tmp_.filePath(QStringLiteral("forms-cli.pdf"));
        const dpu::test::CliResult cli = dpu::test::runCli(QStringList{QStringLiteral("report")} + folders + QStringList{"--out", cliPdf});
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        const QString cliText = pdfText(cliPdf);
        for (const QString& name : names)
            QVERIFY2(cliText.count(name) >= 2, qPrintable(name));
    }

    void reportFromTheWindowAndTheCli()
    {
        MainWindow w;
        w.closeRuns();
        QCOMPARE(w.openRuns({sweep_, other_}), 3);
        QVERIFY(w.exportReportAction()->isEnabled());
        FleetPanel* fleet = w.resultsPanel()->fleetPanel();
        fleet->inputs()->setSettings(FleetInputs::flagship()); // 200 nodes, EU868, FUOTASim's mix, 10 % loss, 80 % on
        QVERIFY(fleet->busy()); // the Fleet tab has not simulated the runs just opened yet
        const QString pdf = tmp_.filePath(QStringLiteral("report.pdf"));
        QString error;
        QVERIFY2(w.exportReport(pdf, &error), qPrintable(error));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        const int pages = pdfPages(bytes);
        QVERIFY2(pages >= 3, qPrintable(QString::number(pages))); // text, charts, frontier
        const QString text = pdfText(pdf);
        QVERIFY2(!text.isEmpty(), "pdftotext (poppler-utils, in scripts/deps) could not read the report");
        for (const char* expected : {"tiny-sweep-k0.01", "tiny-three", "Per strategy", "vs FU", "Left out", "The plan"})
            QVERIFY2(text.contains(QString::fromLatin1(expected)), expected);
        // Three runs of two plans: the legends name each series by what sets its run apart, in
        // full (by the runs' names, every entry of the column was cut short with an ellipsis).
        QVERIFY2(!text.contains(QStringLiteral("...")), qPrintable(text)); // Qt elides with three dots
        // Page 2's trade-off chart counts the bundles really sent, as page 1's table does.
        QVERIFY2(text.contains(QStringLiteral("bytes sent per device")), qPrintable(text.left(2000)));
        // ... so the report is as without a fleet.
        QVERIFY2(!text.contains(QStringLiteral("Fleet simulation")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("Fleet accuracy over time")));

        windowFleetPage(w, pdf, pages);
        if (QTest::currentTestFailed())
            return;

        // A folder that cannot take it: an error naming the file, nothing written.
        const QString nowhere = tmp_.filePath(QStringLiteral("no-such-dir/report.pdf"));
        QVERIFY(!w.exportReport(nowhere, &error));
        QVERIFY2(error.contains(nowhere), qPrintable(error));
        QVERIFY(!QFile::exists(nowhere));

        // dpu-cli makes the same report headless.
        const QString cliPdf = tmp_.filePath(QStringLiteral("cli-report.pdf"));
        QProcess cli;
        cli.start(qEnvironmentVariable("DPU_CLI"), {QStringLiteral("report"), sweep_, QStringLiteral("--out"), cliPdf,
                                                    QStringLiteral("--budget"), QStringLiteral("20000")});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const QString cliText = pdfText(cliPdf);
        QVERIFY(cliText.contains(QStringLiteral("tiny-sweep-k0.1")));
        QVERIFY(cliText.contains(QStringLiteral("Budget:")));
        // Page 2's legends name the series as the window does, by what differs between the runs
        // (their k), whole: with the runs' full names the entries were cut to "dpu · tiny-sw…".
        for (const char* entry : {"dpu · k=0.01", "fu · k=0.01", "dpu · k=0.1", "fu · k=0.1"})
            QVERIFY2(cliText.contains(QString::fromUtf8(entry)), qPrintable(QString::fromUtf8(entry) + QStringLiteral("\n") + cliText));
        QVERIFY2(!cliText.contains(QStringLiteral("...")), qPrintable(cliText)); // nothing elided
        QVERIFY(!QFile::exists(cliPdf + ".tmp"));
        QVERIFY2(!cliText.contains(QStringLiteral("Fleet simulation")), "no --fleet: no fleet page");
        cliFleetPage();
        if (QTest::currentTestFailed())
            return;
        QProcess bad;
        bad.start(qEnvironmentVariable("DPU_CLI"), {QStringLiteral("report"), tmp_.filePath(QStringLiteral("missing")),
                                                    QStringLiteral("--out"), tmp_.filePath(QStringLiteral("x.pdf"))});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 1);
        QVERIFY(bad.readAllStandardError().contains("missing"));
        QVERIFY(!QFile::exists(tmp_.filePath(QStringLiteral("x.pdf"))));
    }
};

QTEST_MAIN(TestUiReopen)
#include "test_ui_reopen.moc"
