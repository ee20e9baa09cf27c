// SPDX-License-Identifier: MIT
// How the charts read: fixed colours per strategy with shades per k (all readable on white),
// round ticks, byte axes with units, layer shares up to 100 %, a lone first round visible, and
// a frontier that is redrawn whole when the budget changes.
#include "charts/AccuracyChart.h"
#include "charts/ByteAxis.h"
#include "charts/BytesChart.h"
#include "charts/FrontierChart.h"
#include "charts/LayerChart.h"
#include "charts/LegendFit.h"
#include "charts/NiceAxis.h"
#include "charts/SeriesPalette.h"
#include "UiTestSupport.h"
#include "RunFixtures.h"
#include "dpu/Frontier.h"
#include "dpu/Plan.h"
#include <QChart>
#include <QChartView>
#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QAbstractSeries>
#include <QLogValueAxis>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QtTest/QtTest>
#include <cmath>

using dpu::ui::SeriesPalette;

namespace {
dpu::RoundRecord record(const char* strategy, int round, double accuracy, double cumulativeBytes)
{
    dpu::RoundRecord r;
    r.strategy = strategy;
    r.seed = 1;
    r.round = round;
    r.deployed = true;
    r.testAccuracy = accuracy;
    r.cumulativeBits = cumulativeBytes * 8;
    return r;
}

/// WCAG contrast ratio of a colour against white.
double contrastOnWhite(const QColor& c)
{
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double l = 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
    return 1.05 / (l + 0.05);
}

double distance(const QColor& a, const QColor& b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

/// Ticks sit on multiples of the interval, which is 1, 2 or 5 times a power of ten.
void expectRoundTicks(const QValueAxis* axis)
{
    const double step = axis->tickInterval();
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9,
             qPrintable(QString::number(step)));
    QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
    QVERIFY(std::abs(std::remainder(axis->tickAnchor(), step)) < 1e-9);
    QVERIFY2(std::abs(std::remainder(axis->min(), step)) < 1e-9, qPrintable(QString::number(axis->min())));
    QVERIFY2(std::abs(std::remainder(axis->max(), step)) < 1e-9, qPrintable(QString::number(axis->max())));
}
} // namespace

/// Entries drawn in a right-hand legend column: runs of rows with non-background pixels in the
/// strip where the markers are (each entry draws one marker; labels start further right).
static int drawnLegendRows(QWidget& view)
{
    const QImage image = view.grab().toImage();
    const QRectF legend = static_cast<QChartView&>(view).chart()->legend()->geometry();
    const QRgb background = image.pixel(qRound(legend.left()) + 1, qRound(legend.top()) + 1);
    int rows = 0;
    bool inRow = false;
    // A legend inside the plot ends at its box (the axis line lies just below it).
    const int below = dpu::ui::LegendFit::isInside(static_cast<QChartView&>(view).chart()) ? 0 : 20;
    for (int y = qRound(legend.top()); y < qMin(image.height(), qRound(legend.bottom()) + below); ++y) {
        bool ink = false;
        for (int x = qRound(legend.left()); x < qRound(legend.left()) + 24 && !ink; ++x)
            ink = qGray(image.pixel(x, y)) < qGray(background) - 60;
        rows += ink && !inRow;
        inRow = ink;
    }
    return rows;
}

class TestUiChartLook : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void strategyColoursAreFixedAndReadable()
    {
        // The order series appear in does not matter: dpu is dpu's colour in every run.
        dpu::ui::AccuracyChart a, b;
        a.addRecord(QStringLiteral("dpu"), record("dpu", 1, 0.7, 1));
        a.addRecord(QStringLiteral("fu"), record("fu", 1, 0.7, 1));
        b.addRecord(QStringLiteral("rpu"), record("rpu", 1, 0.7, 1));
        b.addRecord(QStringLiteral("fu"), record("fu", 1, 0.7, 1));
        b.addRecord(QStringLiteral("dpu"), record("dpu", 1, 0.7, 1));
        for (const QString& key : {QStringLiteral("dpu"), QStringLiteral("fu")})
            QCOMPARE(a.series(key)->color(), b.series(key)->color());
        // Every strategy its own colour, each readable as a line on white (no pale yellow).
        QList<QColor> seen;
        for (const auto& s : dpu::strategyNames()) {
            const QColor c = SeriesPalette::strategyColor(QString::fromStdString(s));
            QVERIFY2(contrastOnWhite(c) >= 3.0, qPrintable(QString::fromStdString(s) + QStringLiteral(" ") + c.name()));
            for (const QColor& other : seen)
                QVERIFY2(distance(c, other) > 60, qPrintable(c.name() + QStringLiteral(" vs ") + other.name()));
            seen << c;
        }
    }

    void sweepShadesOneStrategyPerK()
    {
        dpu::ui::AccuracyChart chart;
        const QStringList ks{QStringLiteral("0.1"), QStringLiteral("0.001"), QStringLiteral("0.01"), QStringLiteral("0.05"),
                             QStringLiteral("0.005")};
        for (const QString& k : ks)
            chart.addRecord(QStringLiteral("dpu · k=") + k, record("dpu", 1, 0.7, 1));
        QList<QColor> shades;
        for (const QString& k : ks)
            shades << chart.series(QStringLiteral("dpu · k=") + k)->color();
        for (int i = 0; i < shades.size(); ++i) {
            QVERIFY2(contrastOnWhite(shades[i]) >= 2.0, qPrintable(shades[i].name()));
            for (int j = 0; j < i; ++j)
                QVERIFY2(distance(shades[i], shades[j]) > 40, qPrintable(shades[i].name() + QStringLiteral(" ") + shades[j].name()));
        }
        // Darkest for the smallest k, and every shade stays near dpu's blue (bluer than red).
        QVERIFY(shades[1].lightness() < shades[0].lightness());
        for (const QColor& c : shades)
            QVERIFY(c.blue() > c.red());
    }

    void aLoneFirstRoundIsDrawn()
    {
        dpu::ui::AccuracyChart chart;
        chart.resize(400, 300);
        chart.addRecord(QStringLiteral("dpu"), record("dpu", 1, 0.7, 1000));
        const auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).constFirst());
        QVERIFY(x->min() < 1 && x->max() > 1); // round 1 lies inside the plot, not on its edge
        chart.chart()->legend()->hide(); // its swatch would count as well
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QImage image = chart.grab().toImage();
        const QColor blue = SeriesPalette::strategyColor(QStringLiteral("dpu"));
        int marker = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int xx = 0; xx < image.width() / 1; ++xx)
                marker += distance(image.pixelColor(xx, y), blue) < 60;
        qInfo("pixels in dpu blue with one point: %d", marker);
        // A 6-point marker is a disc of about 28 pixels (a line through one point draws none).
        QVERIFY2(marker >= 20, qPrintable(QString::number(marker)));
    }

    void axesTickOnRoundNumbers()
    {
        dpu::ui::AccuracyChart acc;
        for (int round = 1; round <= 53; ++round)
            acc.addRecord(QStringLiteral("dpu"), record("dpu", round, 0.538 + 0.0033 * round, 1000.0 * round));
        const auto* x = qobject_cast<QValueAxis*>(acc.chart()->axes(Qt::Horizontal).constFirst());
        const auto* y = qobject_cast<QValueAxis*>(acc.chart()->axes(Qt::Vertical).constFirst());
        expectRoundTicks(y);
        QVERIFY(y->min() <= 53.8 + 0.33 && y->max() >= 53.8 + 0.33 * 53);
        QVERIFY(y->max() <= 100);
        QVERIFY(x->tickInterval() >= 1 && std::abs(x->tickInterval() - std::round(x->tickInterval())) < 1e-9);
        QVERIFY(53 / x->tickInterval() <= 11);
        // The 1-2-5 rule itself.
        QCOMPARE(dpu::ui::NiceAxis::step(25, 5), 5.0);
        QCOMPARE(dpu::ui::NiceAxis::step(0.8, 5), 0.2);
        QCOMPARE(dpu::ui::NiceAxis::step(3, 10, true), 1.0);
        QCOMPARE(dpu::ui::NiceAxis::decimals(0.2), 1);
        QCOMPARE(dpu::ui::NiceAxis::decimals(5), 0);
    }

    void byteAxesSpeakInUnits()
    {
        QCOMPARE(dpu::ui::ByteAxis::label(1), QStringLiteral("1 B"));
        QCOMPARE(dpu::ui::ByteAxis::label(100), QStringLiteral("100 B"));
        QCOMPARE(dpu::ui::ByteAxis::label(1e4), QStringLiteral("10 KB"));
        QCOMPARE(dpu::ui::ByteAxis::label(1e6), QStringLiteral("1 MB"));
        QCOMPARE(dpu::ui::ByteAxis::label(1e9), QStringLiteral("1 GB"));
        dpu::ui::BytesChart chart;
        chart.addRecord(QStringLiteral("dpu"), record("dpu", 1, 0.7, 37637));
        chart.addRecord(QStringLiteral("fu"), record("fu", 3, 0.8, 8036472));
        QCOMPARE(chart.byteAxis()->labels(),
                 (QStringList{QStringLiteral("10 KB"), QStringLiteral("100 KB"), QStringLiteral("1 MB"), QStringLiteral("10 MB")}));
        for (QAbstractAxis* axis : chart.chart()->axes(Qt::Horizontal))
            if (auto* log = qobject_cast<QLogValueAxis*>(axis))
                QVERIFY(!log->labelsVisible()); // no "1e+04" under the unit labels
    }

    void narrowByteAxesKeepTheirLabels()
    {
        // The Budget tab's chart at 1366x768 leaves a plot about 200 px wide: five decade labels and the
        // long title were elided to "1 ...", "10..." and "Real bundle bytes per u...".
        dpu::ui::FrontierChart chart;
        std::vector<dpu::ui::FrontierPoint> points(2);
        points[0].strategy = "dpu";
        points[0].k = 0.01;
        points[0].realBytesPerUpdateRound = 2000;
        points[0].meanAccuracy = 0.8;
        points[0].family = "dpu";
        points[1] = points[0];
        points[1].strategy = "fu";
        points[1].family = "fu";
        points[1].realBytesPerUpdateRound = 5e6;
        chart.setFrontier(points, 0, {});
        dpu::ui::ByteAxis* axis = chart.byteAxis();
        QCategoryAxis* labels = axis->labelAxis();
        for (int width : {280, 1200}) {
            chart.resize(width, 420);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            QCoreApplication::processEvents();
            const QRectF plot = chart.chart()->plotArea();
            // Adjacent labels stand at least their width plus a gap apart on the plot.
            const QFontMetricsF fm(labels->labelsFont());
            const QStringList shown = axis->labels();
            QVERIFY(shown.size() >= 2);
            const qreal decade = plot.width() / (std::log10(axis->logAxis()->max()) - std::log10(axis->logAxis()->min()));
            for (const QString& l : shown)
                QVERIFY2(fm.horizontalAdvance(l) + fm.averageCharWidth() <= decade * axis->labelStep(),
                         qPrintable(QStringLiteral("%1 px a decade, step %2").arg(decade).arg(axis->labelStep())));
            // The title fits the plot's width.
            QVERIFY2(QFontMetricsF(labels->titleFont()).horizontalAdvance(labels->titleText()) <= plot.width(),
                     qPrintable(labels->titleText()));
            if (width == 1200) {
                QCOMPARE(axis->labelStep(), 1); // room for every decade and the full title
                QVERIFY(labels->titleText().contains(QStringLiteral("update round")));
            } else {
                QVERIFY(axis->labelStep() > 1);
            }
        }
    }

    void layerSharesStopAt100()
    {
        dpu::ui::LayerChart chart;
        dpu::RoundRecord r = record("fu", 1, 0.7, 1);
        r.layers = {{"fc1.weight", 100, 100}, {"fc2.weight", 100, 20}}; // name, total, updated
        chart.showRecord(r);
        QCOMPARE(chart.barCount(), 2);
        const auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).constFirst());
        QCOMPARE(y->max(), 100.0);
        expectRoundTicks(y);
        r.layers = {{"fc1.weight", 1000, 7}, {"fc2.weight", 1000, 3}}; // 0.7 %: a finer axis
        chart.showRecord(r);
        chart.barCount();
        QVERIFY(y->max() >= 0.7 && y->max() <= 1.0);
        expectRoundTicks(y);
    }

    void legendKeepsLabelsWithManyRuns()
    {
        // 28 runs open at 1366x768: Qt's one-row legend shrank every label to nothing. Few
        // series stay in a row below; many go to a column on the right, wide enough to read.
        dpu::ui::AccuracyChart chart;
        chart.resize(900, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        for (const char* s : {"dpu", "fu", "rpu"})
            chart.addRecord(QString::fromLatin1(s), record(s, 1, 0.7, 1));
        QCoreApplication::processEvents();
        QCOMPARE(chart.chart()->legend()->alignment(), Qt::AlignBottom);
        const qreal basePt = chart.chart()->legend()->font().pointSizeF();
        QString longest;
        for (int i = 0; i < 28; ++i) {
            const QString key = QStringLiteral("fashion-mlp-k0.0%1 · dpu-memory").arg(100 + i);
            chart.addRecord(key, record("dpu-memory", 1, 0.7, 1));
            longest = key;
        }
        QCoreApplication::processEvents();
        QLegend* legend = chart.chart()->legend();
        QCOMPARE(legend->alignment(), Qt::AlignRight);
        const qreal label = QFontMetricsF(legend->font()).horizontalAdvance(longest);
        QVERIFY2(legend->geometry().width() >= label, qPrintable(QString::number(legend->geometry().width())));
        QVERIFY(legend->geometry().width() <= dpu::ui::LegendFit::kColumnShare * chart.width() + 1);
        QVERIFY(chart.chart()->plotArea().width() >= 0.5 * chart.width()); // the plot keeps most of it
        // Past about 20 entries Qt clipped the column's last ones silently. Now every entry the
        // column keeps is drawn (counted as marker rows in the rendered legend), and those it
        // leaves out are counted in its tooltip.
        const auto check = [&chart, legend](int total) {
            const int hidden = dpu::ui::LegendFit::hiddenEntries(chart.chart());
            int shown = 0;
            for (QLegendMarker* m : legend->markers())
                shown += m->isVisible() && m->series()->type() != QAbstractSeries::SeriesTypeArea;
            QCOMPARE(shown + hidden, total);
            QCOMPARE(drawnLegendRows(chart), shown);
            if (hidden > 0)
                QVERIFY2(legend->toolTip().contains(QString::number(hidden)), qPrintable(legend->toolTip()));
            else
                QVERIFY(legend->toolTip().isEmpty());
        };
        check(31);
        QVERIFY(legend->font().pointSizeF() < basePt); // smaller type before leaving any out
        QVERIFY(legend->font().pointSizeF() >= dpu::ui::LegendFit::kMinFontShare * basePt - 0.01);
        // Taller, all 31 fit.
        chart.resize(900, 700);
        QCoreApplication::processEvents();
        QCOMPARE(dpu::ui::LegendFit::hiddenEntries(chart.chart()), 0);
        check(31);
        chart.resize(900, 420);
        for (int i = 28; i < 80; ++i)
            chart.addRecord(QStringLiteral("fashion-mlp-k0.0%1 · dpu-memory").arg(100 + i), record("dpu-memory", 1, 0.7, 1));
        QCoreApplication::processEvents();
        QVERIFY(dpu::ui::LegendFit::hiddenEntries(chart.chart()) > 40);
        check(83);
        // Back to a few: the row again.
        chart.clearSeries();
        chart.addRecord(QStringLiteral("dpu"), record("dpu", 1, 0.7, 1));
        QCOMPARE(chart.chart()->legend()->alignment(), Qt::AlignBottom);
    }

    /// Issue 45: FU of a q4 run ships the fp32 run's full bundles, exact (the engine codes only
    /// the partial updates): the frontier draws one FU line, solid as exact FU, not "fu q4"
    /// beside "fu". The chart draws the frontier's families; it has no rule of its own.
    void codedRunsDrawOneFullUpdatingLine()
    {
        auto records = [](int64_t dpuBytes) {
            return dpu::test::joined({dpu::test::strategyRounds("dpu", 1, {0.8, 0.9}, {100, 100}, {dpuBytes, dpuBytes}, 4040),
                                      dpu::test::strategyRounds("fu", 1, {0.85, 0.95}, {4040, 4040}, {4100, 4100}, 4040)});
        };
        const auto groups = dpu::frontierGroups(
            {dpu::test::frontierRun("A", dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "fp32"), records(80)),
             dpu::test::frontierRun("B", dpu::test::sweepPlan(0.01, 2, {"dpu", "fu"}, "q4"), records(30))});
        QCOMPARE(groups.size(), size_t(1));
        dpu::ui::FrontierChart chart;
        chart.setFrontier(groups[0].points, 0, {});
        QCOMPARE(chart.seriesKeys(), (QStringList{QStringLiteral("dpu"), QStringLiteral("dpu q4"), QStringLiteral("fu")}));
        QCOMPARE(chart.series(QStringLiteral("fu"))->pen().style(), Qt::SolidLine);
    }

    void frontierVariantsHaveHollowMarkers()
    {
        // "dpu q4" and "dpu coded q4" share a colour and a shape: the variant is hollow.
        dpu::ui::FrontierChart chart;
        std::vector<dpu::ui::FrontierPoint> points(2);
        points[0].strategy = "dpu";
        points[0].k = 0.01;
        points[0].realBytesPerUpdateRound = 10000;
        points[0].meanAccuracy = 0.8;
        points[0].familyValues = {{"bundle.values", "\"q4\""}};
        points[0].family = "dpu q4";
        points[1] = points[0];
        points[1].familyValues.push_back({"bundle.dense_tensors", "\"coded\""});
        points[1].family = "dpu coded q4";
        chart.setFrontier(points, 0, {});
        const QImage plain = chart.series(QStringLiteral("dpu q4"))->lightMarker();
        const QImage hollow = chart.series(QStringLiteral("dpu coded q4"))->lightMarker();
        const QColor blue = SeriesPalette::strategyColor(QStringLiteral("dpu"));
        QVERIFY(distance(plain.pixelColor(12, 12), blue) < 30);
        QVERIFY(distance(hollow.pixelColor(12, 12), Qt::white) < 30);
        QVERIFY(distance(hollow.pixelColor(12, 2), blue) < 60); // the outline near the top corner
    }

    /// Six families on the Budget tab at 1366x768 (a chart about 470 px wide): a legend column
    /// beside the plot left it about 250 px and cut the byte axis' labels ("100 ..."). The
    /// frontier's legend goes into the plot's empty corner (many bytes, little accuracy) and the
    /// plot keeps the chart's width; a wide chart keeps the row below.
    void frontierLegendGoesInsideWhenNarrow()
    {
        dpu::ui::FrontierChart chart;
        chart.resize(470, 470);
        std::vector<dpu::ui::FrontierPoint> points;
        const char* strategies[] = {"dpu", "fu", "rpu"};
        const char* codings[] = {"fp32", "q4"};
        for (const char* s : strategies)
            for (const char* c : codings) {
                dpu::ui::FrontierPoint p;
                p.strategy = s;
                p.k = 0.01;
                p.realBytesPerUpdateRound = std::string(s) == "fu" ? 2.6e6 : std::string(c) == "q4" ? 12000 : 32000;
                p.meanAccuracy = std::string(s) == "rpu" ? 0.74 : std::string(s) == "fu" ? 0.78 : 0.77;
                p.familyValues = {{"bundle.values", std::string("\"") + c + "\""}};
                p.family = std::string(s) + (std::string(c) == "fp32" ? "" : std::string(" ") + c);
                points.push_back(p);
            }
        chart.setFrontier(points, 40000, {QPointF(32000, 77)});
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCoreApplication::processEvents();
        QVERIFY(dpu::ui::LegendFit::isInside(chart.chart()));
        const QRectF plot = chart.chart()->plotArea();
        const QRectF legend = chart.chart()->legend()->geometry();
        QVERIFY2(plot.width() >= 0.7 * chart.width(), qPrintable(QString::number(plot.width())));
        // In the bottom right corner of the plot, every entry readable at full size.
        QVERIFY2(plot.contains(legend), qPrintable(QStringLiteral("%1 in %2").arg(legend.right()).arg(plot.right())));
        QVERIFY(legend.center().x() > plot.center().x() && legend.center().y() > plot.center().y());
        for (const auto& p : points) // it hides no family's point
            QVERIFY(!legend.contains(chart.chart()->mapToPosition(QPointF(p.realBytesPerUpdateRound, 100 * p.meanAccuracy),
                                                                   chart.series(QString::fromStdString(p.family)))));
        QCOMPARE(drawnLegendRows(chart), 8); // six families, the budget, the recommended marker
        QCOMPARE(dpu::ui::LegendFit::hiddenEntries(chart.chart()), 0);
        // The corner follows the plot when the chart grows; wide enough, the row below returns.
        chart.resize(560, 470);
        QCoreApplication::processEvents();
        QVERIFY(chart.chart()->plotArea().contains(chart.chart()->legend()->geometry()));
        chart.resize(1400, 470);
        QCoreApplication::processEvents();
        QVERIFY(!dpu::ui::LegendFit::isInside(chart.chart()));
        QCOMPARE(chart.chart()->legend()->alignment(), Qt::AlignBottom);
        QVERIFY(chart.chart()->legend()->geometry().top() >= chart.chart()->plotArea().bottom());
    }

    void frontierRedrawsWholeWhenTheBudgetMoves()
    {
        dpu::ui::FrontierChart chart;
        chart.resize(500, 350);
        // Partial repaints left torn and doubled markers: the view repaints whole.
        QCOMPARE(chart.viewportUpdateMode(), QGraphicsView::FullViewportUpdate);
        std::vector<dpu::ui::FrontierPoint> points(2);
        points[0].strategy = "dpu";
        points[0].k = 0.01;
        points[0].meanBytesPerRound = 40000;
        points[0].realBytesPerUpdateRound = 40000;
        points[0].meanAccuracy = 0.8;
        points[1] = points[0];
        points[1].k = 0.1;
        points[1].meanBytesPerRound = 300000;
        points[1].realBytesPerUpdateRound = 300000;
        points[1].meanAccuracy = 0.85;
        for (const double budget : {50000.0, 120000.0, 90000.0}) {
            chart.setFrontier(points, budget, {QPointF(budget, 81)});
            // One line, one budget line, one expected marker: nothing left from before.
            QCOMPARE(chart.chart()->series().size(), 3);
            QCOMPARE(chart.pointCount(QStringLiteral("dpu")), 2);
            QCOMPARE(chart.expectedSeries()->count(), 1);
            QCOMPARE(chart.series(dpu::ui::FrontierChart::budgetKey())->at(0).x(), budget);
        }
    }
};

QTEST_MAIN(TestUiChartLook)
#include "test_ui_chart_look.moc"
