// SPDX-License-Identifier: MIT
// Tests of the window's results without training: chart export, the headless renderer, the legend and the rounds table.
#include "MainWindow.h"
#include "ResultsRenderer.h"
#include "dpu/Runner.h"
#include "UiTestSupport.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/LossChart.h"
#include "dpu/Plan.h"
#include "models/RoundsTableModel.h"
#include "models/RunBook.h"
#include "panels/FrozenColumnsTable.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
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

class TestUiResults : public QObject {
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

QTEST_MAIN(TestUiResults)
#include "test_ui_results.moc"
