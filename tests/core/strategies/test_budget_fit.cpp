// SPDX-License-Identifier: MIT
// Byte-budgeted selection and the quantisation-aware re-fit, against a preview with known sizes.
#include "TestSupport.h"
#include "dpu/Cost.h"
#include "strategies/BudgetFit.h"
#include "strategies/QuantAwareRefit.h"
#include "strategies/Strategy.h"
#include "train/MaskSelection.h"
#include <cstring>

namespace {

/// Changed selectable values between two snapshots (bit patterns, as the bundle writer compares).
int64_t changedValues(const dpu::Weights& a, const dpu::Weights& b, bool withDense = false)
{
    int64_t n = 0;
    for (size_t i = 0; i < a.params.size(); ++i) {
        if (a.params[i].dim() < (withDense ? 1 : 2))
            continue;
        const auto x = a.params[i].contiguous(), y = b.params[i].contiguous();
        for (int64_t j = 0; j < x.numel(); ++j)
            n += std::memcmp(x.data_ptr<float>() + j, y.data_ptr<float>() + j, 4) != 0;
    }
    return n;
}

/// A bundle of `base` bytes plus `perValue` per changed partial value, plus one extra byte for
/// every `bump`-th changed value (a size that is not exactly linear); decoding rounds the
/// changed values to multiples of 1/32 (idempotent on the grid).
struct FakePreview : dpu::BundlePreview {
    const dpu::Weights* start = nullptr;
    int64_t base = 100, perValue = 5, bump = 7;
    mutable int calls = 0, decodes = 0;
    int64_t bytes(const dpu::Weights& c) const override
    {
        ++calls;
        const int64_t n = changedValues(c, *start);
        return base + perValue * n + n / bump;
    }
    dpu::Weights decoded(const dpu::Weights& c) const override
    {
        ++decodes;
        dpu::Weights d = dpu::cloneWeights(c);
        for (size_t i = 0; i < d.params.size(); ++i)
            if (d.params[i].dim() > 1)
                d.params[i] = torch::where(d.params[i] != start->params[i], torch::round(d.params[i] * 32) / 32,
                                           start->params[i]);
        return d;
    }
};

/// Four noisy Gaussian classes in 1x6x6 images.
dpu::TensorDataset blobs(int64_t first, int64_t n)
{
    torch::manual_seed(1);
    auto labels = torch::randint(0, 4, {1000}, torch::kLong);
    auto centres = torch::randn({4, 1, 6, 6}) * 0.35;
    auto images = centres.index_select(0, labels) + torch::randn({1000, 1, 6, 6});
    return {images.narrow(0, first, n).contiguous(), labels.narrow(0, first, n).contiguous()};
}

} // namespace

class TestBudgetFit : public QObject {
    Q_OBJECT

    dpu::TensorDataset train_ = blobs(0, 600), val_ = blobs(600, 300);
    dpu::TrainSpec spec_;
    std::unique_ptr<dpu::Network> net_;
    dpu::Weights start_, trained_;
    std::vector<torch::Tensor> scores_;
    int64_t I_ = 0;

    dpu::RankedMasks ranked() const
    {
        return [this](int64_t n) { return dpu::topKMask(scores_, n); };
    }

private Q_SLOTS:
    void initTestCase()
    {
        spec_.epochs = 3;
        spec_.batch = 64;
        net_ = dpu::createNetwork({"mlp", {1, 6, 6}, 4});
        dpu::initialiseNetwork(*net_, 11);
        start_ = dpu::snapshot(*net_);
        trained_ = dpu::cloneWeights(start_);
        torch::manual_seed(3);
        for (size_t i = 0; i < trained_.params.size(); ++i) {
            auto& p = trained_.params[i];
            p = p + torch::randn_like(p) * 0.1;
            scores_.push_back(p.dim() > 1 ? (p - start_.params[i]).square() : torch::Tensor());
            I_ += p.dim() > 1 ? p.numel() : 0;
        }
    }

    /// The count found is the largest that fits: n fits, n + 1 does not, for budgets across the
    /// range (the sizes are not exactly linear in n).
    void largestFittingIsExact()
    {
        FakePreview preview;
        preview.start = &start_;
        for (int64_t budget : {100L, 101L, 106L, 1000L, 12345L, 200000L}) {
            const int64_t n = dpu::largestFitting(I_, budget, trained_, start_, ranked(), preview);
            auto size = [&](int64_t m) { return preview.base + preview.perValue * m + m / preview.bump; };
            QVERIFY2(n >= 0 && size(n) <= budget, qPrintable(QString("budget %1: n %2").arg(budget).arg(n)));
            if (n < I_)
                QVERIFY2(size(n + 1) > budget, qPrintable(QString("budget %1: n %2 not the largest").arg(budget).arg(n)));
            // The candidate it describes changes exactly those n weights.
            QCOMPARE(changedValues(dpu::selectFrom(trained_, start_, dpu::topKMask(scores_, n)), start_), n);
        }
        preview.calls = 0;
        dpu::largestFitting(I_, 50000, trained_, start_, ranked(), preview);
        QVERIFY2(preview.calls < 20, qPrintable(QString::number(preview.calls))); // far fewer than I probes
    }

    void largestFittingEdges()
    {
        FakePreview preview;
        preview.start = &start_;
        QCOMPARE(dpu::largestFitting(I_, 99, trained_, start_, ranked(), preview), int64_t(-1)); // not even n = 0
        QCOMPARE(dpu::largestFitting(I_, 100, trained_, start_, ranked(), preview), int64_t(0));
        QCOMPARE(dpu::largestFitting(I_, 1L << 40, trained_, start_, ranked(), preview), I_); // everything fits
        QCOMPARE(dpu::largestFitting(10, 1L << 40, trained_, start_, ranked(), preview), int64_t(10));
    }

    /// Shrinking keeps the highest-ranked weights, rewinds the rest bit-exactly, and leaves a
    /// state that already fits as it is.
    void shrinkDropsTheLowestRanked()
    {
        FakePreview preview;
        preview.start = &start_;
        const dpu::MaskSet all = dpu::topKMask(scores_, 500);
        dpu::restore(*net_, dpu::selectFrom(trained_, start_, all));
        dpu::MaskSet masks = all;
        QVERIFY(dpu::shrinkToBudget(*net_, start_, 500, 100 + 5 * 500 + 500 / 7, ranked(), preview, masks));
        QCOMPARE(dpu::maskCount(masks), int64_t(500)); // fits: untouched
        QVERIFY(dpu::shrinkToBudget(*net_, start_, 500, 1100, ranked(), preview, masks));
        const int64_t kept = dpu::maskCount(masks);
        QVERIFY2(kept < 500 && preview.bytes(dpu::snapshot(*net_)) <= 1100, qPrintable(QString::number(kept)));
        QCOMPARE(changedValues(dpu::snapshot(*net_), start_), kept);
        // The kept ones are the top of the ranking: the same set as topK of that count.
        const auto top = dpu::topKMask(scores_, kept);
        for (size_t i = 0; i < masks.size(); ++i)
            if (masks[i].defined())
                QVERIFY(torch::equal(masks[i], top[i]));
        QVERIFY(!dpu::shrinkToBudget(*net_, start_, kept, 50, ranked(), preview, masks)); // nothing fits
    }

    /// DPU under a budget changes exactly the weights that fit, and no more when the budget is
    /// the same; a larger budget changes more.
    void dpuRoundFitsItsBudget()
    {
        FakePreview preview;
        preview.start = &start_;
        dpu::Plan plan;
        auto dpuStrategy = dpu::createStrategy("dpu", plan);
        QVERIFY(dpuStrategy->policy().budgeted);
        QVERIFY(!dpu::createStrategy("fu", plan)->policy().budgeted);
        dpu::TrainContext ctx;
        int64_t previous = -1;
        for (int64_t budget : {2000L, 6000L}) {
            dpu::RoundInput in{*net_, train_, val_, start_, spec_, 0.5, 9, ctx};
            in.preview = &preview;
            in.budgetBytes = budget;
            const auto out = dpuStrategy->runRound(in);
            QVERIFY(out.fitsBudget);
            QVERIFY2(preview.bytes(out.weights) <= budget, qPrintable(QString::number(preview.bytes(out.weights))));
            QCOMPARE(changedValues(out.weights, start_), out.selected);
            QCOMPARE(out.selectable, I_);
            QVERIFY(out.selected > previous);
            previous = out.selected;
        }
        dpu::RoundInput tiny{*net_, train_, val_, start_, spec_, 0.5, 9, ctx};
        tiny.preview = &preview;
        tiny.budgetBytes = 10;
        const auto out = dpuStrategy->runRound(tiny);
        QVERIFY(!out.fitsBudget);
        QCOMPARE(changedValues(out.weights, start_), int64_t(0));
    }

    /// The re-fit leaves at least 7/8 of the changed weights on the coding's grid (they were
    /// quantised and frozen), never touches a weight outside the mask, and asks the coding once
    /// per stage. A plain fine-tune leaves almost none on the grid.
    void quantAwareRefitFreezesCodedWeights()
    {
        FakePreview preview;
        preview.start = &start_;
        dpu::restore(*net_, start_);
        const dpu::MaskSet masks = dpu::topKMask(scores_, 400);
        dpu::restore(*net_, dpu::selectFrom(trained_, start_, masks));
        auto onGrid = [&](const dpu::Weights& w) {
            const dpu::Weights d = preview.decoded(w);
            int64_t n = 0;
            for (size_t i = 0; i < w.params.size(); ++i)
                if (masks[i].defined())
                    n += ((w.params[i] == d.params[i]).logical_and(masks[i] != 0)).sum().item<int64_t>();
            return n;
        };
        QVERIFY(onGrid(dpu::snapshot(*net_)) < 40);
        dpu::TrainContext ctx;
        const double val = dpu::quantAwareRefit(*net_, masks, preview, train_, val_, spec_, 4, ctx);
        QVERIFY(val >= 0 && val <= 1); // the best epoch's validation accuracy, not "none"
        const dpu::Weights after = dpu::snapshot(*net_);
        QCOMPARE(preview.decodes, 3 + 1); // three stages, and the check above
        QVERIFY2(onGrid(after) >= 350, qPrintable(QString::number(onGrid(after))));
        for (size_t i = 0; i < masks.size(); ++i)
            if (masks[i].defined())
                QVERIFY(torch::equal(torch::where(masks[i] == 0, after.params[i], start_.params[i]), start_.params[i]));
    }

    /// With the always-shipped tensors selectable, DPU and RPU rank biases with the weights: the
    /// masks cover them, round(k (I + B)) values change in all, and an unselected bias stays
    /// bit-identical to the start.
    void biasesCanJoinTheSelection()
    {
        int64_t dense = 0;
        for (const auto& p : start_.params)
            dense += p.dim() == 1 ? p.numel() : 0;
        dpu::Plan plan;
        dpu::TrainContext ctx;
        for (const char* name : {"dpu", "rpu"}) {
            dpu::RoundInput in{*net_, train_, val_, start_, spec_, 0.05, 9, ctx};
            in.selectDense = true;
            const auto out = dpu::createStrategy(name, plan)->runRound(in);
            QCOMPARE(out.selectable, I_ + dense);
            for (size_t i = 0; i < out.masks.size(); ++i)
                QVERIFY(out.masks[i].defined());
            // A selected weight with no gradient (a dead input) may not move: never more than selected.
            const int64_t changed = changedValues(out.weights, start_, true);
            QVERIFY2(changed <= out.selected && changed > out.selected * 9 / 10,
                     qPrintable(QString("%1: %2 changed, %3 selected").arg(name).arg(changed).arg(out.selected)));
            if (std::string(name) == "dpu")
                QCOMPARE(out.selected, dpu::updatedCount(I_ + dense, 0.05));
            for (size_t i = 0; i < out.masks.size(); ++i)
                QVERIFY(torch::equal(torch::where(out.masks[i] == 0, out.weights.params[i], start_.params[i]),
                                     start_.params[i]));
        }
    }
};

QTEST_GUILESS_MAIN(TestBudgetFit)
#include "test_budget_fit.moc"
