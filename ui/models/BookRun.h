// SPDX-License-Identifier: MIT
// One run in the run book: its plan, its records and epochs, where it is and how it stands.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include <QString>
#include <vector>

namespace dpu::ui {

/// A run on screen, live from the queue or opened from its folder (plain data, no Qt objects).
struct BookRun {
    enum class State { Queued, Running, Finished, Stopped, Failed };

    int id = 0;        ///< the queue's id (> 0), or the book's for an opened folder (< 0)
    QString label;     ///< the Rounds table's Run column: the queue's id, or a folder's name
    QString dir;       ///< the run folder (absolute); empty until a queued run ends
    dpu::Plan plan;
    std::vector<dpu::RoundRecord> records;
    std::vector<dpu::EpochEvent> epochs; ///< live runs only (run folders keep no epochs)
    State state = State::Queued;
    bool live = false; ///< queued in this session (false: opened from disk)

    bool over() const { return state == State::Finished || state == State::Stopped || state == State::Failed; }
    bool finished() const { return state == State::Finished; }
    /// Finished or stopped with records: its deployed versions are final, what the fleet views
    /// (the Fleet tab, the Fleet plan tab) simulate.
    bool versionsFinal() const
    {
        return over() && state != State::Failed && !records.empty() && !plan.seeds.empty();
    }
    /// The run as a run folder holds it (its dir, plan and records; no run.json read).
    dpu::RunFolder folder() const
    {
        dpu::RunFolder f;
        f.dir = dir.toStdString();
        f.plan = plan;
        f.records = records;
        return f;
    }
    /// Several seeds: the accuracy charts draw each strategy's mean with a +-std band.
    bool seedBand() const { return plan.seeds.size() > 1; }
};

} // namespace dpu::ui
