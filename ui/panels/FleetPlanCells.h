// SPDX-License-Identifier: MIT
// The Fleet plan tab's cells to run: the Run these cells… button, the sweep it builds from an answer, and the folder it went to.
#pragma once
#include "dpu/Sweep.h"
#include "workers/FleetPlanWorker.h"
#include <QObject>
#include <QString>

class QPushButton;
class QWidget;

namespace dpu::ui {

/// Run these cells… (Ctrl+Shift+Return within the tab: no Alt letter is free in the window) for
/// the cells nobody ran that the planner names (FleetPlan::cellsToRun).
class FleetPlanCells : public QObject {
    Q_OBJECT
public:
    /// The shortcut works within `owner` (the tab); the button is the caller's to lay out.
    explicit FleetPlanCells(QWidget* owner);

    QPushButton* button() const { return button_; }
    /// Enables the button exactly when `answer` is a finished plan (no error, not cancelled)
    /// naming cells to run and no search runs.
    void show(const FleetPlanAnswer& answer, bool busy);
    /// The cells as one listed-cells sweep (dpu::fleetPlanSweep() over the answer's plan,
    /// strategies and runs). Throws dpu::Error naming what is wrong (no cell, a run not planned over).
    static dpu::Sweep sweepOf(const FleetPlanAnswer& answer);

    /// The sweep folder the cells were last sent to.
    void setSentSweep(const QString& dir) { sent_ = dir; }
    /// Whether `dir` is that folder (however the path is written); false when none was sent.
    bool isSentSweep(const QString& dir) const;

Q_SIGNALS:
    /// The button was pressed or its shortcut used while enabled.
    void triggered();

private:
    QPushButton* button_;
    QString sent_;
};

} // namespace dpu::ui
