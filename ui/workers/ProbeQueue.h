// SPDX-License-Identifier: MIT
// ProbeQueue: the plan form's reads of its dataset on a worker thread: after a typing pause, one at a time, the newest winning.
#pragma once
#include "workers/ProbeWorker.h"
#include <QObject>
#include <functional>
#include <string>
#include <vector>

class QThread;
class QTimer;

namespace dpu::ui {

/// Owns the ProbeWorker and its thread. schedule() asks for a read of what `request` (the
/// form's fields at the time) names after a short pause, so that typing does not read every
/// prefix of a path; a read under way whose answer would be stale is cancelled, and only the
/// newest request's answer is kept and reported.
class ProbeQueue : public QObject {
    Q_OBJECT
public:
    /// `request` states what to read (dataset, models, width); the queue sets its id and detection.
    explicit ProbeQueue(std::function<ProbeRequest()> request, QObject* parent = nullptr);
    /// Stops a read under way at its next image and waits for the thread.
    ~ProbeQueue() override;

    /// Reads again after the pause; `detect`: detect the path's kind first.
    void schedule(bool detect);
    /// Whether a read is under way or waiting (the answer kept may be stale).
    bool pending() const { return busy_ || waiting_; }
    /// Whether the kind of the path is being detected (the kind shown may be stale).
    bool detecting() const { return pending() && detectNext_; }
    /// The last answer when it is for the data `shown` and nothing newer is pending, else nullptr.
    const ProbeResult* resultFor(const dpu::DatasetSpec& shown) const;
    /// Forgets the last answer (another plan is shown).
    void forget() { have_ = false; }
    /// What the plan form asks for `plan`: its dataset, checked against the models `offered`
    /// and the plan's own TorchScript model (one forward pass says whether it fits).
    static ProbeRequest requestFor(const dpu::Plan& plan, std::vector<std::string> offered);

Q_SIGNALS:
    /// A read finished with the newest request's answer (kept: resultFor() gives it).
    void answered(const dpu::ui::ProbeResult& result);
    /// The request named no path: nothing was read and no answer is kept.
    void nothingToRead();

private:
    void send();
    void onProbed(const dpu::ui::ProbeResult& result);

    std::function<ProbeRequest()> request_;
    QThread* thread_;
    ProbeWorker* worker_; ///< lives on thread_, deleted when it finishes
    QTimer* timer_;
    quint64 seq_ = 0;
    bool busy_ = false;    ///< a request is on the worker
    bool waiting_ = false; ///< a request waits for the timer or for the worker
    bool detectNext_ = false;
    bool have_ = false;
    ProbeResult last_;
};

} // namespace dpu::ui
