// SPDX-License-Identifier: MIT
// One round of every strategy on a small synthetic task: masks, frozen weights, starts, accuracy
// (on DPU_TEST_DEVICE).
#include "TestDevice.h"
#include "TestSupport.h"
#include "dpu/Cost.h"
#include "dpu/StrategyId.h"
#include "strategies/Strategy.h"
#include "train/MaskSelection.h"
#include "train/Evaluator.h"
#include "util/Rng.h"
#include <algorithm>
#include <cstring>
#include <optional>

namespace {

/// Four noisy Gaussian classes in 1x6x6 images (rows [first, first + n) of one fixed draw):
/// learnable by the MLP in a few epochs, but not perfectly (the noise overlaps the classes).
dpu::TensorDataset blobs(int64_t first, int64_t n)
{
    torch::manual_seed(1);
    auto labels = torch::randint(0, 4, {1000}, torch::kLong);
    auto centres = torch::randn({4, 1, 6, 6}) * 0.35;
    auto images = centres.index_select(0, labels) + torch::randn({1000, 1, 6, 6});
    return {dpu::test::onTestDevice(images.narrow(0, first, n).contiguous()),
            dpu::test::onTestDevice(labels.narrow(0, first, n).contiguous())};
}

int64_t changedPartial(dpu::Network& net, const dpu::Weights& base, const dpu::Weights& after, bool& frozenExact,
                       const dpu::MaskSet& masks)
{
    int64_t changed = 0;
    frozenExact = true;
    auto params = net.parameters();
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].tensor.dim() <= 1)
            continue;
        auto b = base.params[i].cpu().contiguous(), a = after.params[i].cpu().contiguous();
        const torch::Tensor m = masks.empty() ? torch::Tensor() : masks[i].cpu().contiguous();
        const float* bd = b.data_ptr<float>();
        const float* ad = a.data_ptr<float>();
        const float* md = m.defined() ? m.data_ptr<float>() : nullptr;
        for (int64_t j = 0; j < a.numel(); ++j) {
            const bool same = std::memcmp(ad + j, bd + j, sizeof(float)) == 0;
            changed += !same;
            if (md && md[j] == 0.0f && !same)
                frozenExact = false;
        }
    }
    return changed;
}

} // namespace

class TestStrategies : public QObject {
    Q_OBJECT

    dpu::TensorDataset train_ = blobs(0, 600), val_ = blobs(600, 300);
    dpu::TrainSpec spec_;
    std::unique_ptr<dpu::Network> net_;
    dpu::Weights random_, trained_;
    int64_t I_ = 0;

private Q_SLOTS:
    void initTestCase()
    {
        spec_.epochs = 3;
        spec_.batch = 64;
        spec_.lr = 0.005;
        net_ = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
        net_->to(dpu::test::testDevice());
        dpu::initialiseNetwork(*net_, 11);
        QCOMPARE(net_->parameters().front().tensor.device().type(), dpu::test::testDevice().type());
        random_ = dpu::snapshot(*net_);
        for (auto& p : net_->parameters())
            I_ += p.tensor.dim() > 1 ? p.tensor.numel() : 0;
        // A "deployed" model: FU trained once on the task.
        dpu::Plan plan;
        auto fu = dpu::createStrategy("fu", plan);
        dpu::TrainContext ctx;
        trained_ = fu->runRound({*net_, train_, val_, random_, spec_, 1.0, 5, ctx}).weights;
    }

    void partialStrategiesChangeExactlyKI_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("k");
        for (const char* s : {"dpu", "gcpu", "lcpu", "rpu"})
            for (double k : {0.01, 0.1})
                QTest::newRow(qPrintable(QString("%1 k=%2").arg(s).arg(k))) << s << k;
    }
    void partialStrategiesChangeExactlyKI()
    {
        QFETCH(QString, name);
        QFETCH(double, k);
        dpu::Plan plan;
        auto s = dpu::createStrategy(name.toStdString(), plan);
        QCOMPARE(QString::fromStdString(s->name()), name);
        dpu::TrainContext ctx;
        // RPU starts from the random model here: from the trained one its fine-tune may not beat
        // the start, and keeping the start (nothing changed) would be the right answer.
        const dpu::Weights& start = name == "rpu" ? random_ : trained_;
        const auto out = s->runRound({*net_, train_, val_, start, spec_, k, 21, ctx});
        QVERIFY(!out.masks.empty());
        bool frozenExact = false;
        const int64_t changed = changedPartial(*net_, start, out.weights, frozenExact, out.masks);
        QVERIFY2(frozenExact, "a weight outside the mask differs from the start");
        QVERIFY(changed <= dpu::updatedCount(I_, k));
        QVERIFY(changed >= dpu::updatedCount(I_, k) * 9 / 10); // nearly all masked-in weights moved
        int64_t ones = 0;
        for (const auto& m : out.masks)
            if (m.defined())
                ones += m.sum().item<int64_t>();
        if (name == "rpu") { // per layer: round(k * n_l)
            int64_t expected = 0;
            for (auto& p : net_->parameters())
                if (p.tensor.dim() > 1)
                    expected += dpu::updatedCount(p.tensor.numel(), k);
            QCOMPARE(ones, expected);
        } else {
            QCOMPARE(ones, dpu::updatedCount(I_, k));
        }
        QVERIFY(out.valAccuracy > (name == "rpu" ? 0.3 : 0.5)); // above 25 % chance
    }

    /// The candidate's reported validation accuracy is that of the weights it returns.
    void reportedAccuracyMatchesWeights()
    {
        dpu::Plan plan;
        auto s = dpu::createStrategy("dpu", plan);
        dpu::TrainContext ctx;
        const auto out = s->runRound({*net_, train_, val_, trained_, spec_, 0.05, 3, ctx});
        dpu::restore(*net_, out.weights);
        DPU_COMPARE_NEAR(dpu::accuracy(*net_, val_), out.valAccuracy, 1e-12);
    }

    void fullUpdatingTrainsEverythingFromRandom()
    {
        dpu::Plan plan;
        auto s = dpu::createStrategy("fu", plan);
        QVERIFY(s->policy().start == dpu::StartFrom::Seeded && s->policy().shipsFullModel);
        dpu::TrainContext ctx;
        const auto out = s->runRound({*net_, train_, val_, random_, spec_, 1.0, 9, ctx});
        bool unused = false;
        QVERIFY(changedPartial(*net_, random_, out.weights, unused, {}) > I_ * 9 / 10);
        QVERIFY(out.masks.empty());
    }

    void pruningKeepsOnlyKINonzeros()
    {
        dpu::Plan plan;
        auto s = dpu::createStrategy("pruning", plan);
        QVERIFY(s->policy().start == dpu::StartFrom::Seeded && !s->policy().shipsFullModel);
        dpu::TrainContext ctx;
        const auto out = s->runRound({*net_, train_, val_, random_, spec_, 0.1, 13, ctx});
        QVERIFY(out.zeroBase);
        int64_t nonzero = 0;
        auto params = net_->parameters();
        for (size_t i = 0; i < params.size(); ++i)
            if (params[i].tensor.dim() > 1) {
                nonzero += out.weights.params[i].ne(0).sum().item<int64_t>();
                QCOMPARE(out.weights.params[i].masked_select(out.masks[i] == 0).abs().sum().item<double>(), 0.0);
            }
        QCOMPARE(nonzero, dpu::updatedCount(I_, 0.1));
    }

    void deterministicForTheSameSeed()
    {
        dpu::Plan plan;
        dpu::TrainContext ctx;
        auto a = dpu::createStrategy("dpu", plan)->runRound({*net_, train_, val_, trained_, spec_, 0.05, 77, ctx});
        auto b = dpu::createStrategy("dpu", plan)->runRound({*net_, train_, val_, trained_, spec_, 0.05, 77, ctx});
        for (size_t i = 0; i < a.weights.params.size(); ++i)
            QVERIFY(torch::equal(a.weights.params[i], b.weights.params[i]));
    }

    void cancellationStopsBeforeTheNextBatch()
    {
        struct CancelAfter : dpu::RunObserver {
            int batches = 0;
            dpu::RunControl control;
            void batchDone(const dpu::BatchProgress&) override
            {
                if (++batches == 3)
                    control.requestCancel();
            }
        } observer;
        dpu::TrainContext ctx;
        ctx.observer = &observer;
        ctx.control = &observer.control;
        dpu::Plan plan;
        bool cancelled = false;
        try {
            dpu::createStrategy("dpu", plan)->runRound({*net_, train_, val_, trained_, spec_, 0.05, 1, ctx});
        } catch (const dpu::Cancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
        QCOMPARE(observer.batches, 3);
    }

    /// Error feedback: what a round does not ship stays in the server's model and is shipped
    /// later, each weight's difference once; without new training the memory drains.
    void memoryCarriesWhatWasNotSent()
    {
        dpu::Plan plan;
        auto s = dpu::createStrategy("dpu-memory", plan);
        QCOMPARE(QString::fromStdString(s->name()), QStringLiteral("dpu-memory"));
        QVERIFY(s->policy().keepsServerModel && !dpu::createStrategy("dpu", plan)->policy().keepsServerModel);
        dpu::TrainContext ctx;
        const double k = 0.05;
        const auto r1 = s->runRound({*net_, train_, val_, trained_, spec_, k, 31, ctx});
        QCOMPARE(r1.server.params.size(), r1.weights.params.size());

        auto partial = [&](const dpu::Weights& w) {
            std::vector<torch::Tensor> out;
            for (const auto& t : w.params)
                out.push_back(t.dim() > 1 ? t : torch::Tensor());
            return out;
        };
        auto memoryNorm = [&](const dpu::Weights& deployed) {
            double sum = 0;
            for (size_t i = 0; i < deployed.params.size(); ++i)
                if (deployed.params[i].dim() > 1)
                    sum += (r1.server.params[i] - deployed.params[i]).square().sum().item<double>();
            return sum;
        };
        const double m1 = memoryNorm(r1.weights);
        QVERIFY(m1 > 0); // the full step changed far more than k * I weights

        // Rounds without training: each ships exactly the top-k of what the devices lack, with
        // the server's values, and never a weight already shipped.
        dpu::TrainSpec none = spec_;
        none.epochs = 0;
        dpu::Weights deployed = r1.weights;
        dpu::MaskSet previous;
        double lastNorm = m1;
        for (int round = 2; round <= 3; ++round) {
            std::vector<torch::Tensor> lack;
            for (size_t i = 0; i < deployed.params.size(); ++i)
                lack.push_back(deployed.params[i].dim() > 1 ? (r1.server.params[i] - deployed.params[i]).square()
                                                            : torch::Tensor());
            const auto expected = dpu::topKMask(lack, dpu::updatedCount(I_, k));
            const auto r = s->runRound({*net_, train_, val_, deployed, none, k, 40u + round, ctx, &r1.server});
            const auto server = partial(r1.server), before = partial(deployed), after = partial(r.weights);
            for (size_t i = 0; i < server.size(); ++i) {
                if (!server[i].defined())
                    continue;
                QVERIFY(torch::equal(r.masks[i], expected[i]));
                QVERIFY(torch::equal(r.server.params[i], r1.server.params[i])); // no training: unchanged
                const auto on = r.masks[i] != 0;
                QVERIFY(torch::equal(after[i].masked_select(on), server[i].masked_select(on)));
                QVERIFY(torch::equal(after[i].masked_select(~on), before[i].masked_select(~on)));
                if (!previous.empty()) // shipped last round: nothing left there to ship again
                    QCOMPARE(r.masks[i].masked_select(previous[i] != 0).sum().item<double>(), 0.0);
            }
            const double norm = memoryNorm(r.weights);
            QVERIFY2(norm < lastNorm, qPrintable(QString("round %1: %2 >= %3").arg(round).arg(norm).arg(lastNorm)));
            lastNorm = norm;
            previous = r.masks;
            deployed = r.weights;
        }
    }

    /// Each strategy declares once where its rounds start and what it ships; the runner decides
    /// from these alone. The plan's reinit switch reaches the strategies that follow it.
    void policiesDeclareEachStrategy()
    {
        using dpu::StartFrom;
        struct Expected {
            const char* name;
            StartFrom withRule, withoutRule;
            bool full, budgeted, memory;
        };
        const Expected table[] = {
            {"fu", StartFrom::Seeded, StartFrom::Seeded, true, false, false},
            {"dpu", StartFrom::DeployedOrSeeded, StartFrom::Deployed, false, true, false},
            {"dpu-noreinit", StartFrom::Deployed, StartFrom::Deployed, false, true, false},
            {"dpu-memory", StartFrom::DeployedOrSeeded, StartFrom::Deployed, false, true, true},
            {"gcpu", StartFrom::Deployed, StartFrom::Deployed, false, true, false},
            {"gcpu-reinit", StartFrom::DeployedOrSeeded, StartFrom::DeployedOrSeeded, false, true, false},
            {"lcpu", StartFrom::DeployedOrSeeded, StartFrom::Deployed, false, true, false},
            {"rpu", StartFrom::Deployed, StartFrom::Deployed, false, true, false},
            {"pruning", StartFrom::Seeded, StartFrom::Seeded, false, false, false},
        };
        QCOMPARE(std::size(table), dpu::strategyNames().size());
        for (const Expected& e : table) {
            dpu::Plan plan;
            for (const bool rule : {true, false}) {
                plan.reinit = rule;
                const dpu::StrategyPolicy p = dpu::createStrategy(e.name, plan)->policy();
                QVERIFY2(p.start == (rule ? e.withRule : e.withoutRule), e.name);
                QVERIFY2(p.shipsFullModel == e.full && p.budgeted == e.budgeted && p.keepsServerModel == e.memory, e.name);
            }
        }
    }

    /// fu_start reaches FU's policy (Pruning, also from the seeded model, keeps its start).
    void fuStartIsFullUpdatingsStart()
    {
        using dpu::FuStart;
        using dpu::StartFrom;
        const std::pair<FuStart, StartFrom> starts[] = {
            {FuStart::Seeded, StartFrom::Seeded}, {FuStart::Fresh, StartFrom::Fresh}, {FuStart::Last, StartFrom::Deployed}};
        for (const auto& [option, start] : starts) {
            dpu::Plan plan;
            plan.fuStart = option;
            const dpu::StrategyPolicy p = dpu::createStrategy("fu", plan)->policy();
            QVERIFY2(p.start == start && p.shipsFullModel, dpu::nameOf(option).c_str());
            QVERIFY(dpu::createStrategy("pruning", plan)->policy().start == StartFrom::Seeded);
        }
    }

    /// rewind in multi mode: DPU rewinds 20 % of the remaining weights per step and fine-tunes
    /// after each (0.8^n <= 0.1 from n = 11 on: eleven fine-tunes), ending at exactly round(k I)
    /// changed weights, the rest exactly the start's; another candidate than one-shot rewinding.
    void rewindInMultiModeRewindsInSteps()
    {
        struct FineTunes : dpu::RunObserver {
            int epochs = 0;
            void epochDone(const dpu::EpochEvent& e) override { epochs += e.phase == dpu::Phase::FineTune; }
        };
        const double k = 0.1;
        dpu::RoundOutput outs[2];
        int fineTuneEpochs[2] = {0, 0};
        for (const bool rewind : {false, true}) {
            dpu::Plan plan;
            plan.rewind = rewind;
            FineTunes log;
            dpu::TrainContext ctx{&log};
            outs[rewind] = dpu::createStrategy("dpu", plan)->runRound({*net_, train_, val_, trained_, spec_, k, 21, ctx});
            fineTuneEpochs[rewind] = log.epochs;
            bool frozenExact = false;
            changedPartial(*net_, trained_, outs[rewind].weights, frozenExact, outs[rewind].masks);
            QVERIFY2(frozenExact, "a weight outside the mask differs from the start");
            QCOMPARE(dpu::maskCount(outs[rewind].masks), dpu::updatedCount(I_, k));
        }
        QCOMPARE(fineTuneEpochs[0], spec_.epochs);
        QCOMPARE(fineTuneEpochs[1], 11 * spec_.epochs);
        bool differs = false;
        for (size_t i = 0; i < outs[0].weights.params.size(); ++i)
            differs |= !torch::equal(outs[0].weights.params[i], outs[1].weights.params[i]);
        QVERIFY(differs);
    }

    /// rewind_epochs: the ten steps before the last train one epoch each, the last the full
    /// spec_.epochs; the same count of changed weights, the rest exactly the start's, and
    /// another candidate than full-length steps.
    void rewindEpochsShortenTheStepsBeforeTheLast()
    {
        struct FineTunes : dpu::RunObserver {
            std::vector<int> lengths; // epochs of each fine-tune step, in order
            void epochDone(const dpu::EpochEvent& e) override
            {
                if (e.phase == dpu::Phase::FineTune && e.epoch == 1)
                    lengths.push_back(e.epochs);
            }
        };
        const double k = 0.1;
        dpu::RoundOutput outs[2];
        for (const int rewindEpochs : {0, 1}) {
            dpu::Plan plan;
            plan.rewind = true;
            FineTunes log;
            dpu::TrainContext ctx{&log};
            dpu::RoundInput in{*net_, train_, val_, trained_, spec_, k, 21, ctx};
            in.rewindEpochs = rewindEpochs;
            outs[rewindEpochs] = dpu::createStrategy("dpu", plan)->runRound(in);
            std::vector<int> expected(11, rewindEpochs ? 1 : spec_.epochs);
            expected.back() = spec_.epochs;
            QCOMPARE(log.lengths, expected);
            bool frozenExact = false;
            changedPartial(*net_, trained_, outs[rewindEpochs].weights, frozenExact, outs[rewindEpochs].masks);
            QVERIFY2(frozenExact, "a weight outside the mask differs from the start");
            QCOMPARE(dpu::maskCount(outs[rewindEpochs].masks), dpu::updatedCount(I_, k));
        }
        bool differs = false;
        for (size_t i = 0; i < outs[0].weights.params.size(); ++i)
            differs |= !torch::equal(outs[0].weights.params[i], outs[1].weights.params[i]);
        QVERIFY(differs);
    }

    void unknownNameIsAPlanError()
    {
        dpu::Plan plan;
        QVERIFY_THROWS_EXCEPTION(dpu::PlanError, dpu::createStrategy("dpux", plan));
    }

    /// "Is this the baseline?" is answered by type (issue 43): the ids' table is the plan's list
    /// of names, every name parses to its id and back, FU alone is the baseline, and the factory
    /// builds the same strategy from the id as from the name.
    void baselineIsAskedByType()
    {
        QCOMPARE(dpu::strategyNames(), dpu::enumStrings<dpu::StrategyId>());
        QCOMPARE(dpu::baselineStrategy(), dpu::StrategyId::Fu);
        QCOMPARE(dpu::baselineStrategyName(), std::string("fu"));
        int baselines = 0;
        for (const std::string& name : dpu::strategyNames()) {
            const std::optional<dpu::StrategyId> id = dpu::enumFromString<dpu::StrategyId>(name);
            QVERIFY2(id.has_value(), name.c_str());
            QCOMPARE(dpu::nameOf(*id), name);
            QCOMPARE(dpu::isBaseline(name), dpu::isBaseline(*id));
            baselines += dpu::isBaseline(*id);
            dpu::Plan plan;
            const auto byId = dpu::createStrategy(*id, plan);
            QCOMPARE(byId->name(), name);
            // The baseline is the one strategy that ships the whole model: what the code asked
            // by name before, its policy says too.
            QCOMPARE(byId->policy().shipsFullModel, dpu::isBaseline(*id));
        }
        QCOMPARE(baselines, 1);
        for (const char* other : {"", "FU", "fu ", "dpux", "full"})
            QVERIFY2(!dpu::isBaseline(std::string(other)), other);
    }

    /// A plan's strategies, as its file names them, parse to their ids; the baseline among them
    /// is found by type, and a plan without it has none.
    void planStrategiesParseToIds()
    {
        const dpu::Plan plan = dpu::parsePlan(R"({"strategies": ["dpu", "fu", "pruning"]})", "test");
        std::vector<dpu::StrategyId> ids;
        for (const std::string& s : plan.strategies)
            ids.push_back(dpu::enumFromString<dpu::StrategyId>(s).value());
        QCOMPARE(ids, (std::vector<dpu::StrategyId>{dpu::StrategyId::Dpu, dpu::StrategyId::Fu, dpu::StrategyId::Pruning}));
        QCOMPARE(std::count_if(plan.strategies.begin(), plan.strategies.end(),
                               [](const std::string& s) { return dpu::isBaseline(s); }),
                 std::ptrdiff_t(1));
        QVERIFY(dpu::isBaseline(plan.strategies[1]));
        const dpu::Plan partial = dpu::parsePlan(R"({"strategies": ["rpu", "gcpu-reinit"]})", "test");
        QVERIFY(std::none_of(partial.strategies.begin(), partial.strategies.end(),
                             [](const std::string& s) { return dpu::isBaseline(s); }));
    }
};

QTEST_APPLESS_MAIN(TestStrategies)
#include "test_strategies.moc"
