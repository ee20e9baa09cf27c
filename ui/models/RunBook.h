// SPDX-License-Identifier: MIT
// The run book: every run on screen (live or opened, finished or not) in one widget-free model.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include "models/BookRun.h"
#include "workers/EngineMetatypes.h" // dpu structs in signals
#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>
#include <vector>

namespace dpu::ui {

/// The runs the window shows, as LabPlot keeps a project tree: the charts, the rounds table,
/// the budget's frontier, the exports and the report read it and follow its signals; only the
/// run queue's events (through MainWindow) and File › Open/Close change it. No widgets: the
/// book can be used and tested alone.
class RunBook : public QObject {
    Q_OBJECT
public:
    explicit RunBook(QObject* parent = nullptr);

    // Live runs, in the run queue's order of events. Unknown ids are ignored (a run closed
    // while it was still running keeps reporting until it ends).
    /// A run was queued: it is on screen from now on, with no records yet.
    void addQueued(int id, const dpu::Plan& plan);
    void markStarted(int id);
    void addRecord(int id, const dpu::RoundRecord& record);
    void addEpoch(int id, const dpu::EpochEvent& epoch);
    /// The run is over: `dir` is its folder (empty when it failed before writing one).
    void markEnded(int id, const QString& dir, BookRun::State state);

    /// Opens a run folder (plan.json + results.jsonl): its id, the existing one when the folder
    /// is on screen already, or 0 with *error naming the file when it cannot be read. A cell of
    /// a sweep folder is labelled by the sweep's name and its axis values, not its hash.
    int openFolder(const QString& folder, QString* error = nullptr);
    /// Takes a run off screen (a live one keeps running; its later events are ignored).
    void remove(int id);
    /// Takes every run off screen.
    void clear();

    const QList<BookRun>& runs() const { return runs_; }
    const BookRun* find(int id) const;
    bool isEmpty() const { return runs_.isEmpty(); }

    /// What tells the run apart from the others on screen ("k=0.05", "q4", "run 2"; empty
    /// when it is alone): core's dpu::runDistinctions over the book.
    QString distinction(int id) const { return distinctions_.value(id); }
    /// The name of a strategy's series of a run: the strategy, the seed (withSeed, several
    /// seeds) and the run's distinction ("dpu · k=0.05 · q4").
    QString seriesKey(int id, const std::string& strategy, uint64_t seed, bool withSeed) const;
    /// How a table names a run: its plan's name and, beside others, what sets it apart
    /// ("fashion-mlp-k0.01 · deployed=int8"); the plan's name alone when nothing does.
    QString runName(int id) const;

    /// Folders of the runs that have one, oldest first.
    QStringList folders() const;
    /// Folders of runs with rounds and a bundles/ folder: what Export Update Bundles offers.
    QStringList bundleFolders() const;
    /// Every run's records, named as exports name them (a finished run by its folder's name).
    std::vector<dpu::LabelledRun> labelledRuns() const;
    /// The runs as run folders for the report (a folder's run.json where it has one).
    std::vector<dpu::RunFolder> reportRuns() const;
    /// The most rounds any plan on screen asks for (0 when empty).
    int plannedRounds() const;

Q_SIGNALS:
    /// A run came on screen: a queued one (no records) or an opened folder (all of them).
    void runAdded(int id);
    void runStarted(int id);
    void recordAdded(int id, const dpu::RoundRecord& record);
    void epochAdded(int id, const dpu::EpochEvent& epoch);
    /// The run is over (finished, stopped or failed); its folder is known when it has one.
    void runEnded(int id);
    void runRemoved(int id);
    void cleared();
    /// The distinctions (so the series names) of runs already on screen changed, after a run
    /// came or went: views that name series by them redraw.
    void namesChanged();

private:
    BookRun* findMutable(int id);
    /// Recomputes every distinction; true when one of a run other than `except` changed.
    bool renameAll(int except = 0);

    QList<BookRun> runs_;
    QHash<int, QString> distinctions_;
    QHash<QString, int> folderIds_; // a folder opened again keeps its id
    int nextOpenedId_ = -1;
};

} // namespace dpu::ui
