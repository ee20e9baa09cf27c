// SPDX-License-Identifier: MIT
// AtomicFile: QSaveFile keeps the old file until commit(), so a crash never leaves half a file.
#include "AtomicFile.h"
#include <QSaveFile>

namespace dpu::ui {

bool AtomicFile::write(const QString& path, const QByteArray& data, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write (%2)").arg(path, file.errorString());
        return false;
    }
    if (file.write(data) != data.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: write failed (%2)").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

} // namespace dpu::ui
