// SPDX-License-Identifier: MIT
// RunBook: the runs on screen and what each view is told when they come, grow, end and go.
#include "models/RunBook.h"
#include "dpu/Error.h"
#include "dpu/PlanEnums.h"
#include "dpu/RunNames.h"
#include "dpu/Sweep.h"
#include <QDir>
#include <QFileInfo>
#include <algorithm>

namespace dpu::ui {

RunBook::RunBook(QObject* parent) : QObject(parent) {}

const BookRun* RunBook::find(int id) const
{
    for (const BookRun& r : runs_)
        if (r.id == id)
            return &r;
    return nullptr;
}

BookRun* RunBook::findMutable(int id)
{
    for (BookRun& r : runs_)
        if (r.id == id)
            return &r;
    return nullptr;
}

void RunBook::addQueued(int id, const dpu::Plan& plan)
{
    if (find(id))
        return;
    BookRun r;
    r.id = id;
    r.label = QString::number(id);
    r.plan = plan;
    r.live = true;
    runs_.append(std::move(r));
    const bool renamed = renameAll(id);
    Q_EMIT runAdded(id);
    if (renamed)
        Q_EMIT namesChanged();
}

void RunBook::markStarted(int id)
{
    if (BookRun* r = findMutable(id)) {
        r->state = BookRun::State::Running;
        Q_EMIT runStarted(id);
    }
}

void RunBook::addRecord(int id, const dpu::RoundRecord& record)
{
    if (BookRun* r = findMutable(id)) {
        r->records.push_back(record);
        Q_EMIT recordAdded(id, record);
    }
}

void RunBook::addEpoch(int id, const dpu::EpochEvent& epoch)
{
    if (BookRun* r = findMutable(id)) {
        r->epochs.push_back(epoch);
        Q_EMIT epochAdded(id, epoch);
    }
}

void RunBook::markEnded(int id, const QString& dir, BookRun::State state)
{
    BookRun* r = findMutable(id);
    if (!r)
        return;
    r->state = state;
    r->dir = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    if (!r->dir.isEmpty())
        folderIds_.insert(r->dir, id); // opened again later, it is the same run
    Q_EMIT runEnded(id);
}

int RunBook::openFolder(const QString& folder, QString* error)
{
    const QString dir = QFileInfo(folder).absoluteFilePath();
    for (const BookRun& r : runs_)
        if (!r.dir.isEmpty() && QFileInfo(r.dir).absoluteFilePath() == dir)
            return r.id; // already on screen
    dpu::RunFolder run;
    try {
        run = dpu::loadRunFolder(dir.toStdString());
    } catch (const dpu::Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return 0;
    }
    BookRun r;
    r.id = folderIds_.value(dir, 0);
    if (r.id == 0) {
        r.id = nextOpenedId_--;
        folderIds_.insert(dir, r.id);
    }
    r.label = QString::fromStdString(dpu::runDisplayName(dir.toStdString())); // a sweep's cell by its keys
    r.dir = dir;
    r.plan = run.plan;
    r.records = std::move(run.records);
    r.state = run.complete() ? BookRun::State::Finished : BookRun::State::Stopped;
    const int id = r.id;
    runs_.append(std::move(r));
    const bool renamed = renameAll(id);
    Q_EMIT runAdded(id);
    if (renamed)
        Q_EMIT namesChanged();
    return id;
}

void RunBook::remove(int id)
{
    const auto it = std::find_if(runs_.begin(), runs_.end(), [id](const BookRun& r) { return r.id == id; });
    if (it == runs_.end())
        return;
    runs_.erase(it);
    distinctions_.remove(id);
    const bool renamed = renameAll();
    Q_EMIT runRemoved(id);
    if (renamed)
        Q_EMIT namesChanged();
}

void RunBook::clear()
{
    if (runs_.isEmpty())
        return;
    runs_.clear();
    distinctions_.clear();
    Q_EMIT cleared();
}

bool RunBook::renameAll(int except)
{
    std::vector<dpu::Plan> plans;
    std::vector<std::string> labels;
    for (const BookRun& r : runs_) {
        plans.push_back(r.plan);
        labels.push_back((r.live ? QStringLiteral("run %1").arg(r.label) : r.label).toStdString());
    }
    const std::vector<std::string> words = dpu::runDistinctions(plans, labels);
    bool changed = false;
    for (int i = 0; i < runs_.size(); ++i) {
        const int id = runs_[i].id;
        const QString text = QString::fromStdString(words[static_cast<size_t>(i)]);
        if (id != except && distinctions_.value(id) != text)
            changed = true;
        distinctions_.insert(id, text);
    }
    return changed;
}

QString RunBook::seriesKey(int id, const std::string& strategy, uint64_t seed, bool withSeed) const
{
    QString key = QString::fromStdString(strategy);
    const BookRun* r = find(id);
    if (withSeed && r && r->plan.seeds.size() > 1)
        key += QStringLiteral(" s%1").arg(seed);
    const QString words = distinction(id);
    return words.isEmpty() ? key : key + QStringLiteral(" · ") + words;
}

QString RunBook::runName(int id) const
{
    const BookRun* r = find(id);
    const QString name = r ? QString::fromStdString(r->plan.name) : QString();
    const QString words = distinction(id);
    return words.isEmpty() ? name : name + QStringLiteral(" · ") + words;
}

QStringList RunBook::folders() const
{
    QStringList out;
    for (const BookRun& r : runs_)
        if (!r.dir.isEmpty())
            out << r.dir;
    return out;
}

QStringList RunBook::bundleFolders() const
{
    QStringList out;
    for (const BookRun& r : runs_)
        if (!r.dir.isEmpty() && !r.records.empty() && QDir(r.dir).exists(QStringLiteral("bundles")))
            out << r.dir;
    return out;
}

std::vector<dpu::LabelledRun> RunBook::labelledRuns() const
{
    std::vector<dpu::LabelledRun> out;
    for (const BookRun& r : runs_) {
        if (r.records.empty())
            continue;
        // A finished queued run goes by its folder's name, as it will when opened again.
        const QString name = r.live && !r.dir.isEmpty() ? QFileInfo(r.dir).fileName() : r.label;
        out.push_back({name.toStdString(), r.plan.name, r.plan.k, r.records, dpu::nameOf(r.plan.bundle.values)});
    }
    return out;
}

std::vector<dpu::RunFolder> RunBook::reportRuns() const
{
    std::vector<dpu::RunFolder> out;
    for (const BookRun& r : runs_) {
        dpu::RunFolder f;
        f.dir = (r.dir.isEmpty() ? r.label : r.dir).toStdString();
        f.plan = r.plan;
        f.records = r.records;
        f.status.known = true;
        f.status.state = r.finished() ? "finished" : "stopped";
        if (!r.dir.isEmpty()) { // where and when it ran, as its folder says
            try {
                f.status = dpu::loadRunFolder(r.dir.toStdString()).status;
            } catch (const dpu::Error&) {
                // The folder changed since: the report still has the rounds on screen.
            }
        }
        out.push_back(std::move(f));
    }
    return out;
}

int RunBook::plannedRounds() const
{
    int rounds = 0;
    for (const BookRun& r : runs_)
        rounds = std::max(rounds, r.plan.split.rounds);
    return rounds;
}

} // namespace dpu::ui
