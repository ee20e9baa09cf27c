// SPDX-License-Identifier: MIT
// The paper's ablations as plan options, run on a Fashion-MNIST subset: reinit_every, fu_start, rewind,
// distillation from FU's model, and k_share.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Cost.h"
#include "dpu/Error.h"
#include "dpu/Runner.h"
#include <map>
#include <set>
#include <stdexcept>

namespace {

/// A small real plan: Fashion-MNIST's first 3,000/2,000 images, MLP, one epoch per step.
dpu::Plan smallPlan(std::vector<std::string> strategies, int rounds)
{
    dpu::Plan p;
    p.name = "ablation-check";
    p.dataset.path = dpu::test::fashionMnistSubset(3000, 2000);
    p.dataset.testLimit = 1000;
    p.split = {300, 300, rounds, 300};
    p.strategies = std::move(strategies);
    p.k = 0.05;
    p.train.epochs = 1;
    p.seeds = {3};
    return p;
}

/// Records every epoch: the first epoch's training loss of each (strategy, round)'s full step,
/// and how many fine-tune epochs each round ran.
struct EpochLog : dpu::RunObserver {
    std::map<std::pair<std::string, int>, double> firstLoss;
    std::map<std::pair<std::string, int>, int> fineTuneEpochs;
    void epochDone(const dpu::EpochEvent& e) override
    {
        if (e.phase == dpu::Phase::Full && e.epoch == 1)
            firstLoss[{e.strategy, e.round}] = e.trainLoss;
        if (e.phase == dpu::Phase::FineTune)
            ++fineTuneEpochs[{e.strategy, e.round}];
    }
};

std::vector<dpu::RoundRecord> run(const dpu::Plan& p, dpu::RunObserver& observer)
{
    dpu::validatePlan(p);
    return dpu::Runner(p, {}).run(observer).records;
}

/// The rounds of `strategy` that started from a random model.
std::set<int> reinitialisedRounds(const std::vector<dpu::RoundRecord>& records, const std::string& strategy)
{
    std::set<int> rounds;
    for (const auto& r : records)
        if (r.strategy == strategy && r.reinitialised)
            rounds.insert(r.round);
    return rounds;
}

const dpu::RoundRecord& recordOf(const std::vector<dpu::RoundRecord>& records, const std::string& strategy, int round)
{
    for (const auto& r : records)
        if (r.strategy == strategy && r.round == round)
            return r;
    throw std::runtime_error("no record of " + strategy + " round " + std::to_string(round));
}

} // namespace

class TestAblationRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
    }

    /// reinit_every 2: the strategies of the rule start from the seeded model at rounds 1, 3
    /// and 5 (whether or not a round deployed), their deployed bundles there regenerate it; the
    /// rule alone would re-initialise at rounds 1 and 3 only ({300, 300}: 900 > 2 x 300, then
    /// 1500 is not > 2 x 900). Strategies without the rule never re-initialise.
    void reinitEveryNRoundsFollowsTheCount()
    {
        dpu::Plan p = smallPlan({"dpu", "lcpu", "rpu"}, 5);
        p.reinitEvery = 2;
        dpu::RunObserver quiet;
        const auto records = run(p, quiet);
        QCOMPARE(records.size(), size_t(15));
        for (const char* s : {"dpu", "lcpu"})
            QCOMPARE(reinitialisedRounds(records, s), (std::set<int>{1, 3, 5}));
        QVERIFY(reinitialisedRounds(records, "rpu").empty());
        for (const auto& r : records)
            if (r.deployed && r.strategy != "rpu")
                QCOMPARE(QString::fromStdString(r.bundleKind),
                         QString(r.reinitialised || r.deviceVersion == 1 ? "reinit+delta" : "delta"));
        // Every round (n = 1): the paper's "no knowledge reused" end of the comparison.
        p = smallPlan({"dpu"}, 3);
        p.reinitEvery = 1;
        QCOMPARE(reinitialisedRounds(run(p, quiet), "dpu"), (std::set<int>{1, 2, 3}));
    }

    /// fu_start: all three start round 1 from the seeded model (the same first deployment);
    /// "fresh" then starts each round from its own random model (other weights than "seeded"
    /// from round 2 on), "last" from the round before's deployed weights, so its full step
    /// begins with a far lower loss than training from a random model.
    void fuStartChoosesEachRoundsStart()
    {
        std::map<std::string, std::vector<dpu::RoundRecord>> records;
        std::map<std::string, EpochLog> logs;
        for (const char* start : {"seeded", "fresh", "last"}) {
            dpu::Plan p = smallPlan({"fu"}, 3);
            p.train.epochs = 3; // a trained start, far from a random one
            p.fuStart = *dpu::enumFromString<dpu::FuStart>(start);
            records[start] = run(p, logs[start]);
            QCOMPARE(records[start].size(), size_t(3));
        }
        const auto& seeded = records["seeded"];
        const auto& fresh = records["fresh"];
        const auto& last = records["last"];
        QCOMPARE(fresh[0].deviceSha256, seeded[0].deviceSha256);
        QCOMPARE(last[0].deviceSha256, seeded[0].deviceSha256);
        QCOMPARE(reinitialisedRounds(seeded, "fu"), (std::set<int>{1, 2, 3}));
        QCOMPARE(reinitialisedRounds(fresh, "fu"), (std::set<int>{1, 2, 3}));
        QVERIFY(reinitialisedRounds(last, "fu").empty());
        for (int round = 2; round <= 3; ++round) {
            const double seededLoss = logs["seeded"].firstLoss.at({"fu", round});
            const double freshLoss = logs["fresh"].firstLoss.at({"fu", round});
            const double lastLoss = logs["last"].firstLoss.at({"fu", round});
            QVERIFY2(freshLoss != seededLoss, qPrintable(QString("round %1: the same start").arg(round)));
            QVERIFY(recordOf(fresh, "fu", round).candidateValAccuracy != recordOf(seeded, "fu", round).candidateValAccuracy
                    || recordOf(fresh, "fu", round).deviceSha256 != recordOf(seeded, "fu", round).deviceSha256);
            QVERIFY2(lastLoss < 0.8 * seededLoss,
                     qPrintable(QString("round %1: last %2, seeded %3").arg(round).arg(lastLoss).arg(seededLoss)));
        }
        // The fresh starts differ from each other too: round 3's loss is not round 2's.
        QVERIFY(logs["fresh"].firstLoss.at({"fu", 2}) != logs["fresh"].firstLoss.at({"fu", 3}));
    }

    /// fu_epochs: FU's own rounds train that many epochs (its step schedule with them), while
    /// single mode's round-1 base, which FU and DPU share, and DPU's steps keep train.epochs; the
    /// base stays the same model for both. A plan without FU refuses the key.
    void fuEpochsTrainsFusOwnRoundsLonger()
    {
        struct FullEpochCount : dpu::RunObserver {
            std::map<std::pair<std::string, int>, std::vector<double>> lr; // per full epoch
            void epochDone(const dpu::EpochEvent& e) override
            {
                if (e.phase == dpu::Phase::Full)
                    lr[{e.strategy, e.round}].push_back(e.lr);
            }
        } log;
        dpu::Plan p = smallPlan({"fu", "dpu"}, 2);
        p.mode = dpu::RunMode::Single;
        p.k = 0.5; // four rewinding steps: the test stays short
        p.fuEpochs = 3;
        const auto records = run(p, log);
        QCOMPARE(records.size(), size_t(4));
        QCOMPARE(log.lr.at({"fu", 1}).size(), size_t(1));
        QCOMPARE(log.lr.at({"dpu", 1}).size(), size_t(1));
        QCOMPARE(log.lr.at({"dpu", 2}).size(), size_t(1));
        const std::vector<double> fu = log.lr.at({"fu", 2});
        QCOMPARE(fu.size(), size_t(3));
        QVERIFY(fu[1] < fu[0] && fu[2] < fu[1]); // step_epochs 0: a decay every 3 / 3 epochs
        QCOMPARE(recordOf(records, "fu", 1).deviceSha256, recordOf(records, "dpu", 1).deviceSha256);
        p.strategies = {"dpu"};
        QVERIFY_THROWS_EXCEPTION(dpu::PlanError, dpu::validatePlan(p));
    }

    /// A fresh start is drawn from the run's seed and the round, not from what ran before: a
    /// run stopped after round 2 and resumed equals the uninterrupted run.
    void freshStartsResumeIdentically()
    {
        dpu::Plan p = smallPlan({"fu"}, 3);
        p.fuStart = dpu::FuStart::Fresh;
        dpu::RunObserver quiet;
        const auto whole = run(p, quiet);
        const auto resumed = dpu::test::stoppedAndResumed(p, 2);
        QCOMPARE(resumed.size(), whole.size());
        for (size_t i = 0; i < whole.size(); ++i) {
            QCOMPARE(resumed[i].deviceSha256, whole[i].deviceSha256);
            QCOMPARE(resumed[i].candidateValAccuracy, whole[i].candidateValAccuracy);
        }
    }

    /// rewind in multi mode: each round's fine-tune runs in steps (20 % of the remaining weights
    /// rewound per step) down to the same round(k I) changed weights, and ships another model
    /// than the one-shot rewinding; off, one fine-tune per round.
    void rewindInMultiRoundStaysWithinK()
    {
        dpu::Plan p = smallPlan({"dpu"}, 3);
        EpochLog oneShotLog, iterativeLog;
        const auto oneShot = run(p, oneShotLog);
        p.rewind = true;
        const auto iterative = run(p, iterativeLog);
        QCOMPARE(iterative.size(), oneShot.size());
        bool differs = false;
        for (size_t i = 0; i < iterative.size(); ++i) {
            const dpu::RoundRecord& r = iterative[i];
            int64_t partial = 0;
            for (const auto& l : r.layers)
                partial += l.total;
            if (r.deployed)
                QCOMPARE(r.updatedWeights, dpu::updatedCount(partial, p.k));
            // 0.8^n <= 0.05 from n = 14 on: fourteen rewinding steps, one epoch each.
            QCOMPARE(iterativeLog.fineTuneEpochs.at({"dpu", r.round}), 14);
            QCOMPARE(oneShotLog.fineTuneEpochs.at({"dpu", r.round}), 1);
            differs |= r.candidateValAccuracy != oneShot[i].candidateValAccuracy
                       || r.deviceSha256 != oneShot[i].deviceSha256;
        }
        QVERIFY(differs);
    }

    /// distill: FU's model of each round teaches the partial-updating strategies. FU's records
    /// stay those of a run without distillation (its unit reuses the teacher, which DPU trained
    /// first in this order), DPU's and RPU's change, and a run stopped after round 2's DPU (its
    /// teacher then trained again on resume) equals the uninterrupted one.
    void distillationSharesFusTraining()
    {
        dpu::Plan p = smallPlan({"dpu", "rpu", "fu"}, 3);
        dpu::RunObserver quiet;
        const auto plain = run(p, quiet);
        p.distill.weight = 0.5;
        p.distill.temperature = 2;
        const auto distilled = run(p, quiet);
        QCOMPARE(distilled.size(), plain.size());
        std::set<std::string> changed;
        for (size_t i = 0; i < plain.size(); ++i) {
            const dpu::RoundRecord &a = plain[i], &b = distilled[i];
            if (a.strategy == "fu") {
                QCOMPARE(b.candidateValAccuracy, a.candidateValAccuracy);
                QCOMPARE(b.candidateTestAccuracy, a.candidateTestAccuracy);
                QCOMPARE(b.deviceSha256, a.deviceSha256);
            } else if (b.candidateValAccuracy != a.candidateValAccuracy || b.deviceSha256 != a.deviceSha256) {
                changed.insert(a.strategy);
            }
        }
        QCOMPARE(changed, (std::set<std::string>{"dpu", "rpu"}));

        const auto resumed = dpu::test::stoppedAndResumed(p, 4);
        QCOMPARE(resumed.size(), distilled.size());
        for (size_t i = 0; i < resumed.size(); ++i) {
            QCOMPARE(resumed[i].deviceSha256, distilled[i].deviceSha256);
            QCOMPARE(resumed[i].candidateValAccuracy, distilled[i].candidateValAccuracy);
        }
    }

    /// k_share: every share changes round(k I) weights a round; "layer" gives each tensor its
    /// own share k (within one weight), the global top-k does not (it favours the output
    /// layer), and "mass" follows neither exactly.
    void kShareSplitsTheCountAmongTensors()
    {
        std::map<dpu::KShare, std::vector<dpu::RoundRecord>> records;
        dpu::RunObserver quiet;
        for (dpu::KShare share : {dpu::KShare::Global, dpu::KShare::Layer, dpu::KShare::Mass}) {
            dpu::Plan p = smallPlan({"dpu"}, 2);
            p.kShare = share;
            records[share] = run(p, quiet);
        }
        auto spread = [](const dpu::RoundRecord& r) { // the largest gap of a tensor's share to k
            double gap = 0;
            for (const auto& l : r.layers)
                gap = std::max(gap, std::abs(static_cast<double>(l.updated) - 0.05 * static_cast<double>(l.total)));
            return gap;
        };
        for (const auto& [share, rs] : records) {
            QVERIFY(rs.at(0).deployed); // round 1 always deploys (over a random model)
            for (const auto& r : rs) {
                if (!r.deployed)
                    continue;
                int64_t total = 0;
                for (const auto& l : r.layers)
                    total += l.total;
                QCOMPARE(r.updatedWeights, dpu::updatedCount(total, 0.05));
                if (share == dpu::KShare::Layer)
                    QVERIFY2(spread(r) <= 1.0, qPrintable(QString("round %1: %2").arg(r.round).arg(spread(r))));
                else
                    QVERIFY2(spread(r) > 10, qPrintable(QString("round %1: %2").arg(r.round).arg(spread(r))));
            }
        }
        QVERIFY(records[dpu::KShare::Mass][0].layers[0].updated != records[dpu::KShare::Global][0].layers[0].updated);
    }

    /// k_share "mixed": round 1 (from a random model) ranks as the global top-k, byte for byte;
    /// the rounds after it share by mass (without re-initialisation, so that none starts over).
    void kShareMixedIsGlobalFromRandomAndMassAfter()
    {
        dpu::RunObserver quiet;
        std::map<dpu::KShare, std::vector<dpu::RoundRecord>> records;
        for (dpu::KShare share : {dpu::KShare::Global, dpu::KShare::Mixed}) {
            dpu::Plan p = smallPlan({"dpu"}, 2);
            p.reinit = false;
            p.kShare = share;
            records[share] = run(p, quiet);
        }
        const auto& global = records[dpu::KShare::Global];
        const auto& mixed = records[dpu::KShare::Mixed];
        QCOMPARE(mixed.size(), global.size());
        QCOMPARE(mixed[0].deviceSha256, global[0].deviceSha256);
        for (size_t l = 0; l < mixed[0].layers.size(); ++l)
            QCOMPARE(mixed[0].layers[l].updated, global[0].layers[l].updated);
        QVERIFY(mixed.size() >= 2 && mixed[1].deployed && global[1].deployed);
        QVERIFY(mixed[1].deviceSha256 != global[1].deviceSha256);
        bool differs = false; // mass moves changes between tensors that the global top-k ranks apart
        for (size_t l = 0; l < mixed[1].layers.size(); ++l)
            differs = differs || mixed[1].layers[l].updated != global[1].layers[l].updated;
        QVERIFY(differs);
        QCOMPARE(mixed[1].updatedWeights, global[1].updatedWeights);
    }
};

QTEST_GUILESS_MAIN(TestAblationRuns)
#include "test_ablation_runs.moc"
