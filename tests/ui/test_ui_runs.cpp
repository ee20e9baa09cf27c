// SPDX-License-Identifier: MIT
// Tests that train: a tiny run through the real window, Stop/Pause, closing during a run,
// queued runs, and the UI responsiveness probe.
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/LayerChart.h"
#include "charts/LossChart.h"
#include "models/RoundsTableModel.h"
#include "panels/CostReadout.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/RunPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QElapsedTimer>
#include <QTimer>
#include <QtTest/QtTest>

using dpu::ui::MainWindow;

namespace {
constexpr int kRunTimeoutMs = 240000; // the shared two-core machine is slow

/// Ticks every 10 ms on the GUI thread and records the longest gap between ticks.
class GapProbe : public QObject {
public:
    GapProbe()
    {
        timer_.setInterval(10);
        timer_.setTimerType(Qt::PreciseTimer);
        QObject::connect(&timer_, &QTimer::timeout, this, [this] {
            longest_ = std::max(longest_, clock_.restart());
            ++ticks_;
        });
    }
    void start()
    {
        clock_.start();
        timer_.start();
    }
    void stop() { timer_.stop(); }
    qint64 longestGapMs() const { return longest_; }
    int ticks() const { return ticks_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 longest_ = 0;
    int ticks_ = 0;
};
} // namespace

class TestUiRuns : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString dataset_;

    void prepare(MainWindow& w)
    {
        w.setAskBeforeClosingRun(false);
        w.runQueue()->setOutputRoot(tmp_.filePath(QStringLiteral("runs")));
        w.resize(1280, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dpu::uitest::isolateSettings(tmp_.filePath(QStringLiteral("settings")));
        dataset_ = dpu::uitest::datasetFolder(tmp_.path());
        dpu::ui::registerEngineMetatypes();
    }

    void tinyRunFillsChartsAndTable()
    {
        MainWindow w;
        prepare(w);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 2, 1, {"dpu", "fu"});
        QSignalSpy finished(&w, &MainWindow::runsFinished);
        QSignalSpy summaries(w.runQueue(), &dpu::ui::RunQueue::runFinished);
        QSignalSpy failures(w.runQueue(), &dpu::ui::RunQueue::runFailed);
        QSignalSpy epochs(w.runQueue(), &dpu::ui::RunQueue::epochDone);
        GapProbe probe;
        probe.start();
        w.runAction()->trigger();
        QVERIFY(w.runQueue()->isBusy());
        QVERIFY(w.stopAction()->isEnabled());
        QVERIFY(finished.wait(kRunTimeoutMs));
        probe.stop();
        QVERIFY2(failures.isEmpty(), failures.isEmpty() ? "" : qPrintable(failures[0][1].toString()));
        QCOMPARE(summaries.size(), 1);
        const auto summary = summaries[0][1].value<dpu::RunSummary>();
        QVERIFY(!summary.cancelled);
        QCOMPARE(summary.records.size(), size_t(4));

        dpu::ui::ResultsPanel* r = w.resultsPanel();
        for (const QString key : {QStringLiteral("dpu"), QStringLiteral("fu")}) {
            QCOMPARE(r->accuracyChart()->pointCount(key), 2);
            QCOMPARE(r->bytesChart()->pointCount(key), 2);
            int epochEvents = 0;
            for (const auto& args : epochs)
                epochEvents += QString::fromStdString(args[1].value<dpu::EpochEvent>().strategy) == key;
            QVERIFY(epochEvents >= 2); // 1 epoch per step, at least one step per round
            QCOMPARE(r->lossChart()->pointCount(key), epochEvents);
        }
        QCOMPARE(r->roundsModel()->rowCount(), 4);
        // The layer chart shows the latest round: one bar per partial tensor (3 in the MLP).
        QCOMPARE(r->layerChart()->barCount(), static_cast<int>(summary.records.back().layers.size()));
        QCOMPARE(r->layerChart()->barCount(), 3);
        // The table's bytes are the engine's analytic figure; FU ships the full model.
        for (int row = 0; row < 4; ++row) {
            const dpu::RoundRecord& rec = r->roundsModel()->record(row);
            if (rec.strategy == "fu" && rec.deployed)
                QCOMPARE(qRound64(rec.analyticBits / 8), qint64(2678824)); // 4 x 669706 weights
            if (rec.strategy == "dpu" && rec.deployed)
                QCOMPARE(qRound64(rec.analyticBits / 8), qint64(37637));
        }
        QCOMPARE(qRound64(w.planPanel()->costReadout()->bytesPerRound()), qint64(37637));
        QVERIFY(!w.runQueue()->isBusy());
        QVERIFY(!w.stopAction()->isEnabled());
        qInfo("UI responsiveness: longest gap between 10 ms ticks during the run: %lld ms (%d ticks)",
              static_cast<long long>(probe.longestGapMs()), probe.ticks());
        QVERIFY2(probe.longestGapMs() < 200, qPrintable(QString::number(probe.longestGapMs())));
        QVERIFY(probe.ticks() > 10);
    }

    void pauseHoldsAndStopKeepsFinishedRounds()
    {
        MainWindow w;
        prepare(w);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 8, 2, {"dpu", "fu"});
        QSignalSpy finished(&w, &MainWindow::runsFinished);
        QSignalSpy summaries(w.runQueue(), &dpu::ui::RunQueue::runFinished);
        QSignalSpy rounds(w.runQueue(), &dpu::ui::RunQueue::roundDone);
        QSignalSpy paused(w.runQueue(), &dpu::ui::RunQueue::pausedChanged);
        QVERIFY(w.startRun());
        QVERIFY(rounds.wait(kRunTimeoutMs));

        w.pauseAction()->trigger();
        QVERIFY(w.pauseAction()->isChecked());
        QVERIFY(paused.size() >= 1 || paused.wait(5000));
        QTest::qWait(1000); // the unit in flight reaches its next batch boundary and blocks
        const int heldAt = rounds.size();
        QTest::qWait(1500);
        QCOMPARE(rounds.size(), heldAt); // nothing finishes while paused
        QVERIFY(w.runQueue()->isBusy());

        w.stopAction()->trigger(); // Stop while paused releases the worker and cancels
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(summaries.size(), 1);
        const auto summary = summaries[0][1].value<dpu::RunSummary>();
        QVERIFY(summary.cancelled);
        QVERIFY(!summary.records.empty());
        QVERIFY(summary.records.size() < 16);
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), static_cast<int>(summary.records.size()));
        QVERIFY(w.runPanel()->statusText().contains(QStringLiteral("stopped")));
        QVERIFY(!w.pauseAction()->isChecked());
    }

    void closingDuringRunStopsThenCloses()
    {
        MainWindow w;
        prepare(w);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 8, 2, {"fu"});
        QSignalSpy finished(&w, &MainWindow::runsFinished);
        QSignalSpy rounds(w.runQueue(), &dpu::ui::RunQueue::roundDone);
        QVERIFY(w.startRun());
        QVERIFY(rounds.wait(kRunTimeoutMs));
        QElapsedTimer t;
        t.start();
        QVERIFY(!w.close()); // refused for now: the run is cancelled first, without waiting here
        QVERIFY(t.elapsed() < 200);
        QVERIFY(w.isVisible());
        QVERIFY(finished.wait(kRunTimeoutMs));
        QTRY_VERIFY(!w.isVisible());
        QVERIFY(w.resultsPanel()->roundsModel()->rowCount() >= 1);
    }

    void runsQueueOneAfterAnother()
    {
        MainWindow w;
        prepare(w);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 1, 1, {"fu"}, 0.01);
        QSignalSpy finished(&w, &MainWindow::runsFinished);
        QSignalSpy started(w.runQueue(), &dpu::ui::RunQueue::runStarted);
        QSignalSpy summaries(w.runQueue(), &dpu::ui::RunQueue::runFinished);
        QVERIFY(w.startRun());
        QVERIFY(w.startRun()); // queued behind the first
        QCOMPARE(w.runQueue()->pendingCount(), 1);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(summaries.size(), 2);
        QCOMPARE(started.size(), 2);
        QCOMPARE(summaries[0][0].toInt() + 1, summaries[1][0].toInt());
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 2);
        QCOMPARE(w.resultsPanel()->accuracyChart()->seriesKeys().size(), 2);
    }
};

QTEST_MAIN(TestUiRuns)
#include "test_ui_runs.moc"
