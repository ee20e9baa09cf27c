// SPDX-License-Identifier: MIT
// The plan's deployment (its fleet.* keys) edited in a dialog, the one place the window edits it: the Fleet tab's rows (link, fleet, server policy, processor).
#pragma once
#include "dpu/Plan.h"
#include <QDialog>

namespace dpu::ui {

class FleetInputs;

class PlanFleetDialog : public QDialog {
    Q_OBJECT
public:
    explicit PlanFleetDialog(QWidget* parent = nullptr);

    /// Shows a plan's fleet keys (a mix of its own as written, in the SF list).
    void setFleet(const dpu::Deployment& fleet);
    /// The fleet keys the rows state; each key given to setFleet() as it was while its row did
    /// not change (a plan opened and confirmed keeps its bytes: SF 0 shows as SF7, and stays 0).
    dpu::Deployment fleet() const;
    FleetInputs* inputs() const { return inputs_; }

private:
    FleetInputs* inputs_;
    dpu::Deployment original_; ///< as given to setFleet()
    dpu::Deployment shown_;    ///< what the rows stated right after it
};

} // namespace dpu::ui
