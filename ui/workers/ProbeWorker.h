// SPDX-License-Identifier: MIT
// Reads a dataset the plan form names on a worker thread: its kind, what it holds, which models fit it.
#pragma once
#include "dpu/DataProbe.h"
#include "dpu/Plan.h"
#include "dpu/RunControl.h"
#include <QHash>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <mutex>
#include <string>
#include <vector>

namespace dpu::ui {

/// What the form asks: read `spec` (after detecting its kind from the path when `detect`), then
/// check every model of `models` against the samples found.
struct ProbeRequest {
    quint64 id = 0;
    dpu::DatasetSpec spec;
    bool detect = false;
    std::vector<std::string> models; ///< built-in names or "torchscript:PATH"
    double widthMultiplier = 1.0;    ///< mobilenetv1's
};

/// Whether one model fits the data, and why not.
struct ModelFit {
    std::string model;
    std::string problem; ///< empty: it fits
};

/// What the worker found. `spec` is the request's with the detected kind in place.
struct ProbeResult {
    quint64 id = 0;
    dpu::DatasetSpec spec;
    bool detected = false;   ///< spec.kind came from the data
    std::string error;       ///< the reader's message (names the file and the problem); empty when read
    bool cancelled = false;  ///< stopped by cancelBefore(): no probe, no error
    dpu::DataProbe probe;    ///< valid when error is empty
    std::vector<ModelFit> fits;
};

/// Create on the GUI thread, move to a QThread, call probe() through a queued invocation;
/// probed() arrives queued on the GUI thread. Keeps the model checks it made, per input shape.
/// cancelBefore() may be called from any thread: a request it covers stops at its next image.
class ProbeWorker : public QObject {
    Q_OBJECT
public:
    explicit ProbeWorker(QObject* parent = nullptr);

    /// Does the whole probe synchronously on the calling thread (the worker's, or a test's).
    ProbeResult probeNow(const ProbeRequest& request);
    /// Requests with an id below `id` (the one under way, queued ones) stop at the next image or
    /// model check and answer `cancelled`: newer fields, or the window closing. Cancels the
    /// RunControl token of the probe under way when it is one of them.
    void cancelBefore(quint64 id);

public Q_SLOTS:
    void probe(const dpu::ui::ProbeRequest& request);

Q_SIGNALS:
    void probed(const dpu::ui::ProbeResult& result);

private:
    /// dpu::modelFitProblem, remembered per model, input shape, classes and width.
    std::string fitProblem(const std::string& model, const dpu::DataProbe& probe, double widthMultiplier);

    QHash<QString, QString> fitCache_; // "model|CxHxW|classes|width" -> problem
    /// Whether request `id` may start; when it may, `control` becomes the token cancelBefore() cancels.
    bool begin(quint64 id, dpu::RunControl* control);
    void end();

    std::mutex mutex_;                   // guards the three below: cancelBefore() comes from any thread
    quint64 cancelBefore_ = 0;
    quint64 runningId_ = 0;
    dpu::RunControl* running_ = nullptr; // the token of the probe under way (on its stack), or null
};

/// A key of the fields of `spec` that change what probeDataset() reads (not its preprocessing).
QString probeKey(const dpu::DatasetSpec& spec);

} // namespace dpu::ui

Q_DECLARE_METATYPE(dpu::ui::ProbeResult)
