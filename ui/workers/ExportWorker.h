// SPDX-License-Identifier: MIT
// Exports a run's update bundles on a worker thread (the chain check applies every bundle).
#pragma once
#include <QMetaType>
#include <QObject>
#include <QString>
#include "dpu/RunControl.h"
#include <functional>

namespace dpu::ui {

/// What the user asked to export: every round of one strategy and seed into a folder, or one
/// round's bundle into a file.
struct ExportRequest {
    QString runDir;
    QString strategy;
    quint64 seed = 0;
    int round = 0;      ///< 0: all rounds into `destination` (a folder); else that round's bundle
    QString destination;
    /// With round 0: catch-up bundles to the latest version, as `dpu-cli bundle export --catchup`
    /// reads them: empty for none, "all" (every earlier version) or versions "0,2,3".
    QString catchUp;
    /// With round 0: an Ed25519 secret key file that signs every bundle written (the rounds
    /// re-signed, the catch-ups), as `dpu-cli bundle export --sign`; empty: as the run made them.
    QString secretKey;
};

/// Where an export stands. `steps` 0 means the current step has no measurable fraction (one
/// engine call that reports nothing until it returns): the dialog shows activity and time.
struct ExportProgress {
    int step = 0;
    int steps = 0;
    QString text;
};

/// Create on the GUI thread, move to a QThread, invoke run(); progress() and finished() arrive queued.
class ExportWorker : public QObject {
    Q_OBJECT
public:
    using ProgressFn = std::function<void(const ExportProgress&)>;

    explicit ExportWorker(ExportRequest request, QObject* parent = nullptr);

    /// Does the export synchronously on the calling thread (used by run() and by tests).
    /// Returns a summary for the user; sets *ok. `progress` (may be empty) hears each step;
    /// `control` (may be null) cancels between steps, before anything is written.
    static QString exportNow(const ExportRequest& request, bool* ok, const ProgressFn& progress = {},
                             const dpu::RunControl* control = nullptr);

    /// Asks the running export to stop at its next step (nothing is written then). Thread-safe:
    /// the dialog calls it on the GUI thread while run() works on the worker's.
    void cancel() { control_.requestCancel(); }

public Q_SLOTS:
    void run();

Q_SIGNALS:
    void progress(const dpu::ui::ExportProgress& progress);
    void finished(bool ok, const QString& message);

private:
    ExportRequest request_;
    dpu::RunControl control_;
};

} // namespace dpu::ui

Q_DECLARE_METATYPE(dpu::ui::ExportProgress)
