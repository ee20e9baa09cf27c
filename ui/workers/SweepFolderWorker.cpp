// SPDX-License-Identifier: MIT
// SweepFolderWorker: the core's sweep-folder calls, one at a time on a worker thread.
#include "workers/SweepFolderWorker.h"
#include "dpu/InternalCheck.h"
#include <exception>

namespace dpu::ui {

SweepFolderWorker::SweepFolderWorker(std::shared_ptr<dpu::SlurmCommands> slurm, QObject* parent)
    : QObject(parent), slurm_(std::move(slurm))
{
}

void SweepFolderWorker::read(const QString& dir)
{
    try {
        Q_EMIT statusRead(dpu::readSweepFolderStatus(dir.toStdString(), slurm_.get()));
    } catch (const std::exception& e) {
        Q_EMIT readFailed(dir, QString::fromStdString(dpu::failureText(e)));
    }
}

void SweepFolderWorker::submit(const dpu::Sweep& sweep, const dpu::SlurmSweepOptions& options)
{
    const QString dir = QString::fromStdString(options.outDir);
    try {
        const dpu::SlurmSubmitSummary s = dpu::submitSlurmSweep(sweep, options, *slurm_);
        QString text = tr("%1 cells, %2 done, %3 still in Slurm, %4 submitted")
                           .arg(s.cells).arg(s.done).arg(s.live).arg(s.submitted);
        for (const std::string& job : s.jobIds)
            text += tr(" · job array %1").arg(QString::fromStdString(job));
        Q_EMIT submitted(dir, text);
    } catch (const std::exception& e) {
        Q_EMIT failed(dir, QString::fromStdString(dpu::failureText(e)));
    }
}

void SweepFolderWorker::cancel(const QString& dir)
{
    try {
        Q_EMIT cancelled(dir, QString::fromStdString(dpu::cancelSweepFolder(dir.toStdString(), slurm_.get())));
    } catch (const std::exception& e) {
        Q_EMIT failed(dir, QString::fromStdString(dpu::failureText(e)));
    }
}

} // namespace dpu::ui
