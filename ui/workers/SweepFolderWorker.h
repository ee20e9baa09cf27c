// SPDX-License-Identifier: MIT
// Reads sweep folders (cell states, Slurm's queue), submits Slurm sweeps and cancels sweeps, off the GUI thread.
#pragma once
#include "dpu/SlurmSweep.h"
#include "dpu/SweepStatus.h"
#include "workers/EngineMetatypes.h"
#include <QObject>
#include <QString>
#include <memory>

namespace dpu::ui {

/// Lives on a QThread; every slot blocks that thread only (squeue, sbatch and scancel may take
/// seconds on a busy controller), so the Slurm commands are never used from two threads.
class SweepFolderWorker : public QObject {
    Q_OBJECT
public:
    /// `slurm`: the Slurm tools to use (shared, used on this worker's thread only).
    explicit SweepFolderWorker(std::shared_ptr<dpu::SlurmCommands> slurm, QObject* parent = nullptr);

    /// Replaces the Slurm tools; call on this worker's thread (a queued invocation).
    void setSlurmCommands(std::shared_ptr<dpu::SlurmCommands> slurm) { slurm_ = std::move(slurm); }

public Q_SLOTS:
    /// Emits statusRead() or readFailed().
    void read(const QString& dir);
    /// Submits the unfinished cells (core's submitSlurmSweep); emits submitted() or failed().
    void submit(const dpu::Sweep& sweep, const dpu::SlurmSweepOptions& options);
    /// Stops the sweep as `dpu-cli sweep cancel` does; emits cancelled() or failed().
    void cancel(const QString& dir);

Q_SIGNALS:
    void statusRead(const dpu::SweepFolderStatus& status);
    void readFailed(const QString& dir, const QString& error);
    void submitted(const QString& dir, const QString& text);
    void cancelled(const QString& dir, const QString& text);
    void failed(const QString& dir, const QString& error);

private:
    std::shared_ptr<dpu::SlurmCommands> slurm_;
};

} // namespace dpu::ui
