// SPDX-License-Identifier: MIT
// A sparse deployed model (plan `deployed` sparse) run for real: the pattern kept, FU re-pruned, devices agree.
#include "ApplyChain.h"
#include "TestSupport.h"
#include "bundle/SafetensorsFile.h"
#include "dpu/Bundles.h"
#include "dpu/Cost.h"
#include "dpu/Runner.h"
#include <QFile>
#include <QTemporaryDir>
#include <cmath>
#include <map>

namespace {

/// A small real plan on a 50 %-sparse MLP: Fashion-MNIST's first 1,200/1,000 images, one epoch per step.
dpu::Plan sparsePlan(dpu::RunMode mode, std::vector<std::string> strategies, double k)
{
    dpu::Plan p;
    p.name = "sparse-check";
    p.dataset.path = dpu::test::fashionMnistSubset(1200, 1000);
    p.dataset.testLimit = 1000;
    p.split = {300, 300, 3, 300};
    p.mode = mode;
    p.strategies = std::move(strategies);
    p.k = k;
    p.train.epochs = 1;
    p.seeds = {7};
    p.deployed = dpu::DeployedForm::Sparse;
    p.deployedSparsity = 0.5;
    return p;
}

/// Per partial tensor of a device file: which weights are zero.
std::map<std::string, std::vector<bool>> zerosOf(const QString& deviceFile)
{
    const QByteArray bytes = dpu::test::fileBytes(deviceFile);
    const std::vector<uint8_t> file(bytes.begin(), bytes.end());
    std::map<std::string, std::vector<bool>> zeros;
    for (const auto& t : dpu::bundle::SafetensorsFile::read(file)) {
        if (t.shape.size() < 2)
            continue;
        auto& z = zeros[t.name];
        for (float v : t.values)
            z.push_back(v == 0.0f);
    }
    return zeros;
}

int64_t count(const std::vector<bool>& v)
{
    return std::count(v.begin(), v.end(), true);
}

} // namespace

class TestSparseRuns : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    /// Applies `strategy`'s bundles in order with dpu-apply and returns each round's zeros,
    /// checking the file against the engine's recorded deployed state after every round.
    std::map<int, std::map<std::string, std::vector<bool>>> deviceZeros(const QString& run,
                                                                        const std::vector<dpu::RoundRecord>& records,
                                                                        const std::string& strategy)
    {
        const QString device = dir_.filePath(QString::fromStdString("device-" + strategy + ".safetensors"));
        std::map<int, std::map<std::string, std::vector<bool>>> zeros;
        const bool applied = dpu::test::applyInOrder(
            QStringLiteral(DPU_APPLY_EXE), run, 7, records, strategy, device,
            [&](const dpu::RoundRecord& r, const QString& bundle) {
                // The pruned base (round 1), and FU's re-pruned whole models after it: the nonzeros
                // over the constant-0 rule, no base (bundle-format 2.6), smaller than a delta.
                if (r.round == 1 || strategy == "fu") {
                    const std::string text = dpu::inspectBundleFile(bundle.toStdString());
                    const bool coded = text.find("kind reinit+delta") != std::string::npos
                                       && text.find("init+sparse fp32, 200704/401408 changed") != std::string::npos;
                    if (!coded)
                        qWarning("%s", text.c_str());
                    return coded;
                }
                // A partial update: positions among the nonzeros.
                const std::string text = dpu::inspectBundleFile(bundle.toStdString(), device.toStdString());
                if (text.find("fc1.weight [512x784]") == std::string::npos
                    || text.find("among the nonzeros") == std::string::npos) {
                    qWarning("%s", text.c_str());
                    return false;
                }
                return true;
            },
            [&](int round) { zeros[round] = zerosOf(device); });
        if (!applied)
            return {};
        return zeros;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
    }

    /// Multi-round on a 50 %-sparse model: round 1 deploys one pruned model to every strategy
    /// (a full bundle, exactly half of each tensor zero, which codes its nonzeros and their
    /// positions, at most 0.55 of the dense model's bytes); DPU and RPU then change only nonzeros
    /// (the zeros the devices hold after dpu-apply are round 1's, round after round; their
    /// bundles code the positions among the nonzeros) and never re-initialise; FU ships its re-pruned model at the same
    /// sparsity, written as a delta and sent as the zero-coded full deployment, which is smaller. The
    /// analytic cost is the sparse model's: nonzeros and a bitmap for a full update, positions
    /// among the nonzeros for a partial one.
    void multiRoundKeepsThePattern()
    {
        const QString run = dir_.filePath(QStringLiteral("multi"));
        const dpu::Plan plan = sparsePlan(dpu::RunMode::Multi, {"dpu", "fu", "rpu"}, 0.05);
        dpu::validatePlan(plan);
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(plan, {run.toStdString()}).run(quiet).records;
        QCOMPARE(records.size(), size_t(9));

        dpu::CostModel cost{668672, 1034, 0};
        for (const int64_t n : {int64_t(784 * 512), int64_t(512 * 512), int64_t(512 * 10)})
            cost.nonzeroWeights += dpu::keptAtSparsity(n, 0.5);
        QCOMPARE(cost.nonzeroWeights, int64_t(668672 / 2));
        std::map<std::string, std::string> baseSha;
        for (const auto& r : records) {
            QVERIFY(r.deployed || r.round > 1); // the base always beats the random model
            if (!r.deployed) // the gate refused the candidate: nothing shipped
                continue;
            if (r.round == 1) {
                QCOMPARE(r.bundleKind, std::string("full"));
                // Its zeros are not shipped: at most 0.55 of the dense model's 4 bytes a value.
                QVERIFY2(r.bundleBytes <= 0.55 * 4 * (668672 + 1034), std::to_string(r.bundleBytes).c_str());
                QCOMPARE(r.analyticBits, dpu::deployedFullRoundBits(cost));
                baseSha[r.strategy] = r.deviceSha256;
                continue;
            }
            QCOMPARE(r.bundleKind, std::string("delta"));
            QVERIFY(!r.reinitialised || r.strategy == "fu");
            if (r.strategy == "fu") // the zero-coded full deployment (about 0.45), not the delta (about 0.52)
                QVERIFY2(r.bundleBytes <= 0.5 * 4 * (668672 + 1034), std::to_string(r.bundleBytes).c_str());
            QCOMPARE(r.analyticBits, r.strategy == "fu" ? dpu::deployedFullRoundBits(cost) : dpu::partialRoundBits(cost, 0.05));
            if (r.strategy == "dpu") // a global top-k
                QCOMPARE(r.updatedWeights, dpu::updatedCount(668672, 0.05));
            if (r.strategy == "rpu") // round(k n) per layer
                QCOMPARE(r.updatedWeights, int64_t(20070 + 13107 + 256));
        }
        QCOMPARE(baseSha["dpu"], baseSha["fu"]); // one base model, trained and pruned alike
        QCOMPARE(baseSha["dpu"], baseSha["rpu"]);

        for (const std::string strategy : {"dpu", "rpu", "fu"}) {
            const auto zeros = deviceZeros(run, records, strategy);
            QVERIFY2(zeros.size() >= 2 && zeros.count(1), strategy.c_str()); // and every deployed round applied
            for (const auto& [round, tensors] : zeros) {
                QCOMPARE(tensors.size(), size_t(3));
                for (const auto& [name, z] : tensors) {
                    const auto n = static_cast<int64_t>(z.size());
                    if (strategy == "fu" || round == 1) // pruned to exactly the sparsity, tensor by tensor
                        QCOMPARE(count(z), n - dpu::keptAtSparsity(n, 0.5));
                    else // the partial strategies keep round 1's zeros, every one
                        QVERIFY2(z == zeros.at(1).at(name), qPrintable(QStringLiteral("%1 round %2 %3").arg(
                                                              QString::fromStdString(strategy)).arg(round).arg(QString::fromStdString(name))));
                }
            }
        }
    }

    /// Single mode (the paper's Table 3): round 2's DPU at k = 0.2 rewinds iteratively among
    /// the nonzeros only and ships k * I changes; its zeros are round 1's.
    void singleUpdateAmongTheNonzeros()
    {
        const QString run = dir_.filePath(QStringLiteral("single"));
        const dpu::Plan plan = sparsePlan(dpu::RunMode::Single, {"dpu"}, 0.2);
        dpu::validatePlan(plan);
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(plan, {run.toStdString()}).run(quiet).records;
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(records[1].updatedWeights, dpu::updatedCount(668672, 0.2));
        const auto zeros = deviceZeros(run, records, "dpu");
        QCOMPARE(zeros.size(), size_t(2));
        QVERIFY(zeros.at(2) == zeros.at(1));
    }
};

QTEST_GUILESS_MAIN(TestSparseRuns)
#include "test_sparse_runs.moc"
