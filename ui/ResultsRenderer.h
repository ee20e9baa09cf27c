// SPDX-License-Identifier: MIT
// Renders the charts of a finished run folder (results.jsonl) to PNG and SVG files, headless.
#pragma once
#include <QString>
#include <QStringList>

namespace dpu::ui {

class ResultsRenderer {
public:
    /// Reads folder/results.jsonl and writes accuracy, bytes and layer charts as PNG and SVG into
    /// the same folder (works on the offscreen platform). Returns false with *error on failure.
    static bool render(const QString& folder, QStringList* written = nullptr, QString* error = nullptr);
};

} // namespace dpu::ui
