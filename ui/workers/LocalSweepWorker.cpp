// SPDX-License-Identifier: MIT
// LocalSweepWorker: runLocalSweep on its own thread, cancelled through the run-control token.
#include "workers/LocalSweepWorker.h"
#include "dpu/InternalCheck.h"
#include <exception>

namespace dpu::ui {

LocalSweepWorker::LocalSweepWorker(dpu::Sweep sweep, dpu::LocalSweepOptions options, QObject* parent)
    : QObject(parent), sweep_(std::move(sweep)), options_(std::move(options))
{
    options_.control = &control_;
}

void LocalSweepWorker::start()
{
    try {
        const dpu::LocalSweepSummary s = dpu::runLocalSweep(sweep_, options_, *this);
        Q_EMIT finished(static_cast<int>(s.ran), static_cast<int>(s.failed), s.stopped);
    } catch (const std::exception& e) {
        Q_EMIT failed(QString::fromStdString(dpu::failureText(e)));
    }
}

void LocalSweepWorker::sweepStarted(size_t cells, size_t done, int jobs, int threadsPerCell, int)
{
    Q_EMIT started(static_cast<int>(cells), static_cast<int>(done), jobs, threadsPerCell);
}

void LocalSweepWorker::cellStarted(const dpu::SweepCell& cell)
{
    Q_EMIT cellBegan(QString::fromStdString(cell.id));
}

void LocalSweepWorker::cellEnded(const dpu::SweepCell& cell, dpu::CellState state, int exitCode, double)
{
    Q_EMIT cellFinished(QString::fromStdString(cell.id), QString::fromLatin1(dpu::cellStateName(state)), exitCode);
}

} // namespace dpu::ui
