// SPDX-License-Identifier: MIT
// AtomicFile: one atomic writer for the whole application, core's; this only converts types.
#include "AtomicFile.h"
#include "dpu/AtomicWrite.h"
#include "dpu/Error.h"
#include <QDir>
#include <QFileInfo>

namespace dpu::ui {

bool AtomicFile::write(const QString& path, const QByteArray& data, QString* error)
{
    // Core's writer makes missing folders (a run's own tree); a file the user named goes only
    // where the user's folder is, or nowhere.
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) {
        if (error)
            *error = QStringLiteral("%1: cannot write (the folder %2 does not exist)").arg(path, info.absolutePath());
        return false;
    }
    try {
        dpu::writeFileAtomic(path.toStdString(), data.toStdString());
        return true;
    } catch (const dpu::Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

} // namespace dpu::ui
