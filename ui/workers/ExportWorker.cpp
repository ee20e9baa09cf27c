// SPDX-License-Identifier: MIT
// ExportWorker: dpu::exportRunBundles for a folder, a verified atomic copy for a single round.
#include "workers/ExportWorker.h"
#include "AtomicFile.h"
#include "dpu/Bundles.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include <QFile>
#include <QLocale>

namespace dpu::ui {

ExportWorker::ExportWorker(ExportRequest request, QObject* parent) : QObject(parent), request_(std::move(request))
{
}

QString ExportWorker::exportNow(const ExportRequest& r, bool* ok)
{
    *ok = false;
    if (r.destination.isEmpty())
        return tr("Choose where to export to.");
    try {
        if (r.round == 0) {
            const dpu::BundleExport ex = dpu::exportRunBundles(r.runDir.toStdString(), r.strategy.toStdString(), r.seed,
                                                               false, r.destination.toStdString());
            *ok = true;
            return tr("Exported %n bundle(s) of %1 (seed %2), %3 bytes, with initial.safetensors and bundles.json to %4. "
                      "Every bundle was applied in order and matches the run's device state.",
                      nullptr, int(ex.rounds.size()))
                .arg(r.strategy)
                .arg(r.seed)
                .arg(QLocale().toString(qlonglong(ex.totalBytes)), r.destination);
        }
        const QString source = QString::fromStdString(
            dpu::runBundlePath(r.runDir.toStdString(), r.seed, r.strategy.toStdString(), r.round));
        QFile in(source);
        if (!in.open(QIODevice::ReadOnly))
            return tr("%1: cannot read (%2). Was round %3 deployed?").arg(source, in.errorString()).arg(r.round);
        const QByteArray bytes = in.readAll();
        QString error;
        if (!AtomicFile::write(r.destination, bytes, &error))
            return error;
        *ok = true;
        return tr("Exported round %1 of %2 (seed %3): %4 bytes to %5.")
            .arg(r.round)
            .arg(r.strategy)
            .arg(r.seed)
            .arg(QLocale().toString(bytes.size()), r.destination);
    } catch (const dpu::Error& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return tr("Export failed: %1").arg(QString::fromLocal8Bit(dpu::failureText(e).c_str()));
    }
}

void ExportWorker::run()
{
    bool ok = false;
    const QString message = exportNow(request_, &ok);
    Q_EMIT finished(ok, message);
}

} // namespace dpu::ui
