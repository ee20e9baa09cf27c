// SPDX-License-Identifier: MIT
// An INT8 deployed model (plan `deployed` int8) run for real: codes and scales kept, devices agree.
#include "ApplyChain.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "bundle/SafetensorsFile.h"
#include "dpu/Bundles.h"
#include "dpu/Cost.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>

namespace {

/// A small real plan on an INT8 MLP: Fashion-MNIST's first 1,200/1,000 images, one epoch per step.
dpu::Plan int8Plan(dpu::RunMode mode, std::vector<std::string> strategies, double k)
{
    dpu::Plan p;
    p.name = "int8-check";
    p.dataset.path = dpu::test::fashionMnistSubset(1200, 1000);
    p.dataset.testLimit = 1000;
    p.split = {300, 300, 3, 300};
    p.mode = mode;
    p.strategies = std::move(strategies);
    p.k = k;
    p.train.epochs = 1;
    p.seeds = {7};
    p.deployed = dpu::DeployedForm::Int8;
    return p;
}

/// A device file's tensors by name.
std::map<std::string, dpu::bundle::TensorData> tensorsOf(const QString& deviceFile)
{
    const QByteArray bytes = dpu::test::fileBytes(deviceFile);
    std::map<std::string, dpu::bundle::TensorData> out;
    for (auto& t : dpu::bundle::SafetensorsFile::read(std::vector<uint8_t>(bytes.begin(), bytes.end())))
        out[t.name] = t;
    return out;
}

const char* const kPartial[] = {"fc1.weight", "fc2.weight", "fc3.weight"};

/// The MLP's cost model as an INT8 run prices it: 8-bit codes, one scale per output channel, and
/// the 1,034 biases as codes with three scales (int8_biases codes) or float32.
dpu::CostModel int8Cost(bool biasCodes)
{
    dpu::CostModel cost{668672, 1034, 0};
    cost.valueBits = 8;
    cost.scaleValues = 512 + 512 + 10;
    cost.codedDenseWeights = biasCodes ? 1034 : 0;
    cost.codedDenseScales = biasCodes ? 3 : 0;
    return cost;
}

/// The validation accuracy after every epoch of each (strategy, round)'s full training.
struct FullEpochs : dpu::RunObserver {
    std::map<std::pair<std::string, int>, std::vector<double>> val;
    void epochDone(const dpu::EpochEvent& e) override
    {
        if (e.phase == dpu::Phase::Full)
            val[{e.strategy, e.round}].push_back(e.valAccuracy);
    }
};

} // namespace

class TestInt8Runs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    /// Applies `strategy`'s bundles in order with dpu-apply, checks the file against the engine's
    /// recorded deployed state after every round and returns each round's device file.
    std::map<int, std::map<std::string, dpu::bundle::TensorData>> deviceFiles(
        const QString& run, const std::vector<dpu::RoundRecord>& records, const std::string& strategy)
    {
        const QString device = dir_.filePath(QString::fromStdString("device-" + strategy + ".safetensors"));
        std::map<int, std::map<std::string, dpu::bundle::TensorData>> files;
        const bool applied = dpu::test::applyInOrder(
            QStringLiteral(DPU_APPLY_EXE), run, 7, records, strategy, device,
            [&](const dpu::RoundRecord&, const QString&) {
                if (files.empty())
                    files[0] = tensorsOf(device);
                return true;
            },
            [&](int round) { files[round] = tensorsOf(device); });
        if (!applied)
            return {};
        return files;
    }

    /// The cost model run.json gives for the run in `run` (dpu::runCostModel), with the INT8
    /// form's value bits and scales the planners set themselves.
    static dpu::CostModel runCostModelOf(const QString& run)
    {
        dpu::CostModel c = dpu::runCostModel(dpu::loadRunFolder(run.toStdString()));
        c.valueBits = 8;
        c.scaleValues = 512 + 512 + 10;
        return c;
    }

    /// `plan`, checked, run into the folder `run`: its records.
    static std::vector<dpu::RoundRecord> runInto(const QString& run, const dpu::Plan& plan)
    {
        dpu::validatePlan(plan);
        dpu::RunObserver quiet;
        return dpu::Runner(plan, {run.toStdString()}).run(quiet).records;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
    }

    /// Multi-round on an INT8 model: the devices start from an INT8 file (I8 codes and F32
    /// scales per partial tensor); round 1 deploys one quantised base to every strategy as a full
    /// bundle; DPU and RPU then change codes only (at most round(kI), the scales untouched, every
    /// partial tensor still I8 after dpu-apply, which gives the engine's SHA-256); FU ships its own
    /// codes and scales in full. The biases are codes too (int8_biases codes, the default), each
    /// with one scale set anew every round, max |b| / 127 of what it deploys, so a code never
    /// clips and the largest sits on ±127. The cost is priced at 8 bits per value, and the
    /// biases' at 8 bits and a 32-bit scale a tensor.
    void multiRoundStaysInt8()
    {
        const QString run = dir_.filePath(QStringLiteral("multi"));
        const dpu::Plan plan = int8Plan(dpu::RunMode::Multi, {"dpu", "fu", "rpu"}, 0.05);
        dpu::validatePlan(plan);
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(plan, {run.toStdString()}).run(quiet).records;
        QCOMPARE(records.size(), size_t(9));

        const dpu::CostModel cost = int8Cost(true);
        std::map<std::string, std::string> baseSha;
        for (const auto& r : records) {
            QVERIFY(r.deployed || r.round > 1);
            if (!r.deployed)
                continue;
            QVERIFY(!r.reinitialised || r.round == 1 || r.strategy == "fu");
            const bool full = r.round == 1 || r.strategy == "fu";
            QCOMPARE(r.bundleKind, std::string(full ? "full" : "delta"));
            QCOMPARE(r.analyticBits, full ? dpu::deployedFullRoundBits(cost) : dpu::partialRoundBits(cost, 0.05));
            if (r.round == 1)
                baseSha[r.strategy] = r.deviceSha256;
            else if (r.strategy != "fu") // a change is a code that differs: never more than selected
                QVERIFY2(r.updatedWeights > 0 && r.updatedWeights <= dpu::updatedCount(668672, 0.05),
                         qPrintable(QString::number(r.updatedWeights)));
        }
        QCOMPARE(runCostModelOf(run), cost); // run.json says how the records priced the biases
        QCOMPARE(baseSha["dpu"], baseSha["fu"]); // one base model, trained and quantised alike
        QCOMPARE(baseSha["dpu"], baseSha["rpu"]);
        QVERIFY(dpu::deployedFullRoundBits(cost) < 0.26 * dpu::fullRoundBits(cost)); // the paper's 0.25

        for (const std::string strategy : {"dpu", "rpu", "fu"}) {
            const auto files = deviceFiles(run, records, strategy);
            QVERIFY2(files.size() >= 3 && files.count(1), strategy.c_str()); // the initial file and every round
            for (const auto& [round, tensors] : files) {
                for (const char* name : kPartial) {
                    const auto& codes = tensors.at(name);
                    QCOMPARE(codes.dtype, dpu::bundle::DType::I8);
                    QVERIFY(codes.values.empty());
                    QCOMPARE(int64_t(codes.codes.size()), codes.shape[0] * codes.shape[1]);
                    const auto& scale = tensors.at(std::string(name) + ".scale");
                    QCOMPARE(scale.dtype, dpu::bundle::DType::F32);
                    QCOMPARE(scale.shape, std::vector<int64_t>{codes.shape[0]});
                    for (int8_t c : codes.codes)
                        QVERIFY(c >= -127 && c <= 127);
                    if (round >= 2 && strategy != "fu") { // partial updates keep round 1's scales
                        QVERIFY(scale.values == files.at(1).at(std::string(name) + ".scale").values);
                        QVERIFY(codes.codes != files.at(1).at(name).codes || name == std::string("fc3.weight"));
                    }
                }
                for (const char* name : {"fc1.bias", "fc2.bias", "fc3.bias"}) {
                    const auto& codes = tensors.at(name);
                    QCOMPARE(codes.dtype, dpu::bundle::DType::I8);
                    const auto& scale = tensors.at(std::string(name) + ".scale");
                    QCOMPARE(scale.shape, std::vector<int64_t>{1});
                    int largest = 0;
                    for (int8_t c : codes.codes)
                        largest = std::max(largest, std::abs(int(c)));
                    QVERIFY2(largest == 127 || (largest == 0 && scale.values[0] == 1.0f), name);
                }
            }
        }
    }

    /// int8_biases float: the biases stay float32 (no scale beside them) and ship exact; the
    /// partial tensors are codes as before, and the cost prices the biases at 32 bits.
    void floatBiasesStayFloat()
    {
        const QString run = dir_.filePath(QStringLiteral("float-biases"));
        dpu::Plan plan = int8Plan(dpu::RunMode::Single, {"dpu"}, 0.2);
        plan.int8Biases = dpu::Int8Biases::Float;
        const auto records = runInto(run, plan);
        QCOMPARE(records.size(), size_t(2));
        const dpu::CostModel cost = int8Cost(false);
        QCOMPARE(records[0].analyticBits, dpu::deployedFullRoundBits(cost));
        QCOMPARE(runCostModelOf(run), cost); // no codes in run.json
        const auto files = deviceFiles(run, records, "dpu");
        QCOMPARE(files.size(), size_t(3));
        for (const auto& [round, tensors] : files) {
            QCOMPARE(tensors.at("fc1.weight").dtype, dpu::bundle::DType::I8);
            QCOMPARE(tensors.at("fc1.bias").dtype, dpu::bundle::DType::F32);
            QVERIFY(!tensors.count("fc1.bias.scale"));
        }
    }

    /// int8_rescale output: DPU's partial rounds grow the classifier's scales where its weights
    /// outgrew them (never shrink one) and keep every other tensor's; a grown channel is re-coded
    /// so that its largest code is ±127 again, and its re-coded weights and scale are priced.
    /// dpu-apply arrives at the engine's file after every round (deviceFiles()).
    void rescaleGrowsTheOutputLayer()
    {
        const QString run = dir_.filePath(QStringLiteral("rescale"));
        dpu::Plan plan = int8Plan(dpu::RunMode::Multi, {"dpu"}, 0.05);
        plan.int8Rescale = dpu::Int8Rescale::Output;
        const auto records = runInto(run, plan);
        const auto files = deviceFiles(run, records, "dpu");
        QVERIFY(files.size() >= 3);
        const dpu::CostModel cost = int8Cost(true); // the biases as codes (the default)
        int64_t grownInRun = 0;
        for (auto it = std::next(files.find(1)); it != files.end(); ++it) {
            const auto &before = std::prev(it)->second, &now = it->second;
            for (const char* kept : {"fc1.weight.scale", "fc2.weight.scale"})
                QVERIFY(now.at(kept).values == before.at(kept).values);
            const auto &scale = now.at("fc3.weight.scale").values, &was = before.at("fc3.weight.scale").values;
            const auto& codes = now.at("fc3.weight").codes;
            const size_t row = codes.size() / scale.size();
            int64_t grown = 0;
            for (size_t c = 0; c < scale.size(); ++c) {
                QVERIFY(scale[c] >= was[c]);
                if (scale[c] == was[c])
                    continue;
                ++grown;
                int largest = 0;
                for (size_t j = c * row; j < (c + 1) * row; ++j)
                    largest = std::max(largest, std::abs(int(codes[j])));
                QCOMPARE(largest, 127);
            }
            const auto r = std::find_if(records.begin(), records.end(), [&](const dpu::RoundRecord& x) {
                return x.round == it->first && x.strategy == "dpu";
            });
            QVERIFY(r != records.end() && r->deployed);
            const double changed = std::max(0.05, double(r->updatedWeights) / 668672.0);
            QCOMPARE(r->analyticBits, grown > 0 ? dpu::partialRoundBits(cost, changed) + 32.0 * double(grown)
                                                : dpu::partialRoundBits(cost, 0.05));
            grownInRun += grown;
        }
        QVERIFY(grownInRun > 0); // one epoch on 300 samples already outgrows round 1's scales
    }

    /// The scales live in the checkpoint: a run cancelled after DPU's round 2 and resumed deploys
    /// exactly what the uninterrupted run deploys (a resumed run without its scales could not
    /// even write its device files).
    void resumesWithItsScales()
    {
        const dpu::Plan plan = int8Plan(dpu::RunMode::Multi, {"dpu"}, 0.05);
        QTemporaryDir whole;
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(plan, {whole.path().toStdString()}).run(quiet).records;
        const auto resumed = dpu::test::stoppedAndResumed(plan, 2);
        QCOMPARE(resumed.size(), records.size());
        for (size_t i = 0; i < records.size(); ++i) {
            QCOMPARE(resumed[i].deviceSha256, records[i].deviceSha256);
            QCOMPARE(resumed[i].updatedWeights, records[i].updatedWeights);
        }
    }

    /// fu_int8_training quant_aware (the default, the paper's): FU and round 1's base train
    /// through the quantiser with scales of their own, so the epoch the trainer keeps is judged
    /// on the INT8 model the round ships (its best epoch's validation accuracy is the quantised
    /// candidate's, to the sample); `post` trains in float, and both the base and FU's update
    /// come out other models.
    void fuTrainsThroughTheQuantiser()
    {
        dpu::Plan plan = int8Plan(dpu::RunMode::Single, {"fu"}, 0.2);
        plan.train.epochs = 2;
        QVERIFY(plan.fuInt8Training == dpu::FuInt8Training::QuantAware);
        FullEpochs log;
        const auto aware = dpu::Runner(plan, {}).run(log).records;
        plan.fuInt8Training = dpu::FuInt8Training::Post;
        dpu::validatePlan(plan);
        dpu::RunObserver quiet;
        const auto post = dpu::Runner(plan, {}).run(quiet).records;
        QCOMPARE(aware.size(), size_t(2));
        QCOMPARE(post.size(), size_t(2));
        QVERIFY(aware[0].deployed && post[0].deployed); // round 2 may fail the gate: compare candidates
        QCOMPARE(aware[0].bundleKind, std::string("full"));
        QVERIFY(aware[0].deviceSha256 != post[0].deviceSha256);
        for (size_t i = 0; i < 2; ++i) {
            QVERIFY2(aware[i].candidateValAccuracy != post[i].candidateValAccuracy
                         || aware[i].candidateTestAccuracy != post[i].candidateTestAccuracy,
                     qPrintable(QString::number(i + 1)));
            const auto& epochs = log.val.at({"fu", aware[i].round});
            QCOMPARE(epochs.size(), size_t(2));
            QCOMPARE(*std::max_element(epochs.begin(), epochs.end()), aware[i].candidateValAccuracy);
        }
    }

    /// Single mode (the paper's Table 3): round 2's DPU at k = 0.2 changes at most k * I codes
    /// of the quantised base, whose scales it keeps.
    void singleUpdateChangesCodes()
    {
        const QString run = dir_.filePath(QStringLiteral("single"));
        const dpu::Plan plan = int8Plan(dpu::RunMode::Single, {"dpu"}, 0.2);
        dpu::validatePlan(plan);
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(plan, {run.toStdString()}).run(quiet).records;
        QCOMPARE(records.size(), size_t(2));
        QVERIFY(records[1].updatedWeights > 0 && records[1].updatedWeights <= dpu::updatedCount(668672, 0.2));
        const auto files = deviceFiles(run, records, "dpu");
        QCOMPARE(files.size(), size_t(3));
        int64_t changed = 0;
        for (const char* name : kPartial) {
            QVERIFY(files.at(2).at(std::string(name) + ".scale").values
                    == files.at(1).at(std::string(name) + ".scale").values);
            const auto &before = files.at(1).at(name).codes, &after = files.at(2).at(name).codes;
            for (size_t j = 0; j < after.size(); ++j)
                changed += before[j] != after[j];
        }
        QCOMPARE(changed, records[1].updatedWeights); // the record counts the codes that changed
    }
};

QTEST_GUILESS_MAIN(TestInt8Runs)
#include "test_int8_runs.moc"
