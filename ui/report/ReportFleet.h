// SPDX-License-Identifier: MIT
// A finished fleet simulation as the report's fleet page takes it: the fleet it ran on and one result per strategy.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/FleetMetrics.h"
#include <QString>
#include <QStringList>
#include <vector>

namespace dpu::ui {

/// One strategy of one run on the fleet, under the name its legend and table row show.
struct ReportFleetSeries {
    QString key;                             ///< "dpu · k=0.05", as the Fleet tab names it
    std::vector<dpu::FleetVersion> versions; ///< what it deployed (the spread chart names them)
    dpu::FleetResult result;
    dpu::FleetMetrics metrics; ///< core's fleetMetrics() of result: the figures the page prints
};

/// What the caller simulated (the window's Fleet tab, `dpu-cli report --fleet`): the report
/// only draws it and never simulates. No series: the report has no fleet page.
struct ReportFleet {
    /// The fleet and the server's policy the series ran under (its first group is described;
    /// lastRound and newSamplesPerRound are not shown).
    dpu::FleetConfig config;
    std::vector<ReportFleetSeries> series;
    QStringList notes; ///< strategies left out and why, as plain text
};

} // namespace dpu::ui
