// SPDX-License-Identifier: MIT
// Run status: progress of the current run, queue length, and a log of events and errors.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include <QHash>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;

namespace dpu::ui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);

    /// `ahead`: the runs before it (the one running and those queued earlier).
    void runQueued(int runId, const dpu::Plan& plan, int ahead);
    /// Its worker began reading the data: a busy bar until runStarted.
    void runStarting(int runId);
    void runStarted(int runId, const dpu::RunInfo& info);
    void batchProgress(int runId, const dpu::BatchProgress& progress);
    void roundDone(int runId, const dpu::RoundRecord& record);
    void runFinished(int runId, const dpu::RunSummary& summary, int pending);
    void runFailed(int runId, const QString& error, int pending);
    void setPaused(bool paused);
    void log(const QString& line);

    QString statusText() const;
    QString logText() const;
    int progressValue() const;

private:
    void updateProgress(double unitFraction);
    /// A run that ends before runStarted leaves no busy bar behind.
    void endBusy();

    QLabel* status_;
    QProgressBar* progress_;
    QPlainTextEdit* log_;
    QHash<int, dpu::Plan> plans_;
    int currentRun_ = 0;
    int totalUnits_ = 0;
    int doneUnits_ = 0;
};

} // namespace dpu::ui
