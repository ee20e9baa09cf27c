// SPDX-License-Identifier: MIT
// What the Fleet tab's tests share: a fleet every device of which hears every round, and waiting for the panel.
#pragma once
#include "dpu/DeploymentModel.h"
#include "panels/FleetPanel.h"
#include <QSignalSpy>

namespace dpu::uitest {

/// A fleet every device of which hears every round: the fleet runs what the server runs.
inline dpu::Deployment perfectFleet()
{
    dpu::Deployment s;
    s.link.link = "lorawan-eu868";
    s.link.spreadingFactor = 9;
    s.link.dutyCycle = 0.01;
    s.devices = 50;
    s.availability = 1;
    s.drainRounds = 2;
    return s;
}

/// Waits until the panel shows what its inputs and book say now.
inline bool settle(dpu::ui::FleetPanel& panel)
{
    QSignalSpy spy(&panel, &dpu::ui::FleetPanel::updated);
    for (int i = 0; i < 100 && (panel.busy() || spy.isEmpty()); ++i)
        spy.wait(100);
    return !panel.busy();
}

} // namespace dpu::uitest
