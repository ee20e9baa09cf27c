// SPDX-License-Identifier: MIT
// One local sweep (core's runLocalSweep) on a worker thread; its cell events leave as queued signals.
#pragma once
#include "dpu/LocalSweep.h"
#include "dpu/RunControl.h"
#include <QObject>
#include <QString>

namespace dpu::ui {

/// Create on the GUI thread, move to a QThread and invoke start() there. cancel() only sets the
/// sweep's dpu::RunControl token (thread-safe): the running cells get SIGTERM, keep their
/// finished rounds and count as cancelled; no new cell starts.
class LocalSweepWorker : public QObject, public dpu::LocalSweepObserver {
    Q_OBJECT
public:
    LocalSweepWorker(dpu::Sweep sweep, dpu::LocalSweepOptions options, QObject* parent = nullptr);

    QString outDir() const { return QString::fromStdString(options_.outDir); }
    void cancel() { control_.requestCancel(); }
    /// Pauses (true: the running cells are stopped with SIGSTOP and no new cell starts) or
    /// resumes the sweep at its next check; thread-safe, only sets the token.
    void setPaused(bool paused) { control_.setPaused(paused); }
    bool isPaused() const { return control_.paused(); }

public Q_SLOTS:
    /// Runs every unfinished cell (blocking this thread); emits finished() or failed().
    void start();

Q_SIGNALS:
    void started(int cells, int done, int jobs, int threadsPerCell);
    void cellBegan(const QString& id);
    void cellFinished(const QString& id, const QString& state, int exitCode);
    /// ran: processes ended in this call; failed: of those, neither done nor stopped.
    void finished(int ran, int failed, bool stopped);
    /// The sweep's cells were stopped (true) or continued (false) for a pause.
    void pausedChanged(bool paused);
    void failed(const QString& error);

private:
    void sweepStarted(size_t cells, size_t done, int jobs, int threadsPerCell, int cores) override;
    void cellStarted(const dpu::SweepCell& cell) override;
    void cellEnded(const dpu::SweepCell& cell, dpu::CellState state, int exitCode, double seconds) override;
    void sweepPaused(bool paused) override { Q_EMIT pausedChanged(paused); }

    const dpu::Sweep sweep_;
    dpu::LocalSweepOptions options_;
    dpu::RunControl control_;
};

} // namespace dpu::ui
