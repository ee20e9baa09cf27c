// SPDX-License-Identifier: MIT
// ProbeQueue: debounced, one-at-a-time dataset reads on the form's own worker thread; stale answers are dropped.
#include "workers/ProbeQueue.h"
#include <QThread>
#include <QTimer>
#include <limits>

namespace dpu::ui {
namespace {
/// Typing pauses this long before the path is read: a prefix of a path is mostly not a dataset.
constexpr int kProbeDelayMs = 300;
} // namespace

ProbeQueue::ProbeQueue(std::function<ProbeRequest()> request, QObject* parent)
    : QObject(parent), request_(std::move(request))
{
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("dpu-probe"));
    worker_ = new ProbeWorker; // no parent: it lives on the thread
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &ProbeWorker::probed, this, &ProbeQueue::onProbed, Qt::QueuedConnection);
    thread_->start();
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    timer_->setInterval(kProbeDelayMs);
    connect(timer_, &QTimer::timeout, this, &ProbeQueue::send);
}

ProbeQueue::~ProbeQueue()
{
    // A probe under way stops at its next image: a big folder does not hold the window open.
    worker_->cancelBefore(std::numeric_limits<quint64>::max());
    thread_->quit();
    thread_->wait();
}

void ProbeQueue::schedule(bool detect)
{
    detectNext_ = detect;
    waiting_ = true;
    if (busy_)
        worker_->cancelBefore(seq_ + 1); // its answer would be stale: stop reading now
    timer_->start();
}

void ProbeQueue::send()
{
    if (busy_)
        return; // onProbed() sends it when the worker is free: one request at a time
    waiting_ = false;
    ProbeRequest request = request_();
    request.id = ++seq_;
    request.detect = detectNext_;
    if (request.spec.path.empty()) {
        have_ = false;
        Q_EMIT nothingToRead();
        return;
    }
    busy_ = true;
    ProbeWorker* worker = worker_;
    QMetaObject::invokeMethod(worker, [worker, request] { worker->probe(request); }, Qt::QueuedConnection);
}

void ProbeQueue::onProbed(const dpu::ui::ProbeResult& result)
{
    busy_ = false;
    if (result.cancelled && !waiting_)
        return; // the window is closing
    if (waiting_) {
        // The fields changed meanwhile: this answer is stale; the newer request goes now unless
        // its pause is still running.
        if (!timer_->isActive())
            send();
        return;
    }
    last_ = result;
    have_ = true;
    Q_EMIT answered(last_);
}

ProbeRequest ProbeQueue::requestFor(const dpu::Plan& plan, std::vector<std::string> offered)
{
    ProbeRequest request;
    request.spec = plan.dataset;
    request.widthMultiplier = plan.widthMultiplier;
    request.models = std::move(offered);
    if (plan.model.rfind("torchscript:", 0) == 0)
        request.models.push_back(plan.model);
    return request;
}

const ProbeResult* ProbeQueue::resultFor(const dpu::DatasetSpec& shown) const
{
    if (!have_ || pending())
        return nullptr;
    return probeKey(last_.spec) == probeKey(shown) ? &last_ : nullptr;
}

} // namespace dpu::ui
