// SPDX-License-Identifier: MIT
// FleetPlanReplan: a debounced request to plan again when the finished runs on screen differ from the last search's.
#include "panels/FleetPlanReplan.h"
#include "models/RunBook.h"
#include <QTimer>
#include <utility>

namespace dpu::ui {

FleetPlanReplan::FleetPlanReplan(std::function<std::vector<std::string>()> dirsOnScreen, QObject* parent)
    : QObject(parent), dirsOnScreen_(std::move(dirsOnScreen)), timer_(new QTimer(this))
{
    // Runs open, finish and close in bursts (a folder of runs, a sweep's cells): one search.
    timer_->setSingleShot(true);
    timer_->setInterval(500);
    connect(timer_, &QTimer::timeout, this, &FleetPlanReplan::due);
}

std::vector<std::string> FleetPlanReplan::dirsOf(const std::vector<dpu::RunFolder>& runs)
{
    std::vector<std::string> out;
    for (const dpu::RunFolder& run : runs)
        out.push_back(run.dir);
    return out;
}

std::vector<std::string> FleetPlanReplan::dirsOf(const RunBook* book)
{
    std::vector<std::string> out;
    if (book)
        for (const BookRun& run : book->runs())
            if (run.versionsFinal())
                out.push_back(run.dir.toStdString());
    return out;
}

void FleetPlanReplan::setDelay(int ms)
{
    timer_->setInterval(ms);
}

void FleetPlanReplan::started(const std::vector<std::string>& dirs, const QString& why)
{
    dirs_ = dirs;
    follows_ = true;
    runningWhy_ = why;
    pendingWhy_.clear();
    pendingForced_ = false;
    timer_->stop();
}

void FleetPlanReplan::stop()
{
    follows_ = false;
    pendingForced_ = false;
    timer_->stop();
}

bool FleetPlanReplan::changed(const QString& why, bool force)
{
    if (!follows_)
        return false;
    if (force || !pendingForced_)
        pendingWhy_ = why;
    pendingForced_ = pendingForced_ || force;
    timer_->start();
    return true;
}

void FleetPlanReplan::due()
{
    // A queued run came on screen, a failed one ended: nothing a search is over changed.
    if (follows_ && (pendingForced_ || dirsOnScreen_() != dirs_))
        Q_EMIT request(pendingWhy_);
}

} // namespace dpu::ui
