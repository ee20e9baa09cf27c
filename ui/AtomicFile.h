// SPDX-License-Identifier: MIT
// Writes a whole file atomically (temporary name, flush, rename) through QSaveFile.
#pragma once
#include <QByteArray>
#include <QString>

namespace dpu::ui {

class AtomicFile {
public:
    /// Writes data to path, replacing it only once everything is on disk. On failure returns
    /// false, leaves the old file untouched and sets *error to a message naming the file.
    static bool write(const QString& path, const QByteArray& data, QString* error = nullptr);
};

} // namespace dpu::ui
