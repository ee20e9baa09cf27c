// SPDX-License-Identifier: MIT
// Where the window keeps what it makes by default: runs and sweeps under one folder of its own.
#pragma once
#include <QStandardPaths>
#include <QString>

namespace dpu::ui {

/// ~/.local/share/dpu-planner (the platform's data folder and the program's name): runs/ and
/// sweeps/ go there unless the user picks another place. Not AppDataLocation, which joins the
/// organisation and the application ("DPU Planner/dpu-planner", the name twice).
inline QString appDataFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/dpu-planner");
}

} // namespace dpu::ui
