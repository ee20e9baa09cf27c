// SPDX-License-Identifier: MIT
// RunWorker: the engine adapter; observer callbacks run on the worker thread and leave as signals.
#include "workers/RunWorker.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include <exception>

namespace dpu::ui {
namespace {
// Batches can finish thousands of times a second on small models; the progress bar only needs
// about 20 updates a second, and flooding the GUI event queue would itself cause stutter.
constexpr qint64 kBatchSignalIntervalMs = 50;
} // namespace

RunWorker::RunWorker(int runId, dpu::Plan plan, QString outDir, QObject* parent)
    : QObject(parent), runId_(runId), plan_(std::move(plan)), outDir_(std::move(outDir)),
      runner_(std::make_unique<dpu::Runner>(plan_, dpu::RunOptions{outDir_.toStdString(), false, &control_}))
{
}

RunWorker::~RunWorker() = default;

void RunWorker::cancel()
{
    control_.requestCancel(); // a paused engine polls the token and stops too
}

void RunWorker::setPaused(bool paused)
{
    control_.setPaused(paused);
}

bool RunWorker::isPaused() const
{
    return control_.paused();
}

void RunWorker::start()
{
    sinceBatchSignal_.start();
    try {
        const dpu::RunSummary summary = runner_->run(*this);
        if (!summarySent_) // the engine always reports runFinished; this guards a future change
            Q_EMIT finished(runId_, summary);
    } catch (const std::exception& e) {
        // dpu::Error and anything else the engine throws: the message names the field or file
        // (an InternalError's says it is a defect to report).
        Q_EMIT failed(runId_, QString::fromStdString(dpu::failureText(e)));
    } catch (...) {
        Q_EMIT failed(runId_, QStringLiteral("unknown error in the engine"));
    }
}

void RunWorker::runStarted(const dpu::RunInfo& info)
{
    Q_EMIT started(runId_, info);
}

void RunWorker::roundStarted(const dpu::RoundStart& start)
{
    Q_EMIT roundBegan(runId_, start);
}

void RunWorker::epochDone(const dpu::EpochEvent& epoch)
{
    Q_EMIT epochFinished(runId_, epoch);
}

void RunWorker::batchDone(const dpu::BatchProgress& progress)
{
    // After Stop every batch is reported: the last position shown is where the run really ended
    // (and a test can count that at most the batch in flight finished).
    if (progress.batch == progress.batches || control_.cancelRequested() || sinceBatchSignal_.elapsed() >= kBatchSignalIntervalMs) {
        sinceBatchSignal_.restart();
        Q_EMIT batchProgress(runId_, progress);
    }
}

void RunWorker::roundDone(const dpu::RoundRecord& record)
{
    Q_EMIT roundFinished(runId_, record);
}

void RunWorker::runFinished(const dpu::RunSummary& summary)
{
    summarySent_ = true;
    Q_EMIT finished(runId_, summary);
}

void RunWorker::message(const std::string& text)
{
    Q_EMIT logMessage(runId_, QString::fromStdString(text));
}

void RunWorker::runPaused(bool paused)
{
    Q_EMIT pausedChanged(runId_, paused);
}

} // namespace dpu::ui
