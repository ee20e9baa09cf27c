// SPDX-License-Identifier: MIT
// The fleet plan page's text as HTML: the targets, the search, the recommendation in words and the Pareto set.
#pragma once
#include "report/ReportFleetPlan.h"
#include <QString>

namespace dpu::ui {

class ReportFleetPlanText {
public:
    /// The page's heading, the targets, the search (candidates, pruned, seconds), the
    /// recommendation (or the nearest, what binds and what would move it), the cells to run.
    static QString words(const ReportFleetPlan& plan);
    /// The Pareto set as a table (its first 15 rows, and the recommended candidate's row where it
    /// ranks below them): strategy, setting, fleet accuracy, battery a year, share of the fleet
    /// fresh, days for 90 %, airtime a day.
    static QString pareto(const ReportFleetPlan& plan);
};

} // namespace dpu::ui
