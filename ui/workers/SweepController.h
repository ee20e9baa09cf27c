// SPDX-License-Identifier: MIT
// The window's sweep: starts it (local worker thread or Slurm submission), watches its folder, reports cells, cancels.
#pragma once
#include "dpu/SweepStatus.h"
#include "workers/EngineMetatypes.h" // dpu::SweepFolderStatus in a signal
#include <QFileSystemWatcher>
#include <QObject>
#include <QSet>
#include <QString>
#include <QThread>
#include <QTimer>
#include <memory>

namespace dpu {
class SlurmCommands;
struct SweepSlurmSettings;
} // namespace dpu

namespace dpu::ui {

class LocalSweepWorker;
class SweepFolderWorker;

/// Lives on the GUI thread; one sweep folder shown at a time. The states come from core
/// (readSweepFolderStatus, as `dpu-cli sweep status`), read on a worker thread whenever the
/// folder changes (QFileSystemWatcher) and every few seconds (a Slurm node's writes over a
/// network filesystem raise no local change notification).
class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    /// Stops a local sweep this window runs (its cells keep their finished rounds) and waits for it.
    ~SweepController() override;

    /// dpu-cli, which runs each cell (default: beside this program, else on PATH).
    void setProgram(const QString& program) { program_ = program; }
    QString program() const { return program_; }
    /// The Slurm tools (default: the system's); call before the first sweep. Tests pass a fake.
    void setSlurmCommands(std::shared_ptr<dpu::SlurmCommands> slurm);
    /// Milliseconds between the periodic reads: 2000 for a local sweep, 10000 for a Slurm one
    /// (each asks squeue: the pace of `sweep run`'s default --poll). Tests set both at once.
    void setRefreshInterval(int ms)
    {
        localMs_ = slurmMs_ = ms;
        timer_.setInterval(ms);
    }

    /// Runs the sweep's cells on this computer, `jobs` at a time, in `dir` (created). False with
    /// *error when a sweep of this window still runs here or `dir` is taken by another sweep.
    bool startLocal(const dpu::Sweep& sweep, const QString& dir, int jobs, QString* error = nullptr);
    /// Submits the sweep to Slurm from `dir` (on a filesystem the nodes share); the result comes
    /// as message() or failed().
    bool startSlurm(const dpu::Sweep& sweep, const QString& dir, const dpu::SweepSlurmSettings& settings,
                    QString* error = nullptr);
    /// Shows a sweep folder (finished or running, from any backend). False with *error when it
    /// holds no readable sweep.json.
    bool open(const QString& dir, QString* error = nullptr);
    /// Runs the shown sweep again where it stopped (its done cells are kept), on the backend it
    /// ran on: Slurm with its sweep.json's settings, else this computer with `jobs` at a time.
    /// False with *error when nothing is left to run, it still runs, or its sweep.json is bad.
    bool resume(int jobs, QString* error = nullptr);
    /// The shown sweep is stopped with cells left to run: resume() would run them.
    bool canResume() const;
    /// Stops the shown sweep as `dpu-cli sweep cancel` does (a local sweep of this window through
    /// its run-control token).
    void cancel();
    /// A local sweep of this window is shown: it can be paused.
    bool canPause() const;
    /// Pauses or resumes the shown sweep when canPause() (its cells are stopped, not ended).
    void setPaused(bool paused);
    /// The engine has paused the shown sweep's cells.
    bool paused() const { return paused_; }

    QString dir() const { return dir_; }
    const dpu::SweepFolderStatus& status() const { return status_; }
    /// A local sweep of this window is running.
    bool runsHere() const { return local_ != nullptr; }

public Q_SLOTS:
    /// Reads the folder again (coalesced: one read at a time).
    void refresh();

Q_SIGNALS:
    void statusChanged(const dpu::SweepFolderStatus& status);
    /// A cell reached done (once per cell and shown folder): its run folder can be opened.
    void cellDone(const QString& runDir);
    void message(const QString& text);
    void failed(const QString& text);
    /// The shown sweep stopped running (every cell ended, or it was cancelled).
    void sweepEnded(const QString& dir);
    /// The shown local sweep was paused (its cells stopped) or resumed.
    void pausedChanged(bool paused);

private:
    void show(const QString& dir);
    void onStatus(const dpu::SweepFolderStatus& status);
    void watchCells(const dpu::SweepFolderStatus& status);
    void stopLocal();

    QString program_;
    QString dir_;
    dpu::SweepFolderStatus status_;
    QSet<QString> announced_;
    int localMs_ = 2000;
    int slurmMs_ = 10000;
    bool wasActive_ = false;
    bool paused_ = false;
    bool endPending_ = false;
    bool readable_ = false; // read once, or opened with a sweep.json
    bool reading_ = false;
    bool readAgain_ = false;
    QFileSystemWatcher watcher_;
    QTimer timer_;
    QTimer soon_; // coalesces a burst of file changes into one read
    QThread folderThread_;
    SweepFolderWorker* folder_ = nullptr;
    QThread localThread_;
    LocalSweepWorker* local_ = nullptr;
};

} // namespace dpu::ui
