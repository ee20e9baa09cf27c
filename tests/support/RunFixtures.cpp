// SPDX-License-Identifier: MIT
// RunFixtures: records with the runner's cumulative bookkeeping, and run folders written as the runner lays them out.
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "dpu/Cost.h"
#include <QTemporaryDir>
#include <cstdio>
#include <stdexcept>

namespace dpu::test {

std::vector<RoundRecord> stoppedAndResumed(const Plan& plan, size_t units)
{
    QTemporaryDir dir;
    CancelAfterRounds stop(units);
    if (!Runner(plan, {dir.path().toStdString(), false, &stop.control}).run(stop).cancelled)
        throw std::runtime_error("the run ended before it was stopped after " + std::to_string(units) + " rounds");
    RunObserver quiet;
    return Runner(plan, {dir.path().toStdString(), true}).run(quiet).records;
}

std::string withoutTiming(RoundRecord record)
{
    record.seconds = 0;
    return recordToJson(record);
}

RoundRecord roundRecord(const std::string& strategy, uint64_t seed, int round, double accuracy, double analyticBytes,
                        int64_t bundleBytes)
{
    RoundRecord r;
    r.strategy = strategy;
    r.seed = seed;
    r.round = round;
    r.deployed = analyticBytes > 0;
    r.testAccuracy = accuracy;
    r.valAccuracy = accuracy;
    r.candidateTestAccuracy = accuracy;
    r.candidateValAccuracy = accuracy;
    r.analyticBits = analyticBytes * 8;
    r.bundleBytes = r.deployed ? bundleBytes : 0;
    if (r.deployed)
        r.bundleKind = strategy == "fu" ? "full" : round == 1 ? "reinit+delta" : "delta";
    return r;
}

std::vector<RoundRecord> strategyRounds(const std::string& strategy, uint64_t seed, const std::vector<double>& accuracies,
                                        const std::vector<double>& analyticBytes, const std::vector<int64_t>& bundleBytes,
                                        double fullRoundBytes)
{
    std::vector<RoundRecord> out;
    double bits = 0;
    int64_t bytes = 0;
    for (size_t i = 0; i < accuracies.size(); ++i) {
        const int round = static_cast<int>(i) + 1;
        RoundRecord r = roundRecord(strategy, seed, round, accuracies[i], analyticBytes.at(i), bundleBytes.at(i));
        bits += r.analyticBits;
        bytes += r.bundleBytes;
        r.cumulativeBits = bits;
        r.cumulativeBundleBytes = bytes;
        r.cumulativeRatio = bits / (round * fullRoundBytes * 8);
        out.push_back(r);
    }
    return out;
}

std::vector<RoundRecord> joined(std::initializer_list<std::vector<RoundRecord>> parts)
{
    std::vector<RoundRecord> out;
    for (const auto& p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

Plan tinyRealPlan(const std::string& name)
{
    Plan p;
    p.name = name;
    p.dataset.trainLimit = 1200;
    p.dataset.testLimit = 400;
    p.split = {100, 300, 3, 200};
    p.strategies = {"dpu"};
    p.k = 0.02;
    p.train.epochs = 1;
    p.seeds = {3};
    p.threads = 1;
    return p;
}

Plan sweepPlan(double k, int rounds, std::vector<std::string> strategies, const std::string& values)
{
    Plan p;
    char name[64];
    std::snprintf(name, sizeof name, "sweep-%s-k%g", values.c_str(), k);
    p.name = name;
    p.k = k;
    p.split.rounds = rounds;
    p.strategies = std::move(strategies);
    const auto coding = enumFromString<Coding>(values);
    if (!coding)
        throw std::invalid_argument("sweepPlan: no value coding is named \"" + values + "\"");
    p.bundle.values = *coding;
    p.seeds = {1};
    return p;
}

FrontierRun frontierRun(const std::string& id, const Plan& plan, std::vector<RoundRecord> records, bool finished)
{
    FrontierRun r;
    r.id = id;
    r.plan = plan;
    r.records = std::move(records);
    r.finished = finished;
    return r;
}

CostModel codingSweepCost()
{
    return {100000, 100};
}

std::vector<FrontierRun> codingSweep()
{
    const CostModel cost = codingSweepCost();
    const double full = fullRoundBits(cost) / 8;
    const struct {
        const char* values;
        double k;
        double accuracy;
        int64_t bytes;
    } cells[] = {{"fp32", 0.001, 0.75, 1000}, {"fp32", 0.01, 0.85, 5000}, {"q8", 0.001, 0.74, 400}, {"q8", 0.01, 0.84, 2000}};
    std::vector<FrontierRun> runs;
    for (const auto& c : cells) {
        const bool exact = std::string(c.values) == "fp32";
        const Plan plan = sweepPlan(c.k, 2, exact ? std::vector<std::string>{"dpu", "fu"} : std::vector<std::string>{"dpu"},
                                    c.values);
        const double analytic = partialRoundBits(cost, c.k) / 8;
        std::vector<RoundRecord> records =
            strategyRounds("dpu", 1, {c.accuracy - 0.05, c.accuracy + 0.05}, {analytic, analytic}, {c.bytes, c.bytes}, full);
        if (exact)
            records = joined({records, strategyRounds("fu", 1, {0.88, 0.92}, {full, full}, {400500, 400500}, full)});
        char id[32];
        std::snprintf(id, sizeof id, "%s-k%g", c.values, c.k);
        FrontierRun run = frontierRun(id, plan, records);
        run.cost = cost;
        runs.push_back(run);
    }
    return runs;
}

std::string writeRunFolder(const std::string& dir, const Plan& plan, const std::vector<RoundRecord>& records,
                           const std::string& state, const CostModel& cost)
{
    const std::string planText = planToJson(plan);
    writeFile(dir + "/plan.json", std::vector<uint8_t>(planText.begin(), planText.end()));
    std::string lines;
    for (const RoundRecord& r : records)
        lines += recordToJson(r) + "\n";
    writeFile(dir + "/results.jsonl", std::vector<uint8_t>(lines.begin(), lines.end()));
    if (!state.empty()) {
        const RunStatus s{true, state, plan.split.rounds, cost.partialWeights, cost.denseWeights, "cpu", "testhost",
                          "2026-01-01T00:00:00Z", state == "running" ? std::string() : "2026-01-01T00:01:00Z"};
        const std::string text = runStatusToJson(s);
        writeFile(dir + "/run.json", std::vector<uint8_t>(text.begin(), text.end()));
    }
    return dir;
}

} // namespace dpu::test
