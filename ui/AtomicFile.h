// SPDX-License-Identifier: MIT
// Writes a whole file atomically through core's writer (dpu/AtomicWrite.h), with Qt's types.
#pragma once
#include <QByteArray>
#include <QString>

namespace dpu::ui {

class AtomicFile {
public:
    /// Writes data to path, replacing it only once everything is on disk (dpu::writeFileAtomic,
    /// the writer the crash tests hold). On failure returns false, leaves the old file untouched
    /// and sets *error to a message naming the file.
    static bool write(const QString& path, const QByteArray& data, QString* error = nullptr);
};

} // namespace dpu::ui
