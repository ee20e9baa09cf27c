// SPDX-License-Identifier: MIT
// ProbeWorker: dpu::detectDatasetKind, dpu::probeDataset and dpu::modelFitProblem off the GUI thread.
#include "workers/ProbeWorker.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include <QStringList>
#include <exception>

namespace dpu::ui {

QString probeKey(const dpu::DatasetSpec& s)
{
    QStringList parts{QString::fromStdString(dpu::nameOf(s.kind)), QString::fromStdString(s.path), QString::number(s.trainLimit),
                      QString::number(s.testLimit), QString::fromStdString(s.x), QString::fromStdString(s.y),
                      QString::fromStdString(s.xTest), QString::fromStdString(s.yTest), QString::fromStdString(dpu::nameOf(s.layout)),
                      QString::number(s.testFraction, 'g', 17), QString::number(s.classes),
                      QString::number(s.imageHeight), QString::number(s.imageWidth), QString::number(s.channels)};
    return parts.join(QChar(0x1f)); // a separator no path or name holds
}

ProbeWorker::ProbeWorker(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<dpu::ui::ProbeResult>("dpu::ui::ProbeResult");
}

void ProbeWorker::cancelBefore(quint64 id)
{
    std::lock_guard<std::mutex> lock(mutex_);
    cancelBefore_ = id;
    if (running_ && runningId_ < id)
        running_->requestCancel();
}

bool ProbeWorker::begin(quint64 id, dpu::RunControl* control)
{
    std::lock_guard<std::mutex> lock(mutex_);
    if (id < cancelBefore_)
        return false;
    runningId_ = id;
    running_ = control;
    return true;
}

void ProbeWorker::end()
{
    std::lock_guard<std::mutex> lock(mutex_);
    running_ = nullptr;
}

ProbeResult ProbeWorker::probeNow(const ProbeRequest& request)
{
    ProbeResult out;
    out.id = request.id;
    out.spec = request.spec;
    dpu::RunControl control; // this probe's token: cancelBefore() cancels it
    const auto check = [&control] {
        if (control.cancelRequested())
            throw dpu::Cancelled();
    };
    struct Registered { // the token leaves cancelBefore()'s reach however the probe ends
        ProbeWorker* worker;
        ~Registered() { worker->end(); }
    } registered{this};
    try {
        if (!begin(request.id, &control))
            throw dpu::Cancelled();
        if (request.detect) {
            out.spec.kind = dpu::detectDatasetKind(request.spec.path);
            out.detected = true;
        }
        out.probe = dpu::probeDataset(out.spec, &control);
        for (const std::string& model : request.models) {
            check();
            out.fits.push_back({model, fitProblem(model, out.probe, request.widthMultiplier)});
        }
    } catch (const dpu::Cancelled&) {
        ProbeResult none;
        none.id = request.id;
        none.spec = request.spec;
        none.cancelled = true;
        return none;
    } catch (const std::exception& e) {
        // DataError and PlanError name the file or field; anything else still must not escape
        // the worker's event loop.
        out.error = dpu::failureText(e);
        return out;
    }
    return out;
}

std::string ProbeWorker::fitProblem(const std::string& model, const dpu::DataProbe& probe, double widthMultiplier)
{
    const dpu::InputShape& shape = probe.shape;
    const double width = model == "mobilenetv1" ? widthMultiplier : 1.0;
    const QString key = QStringLiteral("%1|%2x%3x%4|%5|%6")
                            .arg(QString::fromStdString(model))
                            .arg(shape.channels).arg(shape.height).arg(shape.width)
                            .arg(probe.classes).arg(width);
    if (!fitCache_.contains(key))
        fitCache_.insert(key, QString::fromStdString(dpu::modelFitProblem(model, shape, probe.classes, width)));
    return fitCache_.value(key).toStdString();
}

void ProbeWorker::probe(const dpu::ui::ProbeRequest& request)
{
    Q_EMIT probed(probeNow(request));
}

} // namespace dpu::ui
