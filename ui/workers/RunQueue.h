// SPDX-License-Identifier: MIT
// Queues runs and executes them one at a time on a single worker QThread.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "workers/EngineMetatypes.h"
#include <QObject>
#include <QPointer>
#include <QQueue>
#include <QString>
#include <QThread>

namespace dpu::ui {

class RunWorker;

/// Lives on the GUI thread. enqueue() adds a plan; the queue starts a RunWorker for it on its
/// worker thread when the previous run is over, and re-emits the worker's events (already
/// queued onto the GUI thread). Nothing here waits on a run except the destructor.
class RunQueue : public QObject {
    Q_OBJECT
public:
    explicit RunQueue(QObject* parent = nullptr);
    ~RunQueue() override;

    /// Folder under which each run writes results and checkpoints (empty: runs write nothing).
    void setOutputRoot(const QString& folder) { outputRoot_ = folder; }
    QString outputRoot() const { return outputRoot_; }

    /// Adds a run; returns its id (1, 2, ...). Starts it at once when the queue is idle.
    int enqueue(const dpu::Plan& plan);
    bool isBusy() const { return current_ != nullptr; }
    bool isPaused() const;
    int pendingCount() const { return pending_.size(); }
    int currentRunId() const;

public Q_SLOTS:
    void pause();
    void resume();
    /// Cancels the current run (it keeps its finished rounds) and drops the pending ones.
    void stop();

Q_SIGNALS:
    void runQueued(int runId, const dpu::Plan& plan);
    /// The run's worker begins: it reads the data and builds the model, then runStarted follows.
    void runStarting(int runId);
    void runStarted(int runId, const dpu::RunInfo& info);
    void roundStarted(int runId, const dpu::RoundStart& start);
    void epochDone(int runId, const dpu::EpochEvent& epoch);
    void batchProgress(int runId, const dpu::BatchProgress& progress);
    void roundDone(int runId, const dpu::RoundRecord& record);
    void message(int runId, const QString& text);
    void pausedChanged(bool paused);
    void runFinished(int runId, const dpu::RunSummary& summary);
    void runFailed(int runId, const QString& error);
    /// The last queued run is over (finished, stopped or failed) and nothing is pending.
    void idle();
    void busyChanged(bool busy);

private:
    struct Pending {
        int id;
        dpu::Plan plan;
    };
    void startNext();
    void onWorkerDone(int runId);
    QString outDirFor(int runId, const dpu::Plan& plan) const;

    QThread thread_;
    QQueue<Pending> pending_;
    RunWorker* current_ = nullptr;
    int nextId_ = 1;
    QString outputRoot_;
};

} // namespace dpu::ui
