// SPDX-License-Identifier: MIT
// The report of a set of runs as one PDF (QPdfWriter): plan, charts, frontier with the budget, a table per strategy, the fleet.
#pragma once
#include "dpu/LinkModel.h"
#include "dpu/RunFolder.h"
#include "report/ReportFleet.h"
#include "report/ReportFleetPlan.h"
#include <QSize>
#include <QString>
#include <optional>
#include <vector>

namespace dpu::ui {

class RunBook;

struct ReportOptions {
    /// The link the per-round times are given for: one device's session (dpu::linkRound's
    /// deviceSeconds, duty cycle and fixed costs included) with `devices` devices; none: no times.
    std::optional<dpu::Link> link;
    int devices = 1;
    double budgetBytes = 0;      ///< bytes per round per device drawn on the frontier (0: none)
    /// A finished fleet simulation of these runs (the caller's: the writer simulates nothing);
    /// no series: no fleet page.
    ReportFleet fleet;
    /// A finished fleet plan of these runs (the caller's: the writer plans nothing); no
    /// candidate: no fleet plan page.
    ReportFleetPlan fleetPlan;
};

class ReportWriter {
public:
    /// Writes the runs' report to `path` atomically (a temporary file, then renamed): page 1 the
    /// plan in words, the machine and date and the table per strategy; then the accuracy and
    /// accuracy-vs-bytes charts; then the frontier with the budget; then, when options.fleet has
    /// series, the fleet page (settings, the Fleet tab's accuracy and version-spread charts, a
    /// table per strategy); then, when options.fleetPlan has candidates, the fleet plan page
    /// (its frontier chart, the recommendation in words, the Pareto set). Needs a QApplication (the offscreen platform will do). Returns false
    /// with *error naming the file on failure.
    /// The book names runs and series (RunBook::runName, seriesKey), as the window does.
    static bool write(const RunBook& book, const ReportOptions& options, const QString& path, QString* error = nullptr);
    /// Draws the frontier of the runs' largest group (as the report's frontier page, budget
    /// line and recommendation included) to a PNG or SVG file, by the name's extension,
    /// written atomically. Returns false with *error naming the file when no run finished or
    /// the file cannot be written.
    static bool writeFrontierImage(const std::vector<dpu::RunFolder>& runs, const ReportOptions& options,
                                   const QString& path, QString* error = nullptr, const QSize& size = QSize(900, 600));
};

} // namespace dpu::ui
