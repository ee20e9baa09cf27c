// SPDX-License-Identifier: MIT
// Terminal progress for dpu-cli run.
#include "TerminalProgress.h"
#include "dpu/RunStats.h"
#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace dpu::cli {

TerminalProgress::TerminalProgress(bool quiet) : quiet_(quiet), tty_(::isatty(STDERR_FILENO) != 0)
{
}

void TerminalProgress::clearLine()
{
    if (lineOpen_) {
        std::fputs("\r\033[K", stderr);
        lineOpen_ = false;
    }
}

void TerminalProgress::runStarted(const RunInfo& info)
{
    rounds_ = info.rounds;
    if (quiet_)
        return;
    std::fprintf(stderr, "Plan %s: model %s on %s, I = %lld partial weights, %d rounds x %zu strategies x %zu seeds\n",
                 info.planName.c_str(), info.model.c_str(), info.device.c_str(),
                 static_cast<long long>(info.partialWeights), info.rounds, info.strategies.size(), info.seeds.size());
    if (info.resumedUnits > 0)
        std::fprintf(stderr, "Resuming after %d finished units\n", info.resumedUnits);
}

void TerminalProgress::batchDone(const BatchProgress& b)
{
    if (quiet_ || !tty_)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - lastDraw_ < std::chrono::milliseconds(100) && b.batch != b.batches)
        return;
    lastDraw_ = now;
    std::fprintf(stderr, "\r\033[Kseed %llu  round %d/%d  %-12s %-8s epoch %d  batch %d/%d",
                 static_cast<unsigned long long>(b.seed), b.round, rounds_, b.strategy.c_str(), phaseName(b.phase),
                 b.epoch, b.batch, b.batches);
    lineOpen_ = true;
}

void TerminalProgress::epochDone(const EpochEvent&) {}

void TerminalProgress::roundDone(const RoundRecord& r)
{
    if (quiet_)
        return;
    clearLine();
    // The bytes really sent (the bundle, as the window's log says), the paper's analytic figure beside them.
    char bytes[64];
    if (r.bundleBytes > 0)
        std::snprintf(bytes, sizeof bytes, "%lld B sent (analytic %.0f B)", static_cast<long long>(r.bundleBytes), r.analyticBits / 8.0);
    else
        std::snprintf(bytes, sizeof bytes, "0 B sent");
    std::fprintf(stderr, "seed %llu round %2d %-12s %s%s test %.2f%% (candidate val %.2f%%)  %lld weights  %s  bits so far %.4f of a full model per round  %.1fs\n",
                 static_cast<unsigned long long>(r.seed), r.round, r.strategy.c_str(), r.deployed ? "deployed " : "kept     ",
                 r.reinitialised ? "[reinit]" : "        ", 100 * r.testAccuracy, 100 * r.candidateValAccuracy,
                 static_cast<long long>(r.updatedWeights), bytes, r.cumulativeRatio, r.seconds);
}

void TerminalProgress::printSummary(const RunSummary& summary) const
{
    if (quiet_ || summary.records.empty())
        return;
    // Columns as the paper's Table 2 names them, plus the ratio to a full model every round
    // (which FU, skipping the rounds its validation accuracy does not improve, stays under).
    const auto stats = strategyStats(summary.records);
    auto figure = [](double v, const char* format) {
        char text[32];
        if (std::isnan(v))
            return std::string("-");
        std::snprintf(text, sizeof text, format, v);
        return std::string(text);
    };
    std::fprintf(stderr, "\n%-12s %14s %17s %17s %30s\n", "strategy", "mean test acc", "acc. diff. to FU",
                 "bits / FU's bits", "bits / full model every round");
    for (const auto& s : stats)
        std::fprintf(stderr, "%-12s %13.2f%% %17s %17s %30.4f\n", s.strategy.c_str(), 100 * s.meanTestAccuracy,
                     figure(100 * s.accuracyDifferenceToFu, "%+.2f pts").c_str(), figure(s.ratioToFu, "%.4f").c_str(),
                     s.ratioToFullEveryRound);
    std::fprintf(stderr, "(means over rounds, then seeds; bits: the analytic bits sent over all rounds, divided by "
                         "FU's of the same seed (the paper's ratio to FU) or by a full model sent every round)\n");
    if (!summary.outDir.empty())
        std::fprintf(stderr, "Results in %s/results.jsonl and results.csv\n", summary.outDir.c_str());
}

} // namespace dpu::cli
