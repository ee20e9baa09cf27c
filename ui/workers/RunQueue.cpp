// SPDX-License-Identifier: MIT
// RunQueue: one worker thread, one RunWorker per queued plan, run strictly one after another.
#include "workers/RunQueue.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunWorker.h"
#include <QDateTime>
#include <QDir>
#include <QRegularExpression>

namespace dpu::ui {

RunQueue::RunQueue(QObject* parent) : QObject(parent)
{
    registerEngineMetatypes();
    thread_.setObjectName(QStringLiteral("dpu-run"));
    thread_.start();
}

RunQueue::~RunQueue()
{
    pending_.clear();
    if (current_)
        current_->cancel(); // stops within one batch; the finished rounds are already on disk
    thread_.quit();
    thread_.wait();
    delete current_; // its thread is gone: deleting here is safe
}

int RunQueue::enqueue(const dpu::Plan& plan)
{
    const int id = nextId_++;
    pending_.enqueue({id, plan});
    Q_EMIT runQueued(id, plan);
    if (!current_)
        startNext();
    return id;
}

bool RunQueue::isPaused() const
{
    return current_ && current_->isPaused();
}

int RunQueue::currentRunId() const
{
    return current_ ? current_->runId() : 0;
}

void RunQueue::pause()
{
    if (current_)
        current_->setPaused(true);
}

void RunQueue::resume()
{
    if (current_)
        current_->setPaused(false);
}

void RunQueue::stop()
{
    pending_.clear();
    if (current_)
        current_->cancel();
}

QString RunQueue::outDirFor(int runId, const dpu::Plan& plan) const
{
    if (outputRoot_.isEmpty())
        return {};
    QString name = QString::fromStdString(plan.name);
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    return QDir(outputRoot_).filePath(QStringLiteral("%1-%2-%3").arg(stamp, name).arg(runId));
}

void RunQueue::startNext()
{
    if (pending_.isEmpty()) {
        Q_EMIT busyChanged(false);
        Q_EMIT idle();
        return;
    }
    const bool wasIdle = current_ == nullptr;
    Pending next = pending_.dequeue();
    auto* worker = new RunWorker(next.id, next.plan, outDirFor(next.id, next.plan));
    worker->moveToThread(&thread_);
    current_ = worker;
    // The worker lives on thread_, the queue on the GUI thread: these connections are queued.
    connect(worker, &RunWorker::started, this, &RunQueue::runStarted);
    connect(worker, &RunWorker::roundBegan, this, &RunQueue::roundStarted);
    connect(worker, &RunWorker::epochFinished, this, &RunQueue::epochDone);
    connect(worker, &RunWorker::batchProgress, this, &RunQueue::batchProgress);
    connect(worker, &RunWorker::roundFinished, this, &RunQueue::roundDone);
    connect(worker, &RunWorker::logMessage, this, &RunQueue::message);
    connect(worker, &RunWorker::pausedChanged, this, [this](int, bool paused) { Q_EMIT pausedChanged(paused); });
    connect(worker, &RunWorker::finished, this, [this](int id, const dpu::RunSummary& summary) {
        Q_EMIT runFinished(id, summary);
        onWorkerDone(id);
    });
    connect(worker, &RunWorker::failed, this, [this](int id, const QString& error) {
        Q_EMIT runFailed(id, error);
        onWorkerDone(id);
    });
    if (wasIdle)
        Q_EMIT busyChanged(true);
    Q_EMIT runStarting(next.id);
    QMetaObject::invokeMethod(worker, &RunWorker::start, Qt::QueuedConnection);
}

void RunQueue::onWorkerDone(int runId)
{
    if (!current_ || current_->runId() != runId)
        return;
    const bool wasPaused = current_->isPaused();
    current_->deleteLater(); // deleted on the worker thread, after start() has returned
    current_ = nullptr;
    if (wasPaused)
        Q_EMIT pausedChanged(false);
    if (pending_.isEmpty()) {
        Q_EMIT busyChanged(false);
        Q_EMIT idle();
    } else {
        startNext();
    }
}

} // namespace dpu::ui
