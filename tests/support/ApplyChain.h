// SPDX-License-Identifier: MIT
// Applies a run's bundles of one strategy in order with dpu-apply, checking each device file against the run's record.
#pragma once
#include "dpu/Events.h"
#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QtGlobal>
#include <functional>
#include <string>
#include <vector>

namespace dpu::test {

/// What a file holds, or nothing when it cannot be read.
inline QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Starts from OUT/bundles/seed-S/initial.safetensors copied to `device`, then for every deployed
/// round of `strategy` in `records`: calls `before(record, bundlePath)` (false stops), applies the
/// bundle with the dpu-apply program `applyExe` and checks that the file's SHA-256 is the
/// record's, then calls `after(round)`. False, with a warning, at the first failure.
inline bool applyInOrder(const QString& applyExe, const QString& run, uint64_t seed,
                         const std::vector<RoundRecord>& records, const std::string& strategy, const QString& device,
                         const std::function<bool(const RoundRecord&, const QString&)>& before,
                         const std::function<void(int)>& after)
{
    QFile::remove(device);
    if (!QFile::copy(run + QStringLiteral("/bundles/seed-%1/initial.safetensors").arg(seed), device))
        return false;
    for (const auto& r : records) {
        if (r.strategy != strategy || !r.deployed || r.seed != seed)
            continue;
        const QString bundle = run + QStringLiteral("/bundles/seed-%1/%2/round-%3.dpub")
                                         .arg(seed)
                                         .arg(QString::fromStdString(strategy))
                                         .arg(r.round, 3, 10, QLatin1Char('0'));
        if (before && !before(r, bundle))
            return false;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(applyExe, {bundle, device});
        p.waitForFinished(60000);
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning("dpu-apply %s: %s", qPrintable(bundle), p.readAll().constData());
            return false;
        }
        const QByteArray hash = QCryptographicHash::hash(fileBytes(device), QCryptographicHash::Sha256).toHex();
        if (QString::fromLatin1(hash) != QString::fromStdString(r.deviceSha256)) {
            qWarning("%s: the device file is not the one round %d recorded", qPrintable(bundle), r.round);
            return false;
        }
        if (after)
            after(r.round);
    }
    return true;
}

} // namespace dpu::test
