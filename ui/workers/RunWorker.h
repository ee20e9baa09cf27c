// SPDX-License-Identifier: MIT
// One run of the engine on a worker thread: turns RunObserver callbacks into queued Qt signals.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "workers/EngineMetatypes.h"
#include "dpu/RunControl.h"
#include "dpu/Runner.h"
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <memory>

namespace dpu::ui {

/// Owns one dpu::Runner. Create it on the GUI thread, move it to a QThread and invoke start()
/// there; every signal is then delivered queued to receivers on the GUI thread. cancel(),
/// setPaused() only set the run's dpu::RunControl token: thread-safe, never blocking; the engine
/// holds or stops at its next batch boundary and pausedChanged() follows from there.
class RunWorker : public QObject, public dpu::RunObserver {
    Q_OBJECT
public:
    RunWorker(int runId, dpu::Plan plan, QString outDir, QObject* parent = nullptr);
    ~RunWorker() override;

    int runId() const { return runId_; }
    const dpu::Plan& plan() const { return plan_; }

    /// Stops the run before its next batch (also releases a paused run).
    void cancel();
    /// Asks the engine to hold at its next batch boundary (true) or go on (false).
    void setPaused(bool paused);
    /// Whether a pause is asked for (the engine may still be finishing its batch).
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
    void runPaused(bool paused) override;

    const int runId_;
    const dpu::Plan plan_;
    const QString outDir_;
    dpu::RunControl control_; // set from the GUI thread, read by the engine on the worker thread
    std::unique_ptr<dpu::Runner> runner_;
    QElapsedTimer sinceBatchSignal_;
    bool summarySent_ = false;
};

} // namespace dpu::ui
