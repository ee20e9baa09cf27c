// SPDX-License-Identifier: MIT
// initialDeploymentText: bytes, time on air and energy of the initial deployment in one cell.
#include "charts/FleetFigureText.h"
#include "charts/Units.h"
#include <QCoreApplication>

namespace dpu::ui {

QString initialDeploymentText(const dpu::FleetMetrics& m)
{
    const QString bytes = Units::roundedBytes(static_cast<double>(m.initialDeploymentBytes));
    if (m.initialDeploymentBytes <= 0)
        return bytes;
    return QCoreApplication::translate("FleetFigureText", "%1 · %2, %3")
        .arg(bytes, Units::span(m.initialDeploymentAirtime), Units::joules(m.initialDeploymentEnergy));
}

} // namespace dpu::ui
