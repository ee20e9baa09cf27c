// SPDX-License-Identifier: MIT
// The runner on real Fashion-MNIST subsets: records obey the paper's rules, DPU tracks FU, resume is exact.
#include "CliProcess.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Cost.h"
#include "dpu/Error.h"
#include "dpu/Runner.h"
#include "util/AtomicFile.h"
#include <QProcess>
#include <atomic>
#include <chrono>
#include <map>
#include <thread>
#include <nlohmann/json.hpp>

namespace {

/// Fashion-MNIST's first 3,000 training and 2,000 test images, which every plan here fits (the
/// largest takes 3,000 training samples): each of the file's 15 runs loads them in milliseconds.
std::string subsetPath()
{
    return dpu::test::fashionMnistSubset(3000, 2000);
}

/// A small but real plan: Fashion-MNIST, MLP, 3 rounds.
dpu::Plan smallPlan()
{
    dpu::Plan p;
    p.name = "resume-check";
    p.dataset.path = subsetPath();
    p.dataset.testLimit = 1000;
    p.split = {300, 300, 3, 300};
    p.strategies = {"dpu", "fu"};
    p.k = 0.05;
    p.train.epochs = 1;
    p.seeds = {3};
    return p;
}

using dpu::test::CancelAfterRounds;
using dpu::test::withoutTiming;

} // namespace

class TestRunner : public QObject {
    Q_OBJECT
    std::vector<dpu::RoundRecord> reference_;

    void compareWithReference(const std::vector<dpu::RoundRecord>& got)
    {
        QCOMPARE(got.size(), reference_.size());
        for (size_t i = 0; i < got.size(); ++i)
            QCOMPARE(withoutTiming(got[i]), withoutTiming(reference_[i]));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        dpu::RunObserver quiet;
        reference_ = dpu::Runner(smallPlan(), {}).run(quiet).records;
        QCOMPARE(reference_.size(), size_t(6));
    }

    /// A Stop before or during data loading ends the run there: no training, no records, and
    /// the observer still hears that the run finished.
    void cancelBeforeTrainingStopsAtOnce()
    {
        struct StopAtOnce : dpu::RunObserver {
            int started = 0, finished = 0, batches = 0;
            void runStarted(const dpu::RunInfo&) override { ++started; }
            void batchDone(const dpu::BatchProgress&) override { ++batches; }
            void runFinished(const dpu::RunSummary&) override { ++finished; }
        } stop;
        dpu::RunControl control;
        control.requestCancel();
        const auto summary = dpu::Runner(smallPlan(), {{}, false, &control}).run(stop);
        QVERIFY(summary.cancelled);
        QVERIFY(summary.records.empty());
        QCOMPARE(stop.batches, 0);
        QCOMPARE(stop.started, 0);
        QCOMPARE(stop.finished, 1);
    }

    /// Three rounds at k = 0.05: DPU stays within a few points of FU, and every record obeys the
    /// re-initialisation rule, the deploy gate and the cost model.
    void endToEndRecordsFollowThePaper()
    {
        dpu::Plan p;
        p.name = "e2e";
        p.dataset.path = subsetPath();
        p.dataset.testLimit = 2000;
        p.split = {1000, 1000, 3, 500};
        p.strategies = {"dpu", "fu", "rpu"};
        p.k = 0.05;
        p.train.epochs = 3;
        QTemporaryDir dir;
        struct Events : dpu::RunObserver {
            dpu::RunInfo info;
            int epochs = 0, rounds = 0;
            void runStarted(const dpu::RunInfo& i) override { info = i; }
            void epochDone(const dpu::EpochEvent&) override { ++epochs; }
            void roundDone(const dpu::RoundRecord&) override { ++rounds; }
        } events;
        const auto summary = dpu::Runner(p, {dir.path().toStdString()}).run(events);
        QVERIFY(!summary.cancelled);
        QCOMPARE(summary.records.size(), size_t(9));
        QCOMPARE(events.rounds, 9);
        QCOMPARE(events.info.partialWeights, int64_t(668672));
        QCOMPARE(events.info.denseWeights, int64_t(1034));
        QCOMPARE(events.epochs, 3 * (3 * 2 + 3 + 3)); // DPU two steps, FU and RPU one

        const dpu::CostModel cost{668672, 1034};
        std::map<std::string, std::vector<dpu::RoundRecord>> by;
        for (const auto& r : summary.records)
            by[r.strategy].push_back(r);
        for (auto& [name, recs] : by) {
            QCOMPARE(recs.size(), size_t(3));
            int64_t lastReinit = 0;
            double cumulative = 0;
            for (size_t i = 0; i < recs.size(); ++i) {
                const auto& r = recs[i];
                QCOMPARE(r.round, int(i + 1));
                QCOMPARE(r.samples, int64_t(1000 * (i + 1)));
                if (i > 0) // the deploy gate against the model the devices hold
                    QCOMPARE(r.deployed, r.candidateValAccuracy > recs[i - 1].valAccuracy);
                if (name == "dpu") {
                    QCOMPARE(r.reinitialised, r.samples > 2 * lastReinit);
                    if (r.reinitialised && r.deployed)
                        lastReinit = r.samples;
                }
                if (name == "fu")
                    QVERIFY(r.reinitialised);
                if (name == "rpu")
                    QVERIFY(!r.reinitialised);
                int64_t layerSum = 0;
                for (const auto& l : r.layers)
                    layerSum += l.updated;
                QCOMPARE(layerSum, r.updatedWeights);
                if (r.deployed) {
                    QCOMPARE(r.valAccuracy, r.candidateValAccuracy);
                    QCOMPARE(r.testAccuracy, r.candidateTestAccuracy);
                    const double bits = name == "fu" ? dpu::fullRoundBits(cost) : dpu::partialRoundBits(cost, 0.05);
                    DPU_COMPARE_NEAR(r.analyticBits, bits, 1e-6);
                    if (name == "dpu")
                        QCOMPARE(r.updatedWeights, dpu::updatedCount(668672, 0.05));
                } else {
                    QCOMPARE(r.analyticBits, 0.0);
                    QCOMPARE(r.updatedWeights, int64_t(0));
                    QVERIFY(i > 0);
                    QCOMPARE(r.testAccuracy, recs[i - 1].testAccuracy);
                }
                cumulative += r.analyticBits;
                DPU_COMPARE_NEAR(r.cumulativeBits, cumulative, 1e-6);
                DPU_COMPARE_NEAR(r.cumulativeRatio, cumulative / ((i + 1) * dpu::fullRoundBits(cost)), 1e-12);
            }
        }
        auto mean = [&](const std::string& s) {
            double a = 0;
            for (const auto& r : by[s])
                a += r.testAccuracy;
            return a / 3;
        };
        QVERIFY2(mean("fu") > 0.70, qPrintable(QString::number(mean("fu"))));
        QVERIFY2(mean("dpu") > mean("fu") - 0.05,
                 qPrintable(QString("DPU %1 vs FU %2").arg(mean("dpu")).arg(mean("fu"))));
        QVERIFY(by["dpu"].back().cumulativeRatio < 0.1);

        // The files: one JSON line per record, a CSV row per record, the plan.
        const std::string jsonl = dpu::readWholeFile(dir.filePath("results.jsonl").toStdString());
        QCOMPARE(std::count(jsonl.begin(), jsonl.end(), '\n'), 9L);
        QCOMPARE(withoutTiming(dpu::recordFromJson(jsonl.substr(0, jsonl.find('\n')))),
                 withoutTiming(summary.records[0]));
        const std::string csv = dpu::readWholeFile(dir.filePath("results.csv").toStdString());
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 10L);
        QCOMPARE(dpu::planToJson(dpu::loadPlanFile(dir.filePath("plan.json").toStdString())), dpu::planToJson(p));
    }

    /// Paused at a batch boundary by the token and resumed from another thread: the run held
    /// (no batch while paused, the observer heard runPaused both ways) and its records equal
    /// an uninterrupted run's.
    void pauseThenResumeIsIdentical()
    {
        struct PauseOnce : dpu::RunObserver {
            dpu::RunControl control;
            std::atomic<bool> held{false};
            int batches = 0, batchesWhilePaused = 0;
            std::vector<bool> pauses;
            void batchDone(const dpu::BatchProgress&) override
            {
                if (control.paused())
                    ++batchesWhilePaused;
                if (++batches == 40)
                    control.setPaused(true);
            }
            void runPaused(bool paused) override
            {
                pauses.push_back(paused);
                held.store(paused);
            }
        } observer;
        std::thread resumer([&observer] {
            while (!observer.held.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            std::this_thread::sleep_for(std::chrono::milliseconds(300)); // several poll periods
            observer.control.setPaused(false);
        });
        const auto summary = dpu::Runner(smallPlan(), {{}, false, &observer.control}).run(observer);
        resumer.join();
        QVERIFY(!summary.cancelled);
        QCOMPARE(observer.pauses, (std::vector<bool>{true, false}));
        QCOMPARE(observer.batchesWhilePaused, 0); // the next batch waited for the resume
        compareWithReference(summary.records);
    }

    /// Cancel through the token stops before the next batch; a cancel while paused releases
    /// the held run and stops it too.
    void cancelStopsWithinOneBatch()
    {
        struct CancelAt : dpu::RunObserver {
            dpu::RunControl control;
            int batches = 0;
            void batchDone(const dpu::BatchProgress&) override
            {
                if (++batches == 25)
                    control.requestCancel();
            }
        } observer;
        const auto summary = dpu::Runner(smallPlan(), {{}, false, &observer.control}).run(observer);
        QVERIFY(summary.cancelled);
        QCOMPARE(observer.batches, 25);

        struct PauseThenCancel : dpu::RunObserver {
            dpu::RunControl control;
            std::atomic<bool> held{false};
            int batches = 0;
            void batchDone(const dpu::BatchProgress&) override
            {
                if (++batches == 10)
                    control.setPaused(true);
            }
            std::vector<bool> pauses;
            void runPaused(bool paused) override
            {
                pauses.push_back(paused);
                held.store(held.load() || paused);
            }
        } paused;
        std::thread canceller([&paused] {
            while (!paused.held.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            paused.control.requestCancel();
        });
        const auto stopped = dpu::Runner(smallPlan(), {{}, false, &paused.control}).run(paused);
        canceller.join();
        QVERIFY(stopped.cancelled);
        QCOMPARE(paused.batches, 10);
        QCOMPARE(paused.pauses, std::vector<bool>{true}); // held, then stopped: never "resumed"
    }

    void resumeAfterCancelIsIdentical()
    {
        QTemporaryDir dir;
        CancelAfterRounds cancel(3);
        const auto first = dpu::Runner(smallPlan(), {dir.path().toStdString(), false, &cancel.control}).run(cancel);
        QVERIFY(first.cancelled);
        QCOMPARE(first.records.size(), size_t(3)); // the unit in flight is dropped, not half-kept
        dpu::RunObserver quiet;
        // Another plan is refused and leaves the run alone; the same plan renamed (a sweep cell
        // named by its own k since) resumes: a name is a label, not part of the experiment.
        dpu::Plan other = smallPlan();
        other.k *= 2;
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::Runner(other, {dir.path().toStdString(), true}).run(quiet), "plan differs");
        dpu::Plan renamed = smallPlan();
        renamed.name += "-renamed";
        const auto resumed = dpu::Runner(renamed, {dir.path().toStdString(), true}).run(quiet);
        QVERIFY(!resumed.cancelled);
        compareWithReference(resumed.records);
    }

    /// A real kill -9 of dpu-cli mid-run, then --resume: the same results as an uninterrupted run.
    void resumeAfterKillIsIdentical()
    {
        const QString cli = dpu::test::cliExe();
        QVERIFY2(QFileInfo::exists(cli), qPrintable(cli));
        QTemporaryDir dir;
        const QString planPath = dir.filePath("plan-in.json");
        dpu::writeFileAtomic(planPath.toStdString(), dpu::planToJson(smallPlan()));
        const QString out = dir.filePath("run");
        QProcess proc;
        proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        proc.start(cli, {"run", planPath, "--out", out, "--quiet"});
        QVERIFY(proc.waitForStarted());
        // Kill as soon as two units are checkpointed.
        const std::string state = (out + "/checkpoint/state.json").toStdString();
        QElapsedTimer timer;
        timer.start();
        int completed = 0;
        while (completed < 2 && timer.elapsed() < 120000 && proc.state() == QProcess::Running) {
            QThread::msleep(20);
            try {
                completed = nlohmann::json::parse(dpu::readWholeFile(state)).at("completed").get<int>();
            } catch (...) {
            }
        }
        QVERIFY2(proc.state() == QProcess::Running, "the run finished before it could be killed");
        proc.kill();
        proc.waitForFinished();
        QVERIFY(completed >= 2 && completed < 6);

        QProcess resume;
        resume.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        resume.start(cli, {"run", planPath, "--out", out, "--resume", "--quiet"});
        QVERIFY(resume.waitForFinished(180000));
        QCOMPARE(resume.exitCode(), 0);
        std::vector<dpu::RoundRecord> records;
        std::istringstream lines(dpu::readWholeFile((out + "/results.jsonl").toStdString()));
        for (std::string line; std::getline(lines, line);)
            records.push_back(dpu::recordFromJson(line));
        compareWithReference(records);
    }

    /// Single-round mode: round 1 deploys a fully trained model, round 2 updates it once with
    /// iterative rewinding down to exactly round(k * I) changed weights.
    void singleRoundModeUpdatesOnce()
    {
        dpu::Plan p = smallPlan();
        p.mode = dpu::RunMode::Single;
        p.split = {600, 600, 5, 300};
        p.strategies = {"dpu", "rpu"};
        p.k = 0.05;
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(p, {}).run(quiet).records;
        QCOMPARE(records.size(), size_t(4)); // two rounds, whatever split.rounds says
        const dpu::CostModel cost{668672, 1034};
        for (const auto& r : records) {
            if (r.round == 1) {
                QVERIFY(r.deployed && r.reinitialised);
                QCOMPARE(r.analyticBits, dpu::fullRoundBits(cost));
            } else {
                QCOMPARE(r.round, 2);
                QCOMPARE(r.samples, int64_t(1200));
                QVERIFY(!r.reinitialised);
                if (r.deployed)
                    QCOMPARE(r.updatedWeights, r.strategy == "dpu" ? dpu::updatedCount(668672, 0.05) : r.updatedWeights);
            }
        }
        // The same fully trained model is the start of every strategy's update.
        QCOMPARE(records[0].candidateValAccuracy, records[1].candidateValAccuracy);
    }

    /// DPU with memory: the server's model survives the checkpoint, so a resumed run equals an
    /// uninterrupted one; the memory changes what is shipped (not the same records as DPU).
    void memoryResumesIdentically()
    {
        dpu::Plan p = smallPlan();
        p.strategies = {"dpu-memory", "dpu"};
        dpu::RunObserver quiet;
        const auto whole = dpu::Runner(p, {}).run(quiet).records;
        QTemporaryDir dir;
        CancelAfterRounds cancel(3); // after round 2 of dpu-memory: its server model is in the checkpoint
        QVERIFY(dpu::Runner(p, {dir.path().toStdString(), false, &cancel.control}).run(cancel).cancelled);
        const auto resumed = dpu::Runner(p, {dir.path().toStdString(), true}).run(quiet).records;
        QCOMPARE(resumed.size(), whole.size());
        for (size_t i = 0; i < whole.size(); ++i)
            QCOMPARE(QString::fromStdString(withoutTiming(resumed[i])), QString::fromStdString(withoutTiming(whole[i])));
        // Rounds 2 and 3 of dpu-memory start from the server's model, so they differ from DPU's.
        bool differs = false;
        for (size_t i = 2; i + 1 < whole.size(); i += 2)
            differs |= whole[i].candidateValAccuracy != whole[i + 1].candidateValAccuracy
                       || whole[i].deviceSha256 != whole[i + 1].deviceSha256;
        QVERIFY(differs);
    }

    /// A strategy's records depend on the plan and the seed, not on which other strategies run
    /// beside it: FU alone equals FU listed second (a sweep's "strategies" axis relies on it).
    void aStrategyAloneEqualsItsPartOfThePlan()
    {
        dpu::Plan p = smallPlan();
        p.strategies = {"fu"};
        dpu::RunObserver quiet;
        const auto alone = dpu::Runner(p, {}).run(quiet).records;
        std::vector<dpu::RoundRecord> fu;
        for (const auto& r : reference_)
            if (r.strategy == "fu")
                fu.push_back(r);
        QCOMPARE(alone.size(), size_t(3));
        QCOMPARE(fu.size(), alone.size());
        for (size_t i = 0; i < fu.size(); ++i)
            QCOMPARE(QString::fromStdString(withoutTiming(alone[i])), QString::fromStdString(withoutTiming(fu[i])));
    }

    void resumeRefusesAnotherPlan()
    {
        QTemporaryDir dir;
        CancelAfterRounds cancel(1);
        dpu::Runner(smallPlan(), {dir.path().toStdString(), false, &cancel.control}).run(cancel);
        dpu::Plan other = smallPlan();
        other.k = 0.1;
        dpu::RunObserver quiet;
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::Runner(other, {dir.path().toStdString(), true}).run(quiet));
    }

    void missingDatasetNamesTheFolder()
    {
        dpu::Plan p = smallPlan();
        p.dataset.path = "/nonexistent/fashion";
        dpu::RunObserver quiet;
        try {
            dpu::Runner(p, {}).run(quiet);
            QFAIL("no error");
        } catch (const dpu::DataError& e) {
            QVERIFY2(QString(e.what()).contains("/nonexistent/fashion"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestRunner)
#include "test_runner.moc"
