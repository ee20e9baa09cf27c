// SPDX-License-Identifier: MIT
// When the Fleet plan tab plans again by itself: the book's finished runs changed since its last search, debounced, with the reason.
#pragma once
#include "dpu/RunFolder.h"
#include <QObject>
#include <QString>
#include <functional>
#include <string>
#include <vector>

class QTimer;

namespace dpu::ui {

class RunBook;

/// Follows the runs a search is over once the user has planned: a change of the finished runs on
/// screen (a run finished, runs opened or closed, a sweep of cells ended) asks for a search
/// again after a delay (the changes within it make one request), saying why. A cancelled
/// search stops the following until the next one starts.
class FleetPlanReplan : public QObject {
    Q_OBJECT
public:
    /// The folders of `runs` (RunFolder::dir), what a search is over.
    static std::vector<std::string> dirsOf(const std::vector<dpu::RunFolder>& runs);
    /// The folders of the book's runs a search would be over now (BookRun::versionsFinal()), read
    /// without copying their records: what every change of the book compares. None for a null book.
    static std::vector<std::string> dirsOf(const RunBook* book);

    /// `dirsOnScreen` gives the folders of the finished runs a search would be over now.
    FleetPlanReplan(std::function<std::vector<std::string>()> dirsOnScreen, QObject* parent);

    /// The delay after the last change (500 ms).
    void setDelay(int ms);
    /// A search starts over `dirs` because of `why` (empty: the user's Plan): from now on the
    /// changes of the runs on screen re-plan; a request still waiting is covered by it.
    void started(const std::vector<std::string>& dirs, const QString& why);
    /// The user cancelled: no change re-plans until the next search starts.
    void stop();
    /// Whether changes re-plan (a search started and was not cancelled since).
    bool follows() const { return follows_; }
    /// The runs on screen may have changed because of `why`: request() after the delay when
    /// they differ from the last search's (`force`: even when they do not; its reason is kept
    /// over the later unforced ones). False (nothing asked) when not following.
    bool changed(const QString& why, bool force = false);
    /// Why the running (or last) search plans again; empty when the user's Plan started it.
    QString runningWhy() const { return runningWhy_; }

Q_SIGNALS:
    /// Plan again over the runs on screen now, because of `why`.
    void request(const QString& why);

private:
    void due();

    std::function<std::vector<std::string>()> dirsOnScreen_;
    QTimer* timer_;
    std::vector<std::string> dirs_; ///< the last search's runs
    bool follows_ = false;
    QString pendingWhy_;
    bool pendingForced_ = false;
    QString runningWhy_;
};

} // namespace dpu::ui
