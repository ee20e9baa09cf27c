// SPDX-License-Identifier: MIT
// SweepController: one sweep folder on screen, its run (local thread or Slurm), its watch and its cancel.
#include "workers/SweepController.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/LocalSweep.h"
#include "dpu/SlurmSweep.h"
#include "workers/LocalSweepWorker.h"
#include "workers/SweepFolderWorker.h"
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

namespace dpu::ui {
namespace {

QString findCli()
{
    // Installed side by side in /usr/bin; in the build tree the GUI is app/gui, the CLI app/cli.
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {here.filePath(QStringLiteral("dpu-cli")), here.filePath(QStringLiteral("../cli/dpu-cli"))})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("dpu-cli"));
}

} // namespace

SweepController::SweepController(QObject* parent) : QObject(parent), program_(findCli())
{
    registerEngineMetatypes();
    folderThread_.setObjectName(QStringLiteral("dpu-sweep-folder"));
    folder_ = new SweepFolderWorker(std::shared_ptr<dpu::SlurmCommands>(dpu::systemSlurmCommands()));
    folder_->moveToThread(&folderThread_);
    connect(&folderThread_, &QThread::finished, folder_, &QObject::deleteLater);
    connect(folder_, &SweepFolderWorker::statusRead, this, &SweepController::onStatus);
    connect(folder_, &SweepFolderWorker::readFailed, this, [this](const QString& dir, const QString& error) {
        reading_ = false;
        // A sweep just started writes its sweep.json a moment later (the watcher reads again
        // then); only a folder that was readable before is worth a message.
        if (dir == dir_ && readable_)
            Q_EMIT failed(error);
        if (readAgain_) {
            readAgain_ = false;
            refresh();
        }
    });
    connect(folder_, &SweepFolderWorker::submitted, this, [this](const QString& dir, const QString& text) {
        Q_EMIT message(tr("Sweep %1 sent to Slurm: %2").arg(QDir::toNativeSeparators(dir), text));
        refresh();
    });
    connect(folder_, &SweepFolderWorker::cancelled, this, [this](const QString& dir, const QString& text) {
        Q_EMIT message(text.isEmpty() ? tr("Sweep %1: nothing is running; nothing to cancel").arg(QDir::toNativeSeparators(dir))
                                      : tr("Sweep %1 cancelled: %2").arg(QDir::toNativeSeparators(dir), text));
        refresh();
    });
    connect(folder_, &SweepFolderWorker::failed, this, [this](const QString& dir, const QString& error) {
        Q_EMIT failed(tr("Sweep %1: %2").arg(QDir::toNativeSeparators(dir), error));
        refresh();
    });
    folderThread_.start();
    localThread_.setObjectName(QStringLiteral("dpu-sweep-local"));
    localThread_.start();

    timer_.setInterval(localMs_);
    connect(&timer_, &QTimer::timeout, this, &SweepController::refresh);
    soon_.setSingleShot(true);
    soon_.setInterval(150);
    connect(&soon_, &QTimer::timeout, this, &SweepController::refresh);
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, &soon_, qOverload<>(&QTimer::start));
    connect(&watcher_, &QFileSystemWatcher::fileChanged, &soon_, qOverload<>(&QTimer::start));
}

SweepController::~SweepController()
{
    stopLocal();
    localThread_.quit();
    localThread_.wait();
    delete local_;
    folderThread_.quit();
    folderThread_.wait();
}

void SweepController::setSlurmCommands(std::shared_ptr<dpu::SlurmCommands> slurm)
{
    SweepFolderWorker* worker = folder_;
    QMetaObject::invokeMethod(folder_, [worker, slurm] { worker->setSlurmCommands(slurm); }, Qt::QueuedConnection);
}

void SweepController::stopLocal()
{
    if (local_)
        local_->cancel(); // the running cells get SIGTERM and keep their finished rounds
}

bool SweepController::startLocal(const dpu::Sweep& sweep, const QString& dir, int jobs, QString* error)
{
    if (local_) {
        if (error)
            *error = tr("a sweep of this window is still running in %1").arg(QDir::toNativeSeparators(local_->outDir()));
        return false;
    }
    if (program_.isEmpty()) {
        if (error)
            *error = tr("dpu-cli, which runs each cell, was found neither beside this program nor on PATH");
        return false;
    }
    dpu::LocalSweepOptions options;
    options.outDir = QDir(dir).absolutePath().toStdString();
    options.jobs = std::max(1, jobs);
    options.program = program_.toStdString();
    local_ = new LocalSweepWorker(sweep, options);
    local_->moveToThread(&localThread_);
    const QString shown = QString::fromStdString(options.outDir);
    connect(local_, &LocalSweepWorker::started, this, [this, shown](int cells, int done, int j, int threads) {
        Q_EMIT message(tr("Sweep %1: %2 cells, %3 done, %4 at a time with %5 thread(s) each")
                           .arg(QDir::toNativeSeparators(shown)).arg(cells).arg(done).arg(j).arg(threads));
    });
    connect(local_, &LocalSweepWorker::cellBegan, &soon_, qOverload<>(&QTimer::start));
    connect(local_, &LocalSweepWorker::cellFinished, this, [this](const QString& id, const QString& state, int code) {
        if (state == QLatin1String("failed"))
            Q_EMIT message(tr("Sweep cell %1 failed (exit %2): see its cell.log").arg(id).arg(code));
        soon_.start();
    });
    connect(local_, &LocalSweepWorker::pausedChanged, this, [this, shown](bool paused) {
        paused_ = paused;
        Q_EMIT message(paused ? tr("Sweep %1 paused: its running cells are stopped until you resume").arg(QDir::toNativeSeparators(shown))
                              : tr("Sweep %1 resumed").arg(QDir::toNativeSeparators(shown)));
        Q_EMIT pausedChanged(paused);
    });
    auto ended = [this] {
        local_->deleteLater(); // on the worker thread, after start() returned
        local_ = nullptr;
        if (paused_) {
            paused_ = false;
            Q_EMIT pausedChanged(false);
        }
        endPending_ = true; // announced by the first read that sees the sweep's record closed
        refresh();
    };
    connect(local_, &LocalSweepWorker::finished, this, [this, shown, ended](int ran, int failedCells, bool stopped) {
        Q_EMIT message(stopped ? tr("Sweep %1 stopped: Resume sweep (Sweeps tab) runs the cells left").arg(QDir::toNativeSeparators(shown))
                               : tr("Sweep %1 ended: %2 cell(s) ran, %3 failed").arg(QDir::toNativeSeparators(shown)).arg(ran).arg(failedCells));
        ended();
    });
    connect(local_, &LocalSweepWorker::failed, this, [this, ended](const QString& text) {
        Q_EMIT failed(text);
        ended();
    });
    QMetaObject::invokeMethod(local_, &LocalSweepWorker::start, Qt::QueuedConnection);
    show(shown);
    return true;
}

bool SweepController::startSlurm(const dpu::Sweep& sweep, const QString& dir, const dpu::SweepSlurmSettings& settings,
                                 QString* error)
{
    if (program_.isEmpty()) {
        if (error)
            *error = tr("dpu-cli, which runs each cell, was found neither beside this program nor on PATH");
        return false;
    }
    dpu::SlurmSweepOptions options;
    options.outDir = QDir(dir).absolutePath().toStdString();
    options.program = program_.toStdString();
    options.settings = settings;
    SweepFolderWorker* worker = folder_;
    QMetaObject::invokeMethod(folder_, [worker, sweep, options] { worker->submit(sweep, options); }, Qt::QueuedConnection);
    show(QString::fromStdString(options.outDir));
    return true;
}

bool SweepController::canResume() const
{
    if (dir_.isEmpty() || runsHere() || status_.active || status_.cells.empty())
        return false;
    return status_.count(dpu::CellView::Done) < status_.cells.size();
}

bool SweepController::resume(int jobs, QString* error)
{
    if (!canResume()) {
        if (error)
            *error = tr("nothing to resume: the sweep runs, or every cell is done");
        return false;
    }
    dpu::Sweep sweep;
    try {
        sweep = dpu::loadSweepFile(QDir(dir_).filePath(QStringLiteral("sweep.json")).toStdString());
    } catch (const std::exception& e) { // dpu::Error names the file; a defect must not escape the slot
        if (error)
            *error = QString::fromStdString(dpu::failureText(e));
        return false;
    }
    if (status_.backend == dpu::SweepBackend::Slurm)
        return startSlurm(sweep, dir_, sweep.slurm, error);
    return startLocal(sweep, dir_, jobs, error);
}

bool SweepController::open(const QString& dir, QString* error)
{
    const QString abs = QDir(dir).absolutePath();
    if (!QFileInfo(QDir(abs).filePath(QStringLiteral("sweep.json"))).isFile()) {
        if (error)
            *error = tr("%1: not a sweep folder (expected sweep.json in it)").arg(QDir::toNativeSeparators(abs));
        return false;
    }
    show(abs);
    readable_ = true; // it has a sweep.json: a read that fails is news
    return true;
}

void SweepController::show(const QString& dir)
{
    if (dir != dir_) {
        if (!watcher_.directories().isEmpty())
            watcher_.removePaths(watcher_.directories());
        if (!watcher_.files().isEmpty())
            watcher_.removePaths(watcher_.files());
        announced_.clear();
        status_ = {};
        wasActive_ = false;
        endPending_ = false;
        readable_ = false;
        dir_ = dir;
    }
    QDir().mkpath(dir_);
    watcher_.addPath(dir_);
    timer_.start();
    refresh();
}

void SweepController::cancel()
{
    if (dir_.isEmpty())
        return;
    if (local_ && QDir(local_->outDir()) == QDir(dir_)) {
        stopLocal();
        Q_EMIT message(tr("Stopping sweep %1: its cells keep their finished rounds").arg(QDir::toNativeSeparators(dir_)));
        return;
    }
    SweepFolderWorker* worker = folder_;
    const QString dir = dir_;
    QMetaObject::invokeMethod(folder_, [worker, dir] { worker->cancel(dir); }, Qt::QueuedConnection);
}

bool SweepController::canPause() const
{
    return local_ && !dir_.isEmpty() && QDir(local_->outDir()) == QDir(dir_);
}

void SweepController::setPaused(bool paused)
{
    if (canPause())
        local_->setPaused(paused);
}

void SweepController::refresh()
{
    if (dir_.isEmpty())
        return;
    if (reading_) {
        readAgain_ = true;
        return;
    }
    reading_ = true;
    SweepFolderWorker* worker = folder_;
    const QString dir = dir_;
    QMetaObject::invokeMethod(folder_, [worker, dir] { worker->read(dir); }, Qt::QueuedConnection);
}

void SweepController::onStatus(const dpu::SweepFolderStatus& status)
{
    reading_ = false;
    if (QString::fromStdString(status.dir) == dir_) {
        status_ = status;
        readable_ = true;
        const int interval = status.backend == dpu::SweepBackend::Slurm ? slurmMs_ : localMs_;
        if (timer_.interval() != interval)
            timer_.setInterval(interval);
        watchCells(status);
        Q_EMIT statusChanged(status_);
        for (const dpu::SweepCellStatus& c : status.cells) {
            const QString id = QString::fromStdString(c.id);
            if (c.state == dpu::CellState::Done && !announced_.contains(id)) {
                announced_.insert(id);
                Q_EMIT cellDone(QString::fromStdString(c.runDir));
            }
        }
        // A sweep ends when nothing is queued or running any more (a local one of this window
        // once its worker returned: its backend.json then holds no process).
        if (!local_ && (wasActive_ || endPending_) && !status.active) {
            endPending_ = false;
            Q_EMIT sweepEnded(dir_);
        }
        wasActive_ = status.active;
    }
    if (readAgain_) {
        readAgain_ = false;
        refresh();
    }
}

void SweepController::watchCells(const dpu::SweepFolderStatus& status)
{
    // Every cell folder that exists: a cell's run.json, exit.json and results.jsonl appear there.
    QStringList add;
    const QString cells = QDir(dir_).filePath(QStringLiteral("cells"));
    if (QFileInfo(cells).isDir())
        add << cells;
    for (const dpu::SweepCellStatus& c : status.cells) {
        const QString d = QString::fromStdString(c.runDir);
        if (QFileInfo(d).isDir())
            add << d;
    }
    const QStringList watched = watcher_.directories();
    QStringList fresh;
    for (const QString& d : add)
        if (!watched.contains(d))
            fresh << d;
    if (!fresh.isEmpty())
        watcher_.addPaths(fresh);
}

} // namespace dpu::ui
