// SPDX-License-Identifier: MIT
// Tests of the live charts' seed handling: several seeds draw a mean with a +-std band, updated
// in place as each seed's rounds arrive; a single seed draws the plain line.
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "models/RoundsTableModel.h"
#include "panels/ResultsPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include <QAreaSeries>
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
        QVERIFY(tmp_.isValid());
        dpu::uitest::isolateSettings(tmp_.filePath(QStringLiteral("settings")));
        dpu::ui::registerEngineMetatypes();
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
};

QTEST_MAIN(TestUiCharts)
#include "test_ui_charts.moc"
