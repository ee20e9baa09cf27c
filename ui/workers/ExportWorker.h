// SPDX-License-Identifier: MIT
// Exports a run's update bundles on a worker thread (the chain check applies every bundle).
#pragma once
#include <QObject>
#include <QString>

namespace dpu::ui {

/// What the user asked to export: every round of one strategy and seed into a folder, or one
/// round's bundle into a file.
struct ExportRequest {
    QString runDir;
    QString strategy;
    quint64 seed = 0;
    int round = 0;      ///< 0: all rounds into `destination` (a folder); else that round's bundle
    QString destination;
};

/// Create on the GUI thread, move to a QThread, invoke run(); finished() arrives queued.
class ExportWorker : public QObject {
    Q_OBJECT
public:
    explicit ExportWorker(ExportRequest request, QObject* parent = nullptr);

    /// Does the export synchronously on the calling thread (used by run() and by tests).
    /// Returns a summary for the user; sets *ok.
    static QString exportNow(const ExportRequest& request, bool* ok);

public Q_SLOTS:
    void run();

Q_SIGNALS:
    void finished(bool ok, const QString& message);

private:
    ExportRequest request_;
};

} // namespace dpu::ui
