// SPDX-License-Identifier: MIT
// RunPanel: shows where the running plan is; every update arrives as a queued signal.
#include "panels/RunPanel.h"
#include <QDateTime>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QVBoxLayout>

namespace dpu::ui {
namespace {
constexpr int kUnitSteps = 1000; // progress bar resolution inside one (seed, round, strategy) unit
}

RunPanel::RunPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    status_ = new QLabel(tr("Ready"), this);
    status_->setObjectName(QStringLiteral("runStatus"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("runProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("runLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000); // a long sweep must not grow the log without bound
    layout->addWidget(status_);
    layout->addWidget(progress_);
    layout->addWidget(log_, 1);
}

void RunPanel::log(const QString& line)
{
    log_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss  ")) + line);
}

void RunPanel::runQueued(int runId, const dpu::Plan& plan, int ahead)
{
    plans_.insert(runId, plan);
    log(ahead == 0 ? tr("Run %1 starts: %2").arg(runId).arg(QString::fromStdString(plan.name))
                   : tr("Run %1 queued: %2 (%3 ahead of it)").arg(runId).arg(QString::fromStdString(plan.name)).arg(ahead));
}

void RunPanel::runStarting(int runId)
{
    // Reading a big image folder takes a while before the first round: say so, and let Stop act.
    currentRun_ = runId;
    progress_->setRange(0, 0); // busy: how long the reading takes is not known
    status_->setText(tr("Run %1: reading the data…").arg(runId));
}

void RunPanel::runStarted(int runId, const dpu::RunInfo& info)
{
    currentRun_ = runId;
    totalUnits_ = std::max(1, info.rounds * static_cast<int>(info.strategies.size() * info.seeds.size()));
    doneUnits_ = info.resumedUnits;
    progress_->setRange(0, totalUnits_ * kUnitSteps);
    updateProgress(0);
    status_->setText(tr("Run %1: %2 on %3, %4 rounds").arg(runId).arg(QString::fromStdString(info.planName),
                                                                      QString::fromStdString(info.device))
                         .arg(info.rounds));
    log(tr("Run %1 started: %2 partial + %3 dense weights, %4 training samples")
            .arg(runId).arg(info.partialWeights).arg(info.denseWeights).arg(info.trainSamples));
}

void RunPanel::batchProgress(int runId, const dpu::BatchProgress& p)
{
    if (runId != currentRun_ || p.batches <= 0)
        return;
    const int epochs = std::max(1, plans_.value(runId).train.epochs);
    // Two-step strategies (full step, then fine-tune) count each step as half of the unit.
    const double inEpoch = (p.epoch - 1 + static_cast<double>(p.batch) / p.batches) / epochs;
    const double fraction = p.phase == dpu::Phase::FineTune ? 0.5 + 0.5 * inEpoch : 0.5 * inEpoch;
    updateProgress(fraction);
    status_->setText(tr("Run %1: %2, seed %3, round %4, %5 epoch %6, batch %7/%8")
                         .arg(runId).arg(QString::fromStdString(p.strategy)).arg(p.seed).arg(p.round)
                         .arg(QString::fromLatin1(dpu::phaseName(p.phase))).arg(p.epoch).arg(p.batch).arg(p.batches));
}

void RunPanel::roundDone(int runId, const dpu::RoundRecord& r)
{
    if (runId == currentRun_)
        ++doneUnits_;
    updateProgress(0);
    // The bytes really sent (the bundle); the analytic figure beside them, as the paper counts.
    const QString bytes = r.bundleBytes > 0 ? tr("%1 bytes sent (analytic %2)").arg(r.bundleBytes).arg(r.analyticBits / 8.0, 0, 'f', 0)
                                            : tr("%1 bytes (analytic)").arg(r.analyticBits / 8.0, 0, 'f', 0);
    log(tr("Run %1: %2 round %3 %4, test %5 %, %6")
            .arg(runId).arg(QString::fromStdString(r.strategy)).arg(r.round)
            .arg(r.deployed ? tr("deployed") : tr("not deployed"))
            .arg(100.0 * r.testAccuracy, 0, 'f', 2).arg(bytes));
}

void RunPanel::runFinished(int runId, const dpu::RunSummary& summary, int pending)
{
    const QString what = summary.cancelled ? tr("stopped, %1 finished rounds kept").arg(summary.records.size())
                                           : tr("finished, %1 rounds").arg(summary.records.size());
    status_->setText(tr("Run %1 %2").arg(runId).arg(what));
    log(tr("Run %1 %2%3").arg(runId).arg(what).arg(summary.outDir.empty() ? QString()
                                                                           : tr(" in %1").arg(QString::fromStdString(summary.outDir))));
    endBusy();
    if (!summary.cancelled)
        progress_->setValue(progress_->maximum());
    if (pending > 0)
        log(tr("%1 runs pending").arg(pending));
}

void RunPanel::runFailed(int runId, const QString& error, int pending)
{
    status_->setText(tr("Run %1 failed: %2").arg(runId).arg(error));
    log(tr("Run %1 failed: %2").arg(runId).arg(error));
    endBusy();
    Q_UNUSED(pending);
}

void RunPanel::endBusy()
{
    if (progress_->maximum() == 0) {
        progress_->setRange(0, 1);
        progress_->setValue(0);
    }
}

void RunPanel::setPaused(bool paused)
{
    if (paused)
        status_->setText(tr("Paused: %1").arg(status_->text()));
    log(paused ? tr("Paused") : tr("Resumed"));
}

QString RunPanel::statusText() const
{
    return status_->text();
}

QString RunPanel::logText() const
{
    return log_->toPlainText();
}

int RunPanel::progressValue() const
{
    return progress_->value();
}

void RunPanel::updateProgress(double unitFraction)
{
    const int value = static_cast<int>((doneUnits_ + std::min(1.0, unitFraction)) * kUnitSteps);
    progress_->setValue(std::min(value, progress_->maximum()));
}

} // namespace dpu::ui
