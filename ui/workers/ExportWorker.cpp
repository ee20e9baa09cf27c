// SPDX-License-Identifier: MIT
// ExportWorker: dpu::exportRunBundlesWithCatchUp for a folder, a verified atomic copy for a single round.
#include "workers/ExportWorker.h"
#include "AtomicFile.h"
#include "dpu/Bundles.h"
#include "dpu/CatchUp.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include <QFile>
#include <QLocale>
#include <QStringList>

namespace dpu::ui {

namespace {

// The same words `dpu-cli bundle export --catchup` takes, so that the window and the CLI write
// the same folder for the same choice. Returns false with *error set on a malformed list.
bool parseCatchUp(const QString& text, dpu::CatchUpSelection* s, QString* error)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return true;
    if (t == QLatin1String("all")) {
        s->all = true;
        return true;
    }
    for (const QString& item : t.split(QLatin1Char(','))) {
        bool ok = false;
        const qulonglong v = item.trimmed().toULongLong(&ok);
        if (!ok) {
            *error = ExportWorker::tr("Catch-up versions: expected versions such as 0,2,3, found '%1'").arg(t);
            return false;
        }
        s->fromVersions.push_back(v);
    }
    return true;
}

QString catchUpSummary(const dpu::CatchUpExport& ex)
{
    if (ex.versions.empty())
        return {};
    int routes[3] = {0, 0, 0};
    for (const dpu::CatchUpResult& r : ex.versions)
        ++routes[static_cast<int>(r.route)];
    return ExportWorker::tr(" Added %n catch-up bundle(s) to version %1 in catchup/ and catchup.json; the cheapest "
                            "route is the catch-up bundle for %2, the missed bundles for %3, the full model for %4.",
                            nullptr, int(ex.versions.size()))
        .arg(ex.versions.front().toVersion)
        .arg(routes[int(dpu::CatchUpRoute::CatchUp)])
        .arg(routes[int(dpu::CatchUpRoute::Chain)])
        .arg(routes[int(dpu::CatchUpRoute::Full)]);
}

/// The engine's steps as the dialog's progress.
class ProgressRelay : public dpu::ExportObserver {
public:
    explicit ProgressRelay(const ExportWorker::ProgressFn& progress) : progress_(progress) {}
    void onExportStep(int done, int total, const std::string& what) override
    {
        if (progress_)
            progress_({done, total, ExportWorker::tr("Step %1 of %2: %3…").arg(done + 1).arg(total).arg(QString::fromStdString(what))});
    }

private:
    const ExportWorker::ProgressFn& progress_;
};

QString exportFolder(const ExportRequest& r, bool* ok, const ExportWorker::ProgressFn& progress,
                     const dpu::RunControl* control)
{
    dpu::CatchUpSelection selection;
    QString error;
    if (!parseCatchUp(r.catchUp, &selection, &error))
        return error;
    // The engine reports each step (the chain check, each catch-up bundle, the writing) and
    // builds and checks everything before it writes: a cancel leaves the destination as it was.
    dpu::ExportOptions options;
    options.catchUp = selection;
    options.secretKeyPath = r.secretKey.trimmed().toStdString();
    ProgressRelay relay(progress);
    const dpu::CatchUpExport all = dpu::exportRunBundlesWithOptions(r.runDir.toStdString(), r.strategy.toStdString(), r.seed,
                                                                    false, r.destination.toStdString(), options, &relay, control);
    const dpu::BundleExport& ex = all.rounds;
    if (progress)
        progress({1, 1, ExportWorker::tr("Written.")});
    *ok = true;
    return ExportWorker::tr("Exported %n bundle(s) of %1 (seed %2), %3 bytes, with initial.safetensors and bundles.json "
                            "to %4. Every bundle was applied in order and matches the run's device state%5.",
                            nullptr, int(ex.rounds.size()))
               .arg(r.strategy)
               .arg(r.seed)
               .arg(QLocale().toString(qlonglong(ex.totalBytes)), r.destination,
                    options.secretKeyPath.empty() ? QString() : ExportWorker::tr("; every bundle is signed with %1").arg(r.secretKey.trimmed()))
        + catchUpSummary(all);
}

QString exportOneRound(const ExportRequest& r, bool* ok)
{
    const QString source =
        QString::fromStdString(dpu::runBundlePath(r.runDir.toStdString(), r.seed, r.strategy.toStdString(), r.round));
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return ExportWorker::tr("%1: cannot read (%2). Was round %3 deployed?").arg(source, in.errorString()).arg(r.round);
    const QByteArray bytes = in.readAll();
    QString error;
    if (!AtomicFile::write(r.destination, bytes, &error))
        return error;
    *ok = true;
    return ExportWorker::tr("Exported round %1 of %2 (seed %3): %4 bytes to %5.")
        .arg(r.round)
        .arg(r.strategy)
        .arg(r.seed)
        .arg(QLocale().toString(bytes.size()), r.destination);
}

} // namespace

ExportWorker::ExportWorker(ExportRequest request, QObject* parent) : QObject(parent), request_(std::move(request))
{
}

QString ExportWorker::exportNow(const ExportRequest& r, bool* ok, const ProgressFn& progress, const dpu::RunControl* control)
{
    *ok = false;
    if (r.destination.isEmpty())
        return tr("Choose where to export to.");
    try {
        return r.round == 0 ? exportFolder(r, ok, progress, control) : exportOneRound(r, ok);
    } catch (const dpu::Cancelled&) {
        return tr("Export cancelled; nothing was written to %1.").arg(r.destination);
    } catch (const dpu::Error& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return tr("Export failed: %1").arg(QString::fromLocal8Bit(dpu::failureText(e).c_str()));
    }
}

void ExportWorker::run()
{
    bool ok = false;
    // Emitted on this (worker) thread: the dialog's connection queues each to the GUI thread.
    const QString message = exportNow(request_, &ok, [this](const ExportProgress& p) { Q_EMIT progress(p); }, &control_);
    Q_EMIT finished(ok, message);
}

} // namespace dpu::ui
