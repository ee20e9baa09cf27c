// SPDX-License-Identifier: MIT
// The report of a set of runs as one PDF (QPdfWriter): plan, charts, frontier with the budget, a table per strategy.
#pragma once
#include "dpu/RunFolder.h"
#include <QSize>
#include <QString>
#include <vector>

namespace dpu::ui {

struct ReportOptions {
    QString linkName = QStringLiteral("NB-IoT (60 kbit/s)"); ///< the link transfer times are given for
    double linkBitsPerSecond = 60e3;
    double budgetBytes = 0;      ///< bytes per round per device drawn on the frontier (0: none)
};

class ReportWriter {
public:
    /// Writes the runs' report to `path` atomically (a temporary file, then renamed): page 1 the
    /// plan in words, the machine and date and the table per strategy; then the accuracy and
    /// accuracy-vs-bytes charts; then the frontier with the budget. Needs a QApplication (the
    /// offscreen platform will do). Returns false with *error naming the file on failure.
    static bool write(const std::vector<dpu::RunFolder>& runs, const ReportOptions& options, const QString& path,
                      QString* error = nullptr);
    /// Draws the frontier of the runs' largest group (as the report's frontier page, budget
    /// line and recommendation included) to a PNG or SVG file, by the name's extension,
    /// written atomically. Returns false with *error naming the file when no run finished or
    /// the file cannot be written.
    static bool writeFrontierImage(const std::vector<dpu::RunFolder>& runs, const ReportOptions& options,
                                   const QString& path, QString* error = nullptr, const QSize& size = QSize(900, 600));
};

} // namespace dpu::ui
