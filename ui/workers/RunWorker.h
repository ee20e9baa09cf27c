// SPDX-License-Identifier: MIT
// One run of the engine on a worker thread: turns RunObserver callbacks into queued Qt signals.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "workers/EngineMetatypes.h"
#include "dpu/Runner.h"
#include <QElapsedTimer>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QWaitCondition>
#include <atomic>
#include <memory>

namespace dpu::ui {

/// Owns one dpu::Runner. Create it on the GUI thread, move it to a QThread and invoke start()
/// there; every signal is then delivered queued to receivers on the GUI thread. cancel(),
/// setPaused() are thread-safe and never block the caller.
class RunWorker : public QObject, public dpu::RunObserver {
    Q_OBJECT
public:
    RunWorker(int runId, dpu::Plan plan, QString outDir, QObject* parent = nullptr);
    ~RunWorker() override;

    int runId() const { return runId_; }
    const dpu::Plan& plan() const { return plan_; }

    /// Stops the run before its next batch (also releases a paused run).
    void cancel();
    /// Pausing blocks the worker thread at its next batch boundary until resumed or cancelled.
    void setPaused(bool paused);
    bool isPaused() const;

public Q_SLOTS:
    /// Runs the plan to the end on the calling (worker) thread; emits finished() or failed().
    void start();

Q_SIGNALS:
    void started(int runId, const dpu::RunInfo& info);
    void roundBegan(int runId, const dpu::RoundStart& start);
    void epochFinished(int runId, const dpu::EpochEvent& epoch);
    void batchProgress(int runId, const dpu::BatchProgress& progress);
    void roundFinished(int runId, const dpu::RoundRecord& record);
    void logMessage(int runId, const QString& text);
    void pausedChanged(int runId, bool paused);
    void finished(int runId, const dpu::RunSummary& summary);
    void failed(int runId, const QString& error);

private:
    // dpu::RunObserver, called on the worker thread by Runner::run().
    void runStarted(const dpu::RunInfo& info) override;
    void roundStarted(const dpu::RoundStart& start) override;
    void epochDone(const dpu::EpochEvent& epoch) override;
    void batchDone(const dpu::BatchProgress& progress) override;
    void roundDone(const dpu::RoundRecord& record) override;
    void runFinished(const dpu::RunSummary& summary) override;
    void message(const std::string& text) override;
    bool shouldCancel() override;

    const int runId_;
    const dpu::Plan plan_;
    const QString outDir_;
    // Built on the constructing thread so that cancel() can reach it at any time.
    std::unique_ptr<dpu::Runner> runner_;
    std::atomic<bool> cancelled_{false};
    mutable QMutex mutex_;
    QWaitCondition resumed_;
    bool paused_ = false;
    QElapsedTimer sinceBatchSignal_;
    bool summarySent_ = false;
};

} // namespace dpu::ui
