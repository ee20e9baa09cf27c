// SPDX-License-Identifier: MIT
// Byte-budgeted runs on real Fashion-MNIST subsets: real bundle sizes fit, budgets buy weights, resume is exact.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/Bundles.h"
#include "dpu/Error.h"
#include "dpu/Runner.h"
#include <QFileInfo>
#include <map>

namespace {

dpu::Plan budgetPlan(int64_t perRound, int64_t total = 0)
{
    dpu::Plan p;
    p.name = "budget-check";
    // Fashion-MNIST's first 900 training images (3 rounds of 300) and 1,000 test images: each
    // run loads them in milliseconds instead of decompressing all 70,000.
    p.dataset.path = dpu::test::fashionMnistSubset(900, 1000);
    p.dataset.testLimit = 1000;
    p.split = {300, 300, 3, 300};
    p.strategies = {"dpu", "rpu", "fu"};
    p.train.epochs = 1;
    p.bundle.values = dpu::Coding::Q8;
    p.budget.bytesPerRound = perRound;
    p.budget.bytesTotal = total;
    p.seeds = {3};
    return p;
}

using dpu::test::CancelAfterRounds;
using dpu::test::withoutTiming;

} // namespace

class TestBudgetRuns : public QObject {
    Q_OBJECT
    std::vector<dpu::RoundRecord> small_; // budgetPlan(6000), run once

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
    }

    /// Every budgeted bundle on disk is at most the budget and is the size the record gives;
    /// the record carries the budget and the k that fitted. FU ships its full model regardless.
    void bundlesNeverExceedTheBudget()
    {
        QTemporaryDir dir;
        dpu::RunObserver quiet;
        const auto summary = dpu::Runner(budgetPlan(6000), {dir.path().toStdString()}).run(quiet);
        small_ = summary.records;
        QCOMPARE(small_.size(), size_t(9));
        int deployed = 0;
        for (const auto& r : small_) {
            if (r.strategy == "fu") {
                QCOMPARE(r.budgetBytes, int64_t(0));
                QCOMPARE(r.k, 1.0);
                continue;
            }
            QCOMPARE(r.budgetBytes, int64_t(6000));
            QVERIFY(r.k > 0 && r.k < 0.05);
            if (!r.deployed)
                continue;
            if (r.strategy == "dpu") // DPU selects over I exactly
                DPU_COMPARE_NEAR(r.k * 668672.0, double(r.updatedWeights), 1e-6);
            ++deployed;
            const QString path = QString::fromStdString(dpu::runBundlePath(dir.path().toStdString(), r.seed, r.strategy, r.round));
            QCOMPARE(QFileInfo(path).size(), qint64(r.bundleBytes));
            QVERIFY2(r.bundleBytes <= 6000, qPrintable(QString::number(r.bundleBytes)));
            QVERIFY2(r.bundleBytes > 5000, qPrintable(QString::number(r.bundleBytes))); // the budget is used
        }
        QVERIFY(deployed >= 3);
    }

    /// Twice the budget buys more weights in every round of DPU and RPU.
    void aLargerBudgetUsesMoreWeights()
    {
        QVERIFY(!small_.empty());
        dpu::RunObserver quiet;
        const auto large = dpu::Runner(budgetPlan(12000), {}).run(quiet).records;
        QCOMPARE(large.size(), small_.size());
        for (size_t i = 0; i < large.size(); ++i) {
            if (large[i].strategy == "fu")
                continue;
            QVERIFY2(large[i].k > small_[i].k,
                     qPrintable(QString("%1 round %2: k %3 at 12000 bytes, %4 at 6000")
                                    .arg(QString::fromStdString(large[i].strategy)).arg(large[i].round)
                                    .arg(large[i].k).arg(small_[i].k)));
            if (large[i].deployed)
                QVERIFY(large[i].bundleBytes <= 12000);
        }
    }

    /// A run budget: each round gets what is left over the rounds left, so the run's bundles
    /// never exceed it together and what one round leaves goes to the next.
    void aRunBudgetCarriesOver()
    {
        dpu::RunObserver quiet;
        const int64_t total = 15000;
        const auto records = dpu::Runner(budgetPlan(0, total), {}).run(quiet).records;
        std::map<std::string, int64_t> spent;
        for (const auto& r : records) {
            if (r.strategy == "fu")
                continue;
            QCOMPARE(r.budgetBytes, (total - spent[r.strategy]) / (3 - r.round + 1));
            if (r.deployed)
                QVERIFY(r.bundleBytes <= r.budgetBytes);
            spent[r.strategy] += r.bundleBytes;
        }
        for (const auto& [name, bytes] : spent)
            QVERIFY2(bytes <= total && bytes > total / 2, qPrintable(QString::fromStdString(name) + ": " + QString::number(bytes)));
    }

    /// Stopped after two units and resumed: the same records as an uninterrupted run.
    void budgetedRunResumesIdentically()
    {
        QVERIFY(!small_.empty());
        QTemporaryDir dir;
        CancelAfterRounds cancel(4);
        QVERIFY(dpu::Runner(budgetPlan(6000), {dir.path().toStdString(), false, &cancel.control}).run(cancel).cancelled);
        dpu::RunObserver quiet;
        const auto resumed = dpu::Runner(budgetPlan(6000), {dir.path().toStdString(), true}).run(quiet).records;
        QCOMPARE(resumed.size(), small_.size());
        for (size_t i = 0; i < resumed.size(); ++i)
            QCOMPARE(QString::fromStdString(withoutTiming(resumed[i])), QString::fromStdString(withoutTiming(small_[i])));
    }

    /// A budget below the smallest bundle (envelope and biases) deploys nothing and says why.
    void aBudgetTooSmallDeploysNothing()
    {
        dpu::Plan p = budgetPlan(500);
        p.strategies = {"dpu"};
        p.split.rounds = 2;
        struct Messages : dpu::RunObserver {
            std::vector<std::string> lines;
            void message(const std::string& m) override { lines.push_back(m); }
        } messages;
        const auto records = dpu::Runner(p, {}).run(messages).records;
        QCOMPARE(records.size(), size_t(2));
        for (const auto& r : records) {
            QVERIFY(!r.deployed);
            QCOMPARE(r.bundleBytes, int64_t(0));
        }
        QCOMPARE(messages.lines.size(), size_t(2));
        QVERIFY2(QString::fromStdString(messages.lines[0]).contains("budget of 500 bytes"), messages.lines[0].c_str());
    }
};

QTEST_GUILESS_MAIN(TestBudgetRuns)
#include "test_budget_runs.moc"
