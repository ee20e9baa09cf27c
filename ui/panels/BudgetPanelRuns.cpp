// SPDX-License-Identifier: MIT
// BudgetPanel's runs: the frontier follows the run book (or a test's events) as runs come, end and go.
#include "panels/BudgetPanel.h"
#include "models/RunBook.h"

namespace dpu::ui {

void BudgetPanel::setRunBook(const RunBook* book)
{
    if (book_)
        disconnect(book_, nullptr, this, nullptr);
    book_ = book;
    frontier_.clear();
    runNames_.clear();
    if (book_) {
        connect(book_, &RunBook::runAdded, this, &BudgetPanel::takeRunFromBook);
        connect(book_, &RunBook::recordAdded, this, &BudgetPanel::roundDone);
        connect(book_, &RunBook::runEnded, this, [this](int id) {
            if (const BookRun* run = book_->find(id))
                runEnded(id, run->finished());
        });
        connect(book_, &RunBook::runRemoved, this, &BudgetPanel::removeRun);
        connect(book_, &RunBook::cleared, this, &BudgetPanel::clearRuns);
        for (const BookRun& run : book_->runs())
            takeRunFromBook(run.id);
    }
    refresh();
    Q_EMIT frontierChanged();
}

void BudgetPanel::takeRunFromBook(int runId)
{
    const BookRun* run = book_->find(runId);
    if (!run)
        return;
    if (!run->live)
        setRunName(runId, run->label); // a queued run is "run N"
    if (run->over())
        addRun(runId, run->plan, run->records, run->finished());
    else
        frontier_.runQueued(runId, run->plan); // its rounds and its end follow
}

void BudgetPanel::removeRun(int runId)
{
    frontier_.removeRun(runId);
    refresh();
    Q_EMIT frontierChanged();
}

void BudgetPanel::clearRuns()
{
    frontier_.clear();
    refresh();
    Q_EMIT frontierChanged();
}

void BudgetPanel::runQueued(int runId, const dpu::Plan& plan)
{
    frontier_.runQueued(runId, plan);
}

void BudgetPanel::roundDone(int runId, const dpu::RoundRecord& record)
{
    frontier_.addRecord(runId, record);
}

void BudgetPanel::runEnded(int runId, bool finished)
{
    frontier_.runEnded(runId, finished);
    refresh();
    Q_EMIT frontierChanged();
}

} // namespace dpu::ui
