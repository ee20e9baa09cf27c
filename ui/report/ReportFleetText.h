// SPDX-License-Identifier: MIT
// The fleet page's text as HTML: the fleet and the server's policy it ran under, the table per strategy.
#pragma once
#include "report/ReportFleet.h"
#include <QString>

namespace dpu::ui {

class ReportFleetText {
public:
    /// The page's heading, what the page shows and the fleet's settings as a table (link,
    /// devices and spreading factors, availability, frame loss, duty cycle, multicast or
    /// unicast, round period, the server's policy, the processor where one applies bundles).
    static QString settings(const ReportFleet& fleet);
    /// Two tables of one row per series, core's fleetMetrics() under the names the Fleet tab and
    /// dpu-cli fleet use: versions, the last version's time to 90 % of the fleet, the fleet's and
    /// the server's mean accuracy, the catch-up after the last release; then the initial
    /// deployment, bytes, airtime and energy per update round, energy and battery per year at the
    /// cadence (and uploads per round); then what the figures mean and the notes.
    static QString table(const ReportFleet& fleet);
};

} // namespace dpu::ui
