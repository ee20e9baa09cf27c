// SPDX-License-Identifier: MIT
// Tests of the live charts' seed handling: several seeds draw a mean with a +-std band, updated
// in place as each seed's rounds arrive; a single seed draws the plain line.
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "charts/AccuracyChart.h"
#include "charts/ByteAxis.h"
#include "charts/BytesChart.h"
#include "charts/LayerChart.h"
#include "models/RoundsTableModel.h"
#include "panels/ResultsPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QtTest/QtTest>

using dpu::ui::MainWindow;

namespace {
dpu::RoundRecord record(const char* strategy, uint64_t seed, int round, double accuracy, double cumulativeBytes)
{
    dpu::RoundRecord r;
    r.strategy = strategy;
    r.seed = seed;
    r.round = round;
    r.deployed = true;
    r.testAccuracy = accuracy;
    r.cumulativeBits = cumulativeBytes * 8;
    return r;
}

/// The (x, y) points of a series, for one QCOMPARE with a readable failure.
QList<QPointF> points(const QLineSeries* s)
{
    return s ? s->points() : QList<QPointF>{};
}
} // namespace

class TestUiCharts : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
    }

    void twoSeedsDrawMeanAndStdBand()
    {
        dpu::ui::ResultsPanel results;
        dpu::ui::AccuracyChart* acc = results.accuracyChart();
        dpu::ui::BytesChart* bytes = results.bytesChart();
        const QString key = QStringLiteral("dpu");
        // Seed 1 first (the runner's order): a band of one seed has zero width.
        results.addRecord(QStringLiteral("1"), key, record("dpu", 1, 1, 0.80, 1000), true);
        results.addRecord(QStringLiteral("1"), key, record("dpu", 1, 2, 0.70, 2000), true);
        QCOMPARE(points(acc->series(key)), (QList<QPointF>{{1, 80}, {2, 70}}));
        QCOMPARE(points(acc->upperSeries(key)), (QList<QPointF>{{1, 80}, {2, 70}}));
        QCOMPARE(points(acc->lowerSeries(key)), (QList<QPointF>{{1, 80}, {2, 70}}));

        // Seed 2, round 1: 80 and 90 -> mean 85, std 5 (population); round 2 still seed 1 only.
        results.addRecord(QStringLiteral("1"), key, record("dpu", 2, 1, 0.90, 1000), true);
        QCOMPARE(points(acc->series(key)), (QList<QPointF>{{1, 85}, {2, 70}}));
        QCOMPARE(points(acc->upperSeries(key)), (QList<QPointF>{{1, 90}, {2, 70}}));
        QCOMPARE(points(acc->lowerSeries(key)), (QList<QPointF>{{1, 80}, {2, 70}}));

        // Round 2: 70 and 74 -> mean 72, std 2.
        results.addRecord(QStringLiteral("1"), key, record("dpu", 2, 2, 0.74, 3000), true);
        const auto near = [](const QList<QPointF>& got, const QList<QPointF>& want) {
            if (got.size() != want.size())
                return false;
            for (int i = 0; i < got.size(); ++i)
                if (std::abs(got[i].x() - want[i].x()) > 1e-9 || std::abs(got[i].y() - want[i].y()) > 1e-9)
                    return false;
            return true;
        };
        QVERIFY(near(points(acc->series(key)), {{1, 85}, {2, 72}}));
        QVERIFY(near(points(acc->upperSeries(key)), {{1, 90}, {2, 74}}));
        QVERIFY(near(points(acc->lowerSeries(key)), {{1, 80}, {2, 70}}));
        QCOMPARE(acc->pointCount(key), 2); // one point per round: nothing dropped, nothing duplicated
        QVERIFY(acc->bandSeries(key));
        QCOMPARE(acc->bandSeries(key)->upperSeries(), acc->upperSeries(key));
        QCOMPARE(acc->bandSeries(key)->lowerSeries(), acc->lowerSeries(key));

        // Accuracy against bytes: x is the seeds' mean cumulative bytes (2000 and 3000 -> 2500).
        QVERIFY(near(points(bytes->series(key)), {{1000, 85}, {2500, 72}}));
        QVERIFY(near(points(bytes->upperSeries(key)), {{1000, 90}, {2500, 74}}));
        QVERIFY(near(points(bytes->lowerSeries(key)), {{1000, 80}, {2500, 70}}));

        // One legend entry per strategy; toggling it hides the band with the line.
        QVERIFY(acc->chart()->legend()->markers(acc->bandSeries(key)).constFirst()->isVisible() == false);
        acc->setSeriesVisible(key, false);
        QVERIFY(!acc->bandSeries(key)->isVisible());
        acc->setSeriesVisible(key, true);
        QVERIFY(acc->bandSeries(key)->isVisible());
        // The table keeps every seed's row.
        QCOMPARE(results.roundsModel()->rowCount(), 4);

        // A single seed draws the plain line, no band.
        results.addRecord(QStringLiteral("1"), QStringLiteral("fu"), record("fu", 1, 1, 0.9, 5000));
        QVERIFY(!acc->bandSeries(QStringLiteral("fu")));
        QVERIFY(!acc->upperSeries(QStringLiteral("fu")));
        QCOMPARE(points(acc->series(QStringLiteral("fu"))), (QList<QPointF>{{1, 90}}));

        results.clear();
        QVERIFY(!acc->bandSeries(key));
        QCOMPARE(acc->pointCount(key), 0);
    }

    void bytesChartDrawsTheBundlesReallySent()
    {
        // A q4 run: each round's bundle is about a quarter of the analytic fp32 figure.
        dpu::ui::ResultsPanel results;
        dpu::RoundRecord q4 = record("dpu", 1, 1, 0.80, 37637);
        q4.bundleBytes = 10312;
        q4.cumulativeBundleBytes = 10312;
        dpu::RoundRecord q4b = record("dpu", 1, 2, 0.82, 2 * 37637);
        q4b.bundleBytes = 10500;
        q4b.cumulativeBundleBytes = 20812;
        q4b.analyticBits = 37637 * 8;
        results.addRecord(QStringLiteral("1"), QStringLiteral("dpu · q4"), q4, false, QStringLiteral("q4"));
        results.addRecord(QStringLiteral("1"), QStringLiteral("dpu · q4"), q4b, false, QStringLiteral("q4"));
        QCOMPARE(points(results.bytesChart()->series(QStringLiteral("dpu · q4"))),
                 (QList<QPointF>{QPointF(10312, 80), QPointF(20812, 82)}));
        // A run without bundles (older records): the analytic bytes, as before.
        results.addRecord(QStringLiteral("2"), QStringLiteral("fu"), record("fu", 1, 1, 0.85, 2680424));
        QCOMPARE(points(results.bytesChart()->series(QStringLiteral("fu"))), (QList<QPointF>{QPointF(2680424, 85)}));
        // The axis says what it counts.
        const QString axisTitle = results.bytesChart()->byteAxis()->labelAxis()->titleText();
        QVERIFY2(axisTitle.contains(QStringLiteral("bundle bytes"), Qt::CaseInsensitive), qPrintable(axisTitle));
        // The table keeps both, the ratio labelled as the paper's analytic one, and the coding.
        const auto* table = results.roundsModel();
        using M = dpu::ui::RoundsTableModel;
        QCOMPARE(table->headerData(M::CumulativeRatio, Qt::Horizontal).toString(), QStringLiteral("Cumulative ratio (analytic)"));
        QCOMPARE(table->data(table->index(1, M::CumulativeBundleBytes), M::SortRole).toLongLong(), 20812);
        QCOMPARE(table->data(table->index(1, M::Bytes), M::SortRole).toDouble(), 37637.0);
        QCOMPARE(table->data(table->index(1, M::Coding)).toString(), QStringLiteral("q4"));
        QVERIFY(table->toCsv().startsWith(QStringLiteral("run,round,strategy,coding,")));
    }

    void layerChartShowsAnySeriesLatestRound()
    {
        dpu::ui::ResultsPanel results;
        dpu::RoundRecord a = record("dpu", 1, 1, 0.8, 1000);
        a.layers = {{"fc1.weight", 100, 10}, {"fc2.weight", 50, 5}};
        dpu::RoundRecord b = record("rpu", 1, 1, 0.7, 1000);
        b.layers = {{"fc1.weight", 100, 1}};
        results.addRecord(QStringLiteral("1"), QStringLiteral("dpu · k=0.1"), a);
        results.addRecord(QStringLiteral("1"), QStringLiteral("rpu · k=0.1"), b);
        dpu::ui::LayerChart* layers = results.layerChart();
        // The latest round is shown, named by its series; every series is offered.
        QVERIFY2(layers->title().contains(QStringLiteral("rpu · k=0.1 round 1")), qPrintable(layers->title()));
        QCOMPARE(layers->offeredKeys(), (QStringList{QStringLiteral("dpu · k=0.1"), QStringLiteral("rpu · k=0.1")}));
        QVERIFY(layers->showKey(QStringLiteral("dpu · k=0.1")));
        QCOMPARE(layers->barCount(), 2);
        QVERIFY2(layers->title().contains(QStringLiteral("dpu · k=0.1 round 1")), qPrintable(layers->title()));
        QVERIFY(!layers->showKey(QStringLiteral("fu")));
        results.clear();
        QVERIFY(layers->offeredKeys().isEmpty());
    }

    void windowBandsAPlanWithSeveralSeeds()
    {
        // The run queue's signals, as a run of a two-seed plan sends them (no training here).
        MainWindow w;
        dpu::Plan plan = dpu::defaultPlan();
        plan.seeds = {3, 4};
        plan.strategies = {"dpu"};
        Q_EMIT w.runQueue()->runQueued(41, plan);
        Q_EMIT w.runQueue()->roundDone(41, record("dpu", 3, 1, 0.60, 100));
        Q_EMIT w.runQueue()->roundDone(41, record("dpu", 4, 1, 0.70, 100));
        dpu::ui::AccuracyChart* acc = w.resultsPanel()->accuracyChart();
        QCOMPARE(acc->seriesKeys().size(), 1); // one mean line for both seeds
        const QString key = acc->seriesKeys().constFirst();
        QVERIFY2(key.startsWith(QStringLiteral("dpu")) && !key.contains(QStringLiteral(" s3")), qPrintable(key));
        QCOMPARE(points(acc->series(key)), (QList<QPointF>{{1, 65}}));
        QCOMPARE(points(acc->upperSeries(key)), (QList<QPointF>{{1, 70}}));
        QCOMPARE(points(acc->lowerSeries(key)), (QList<QPointF>{{1, 60}}));
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 2);
    }

    /// The title names what all shown runs share: the coding, and a sparse deployed model
    /// (whose round 1 and costs mean something else); runs of two forms leave it out.
    void titleNamesASharedSparseModel()
    {
        dpu::Plan sparse = dpu::defaultPlan();
        sparse.deployed = dpu::DeployedForm::Sparse;
        QCOMPARE(dpu::ui::ChartView::sharedContext({sparse}),
                 QString::fromStdString(sparse.name) + QStringLiteral(" · fp32 · 50 %-sparse model"));
        QCOMPARE(dpu::ui::ChartView::sharedContext({sparse, dpu::defaultPlan()}), QStringLiteral("fp32"));
        // An INT8 model's bundles carry codes, so its title names the model, not a value coding.
        dpu::Plan int8 = dpu::defaultPlan();
        int8.deployed = dpu::DeployedForm::Int8;
        QCOMPARE(dpu::ui::ChartView::sharedContext({int8}), QString::fromStdString(int8.name) + QStringLiteral(" · INT8 model"));
        QCOMPARE(dpu::ui::ChartView::sharedContext({int8, dpu::defaultPlan()}), QString());
    }
};

QTEST_MAIN(TestUiCharts)
#include "test_ui_charts.moc"
