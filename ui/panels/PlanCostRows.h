// SPDX-License-Identifier: MIT
// PlanCostRows: the plan form's updating ratio k (spin box and logarithmic slider) and what a round costs (the cost readout, with the plan's Deployment… on its link row).
#pragma once
#include "dpu/Plan.h"
#include <QHash>
#include <QObject>
#include <QString>

class QDoubleSpinBox;
class QFormLayout;
class QSlider;
class QToolButton;
class QWidget;

namespace dpu::ui {

class CostReadout;
class FieldEnabling;
class FieldErrorMarks;

/// The k row and the cost readout under it. The spin box is k's source of truth; the slider
/// proposes rounded values on a logarithmic scale and follows the spin box. The Deployment…
/// button (the plan's link and fleet keys) sits at the end of the readout's Link row; its tooltip says
/// what they are, and the owner opens the dialog on fleetClicked().
class PlanCostRows : public QObject {
    Q_OBJECT
public:
    /// Adds the k row and the readout to `form` (widgets are children of the form's widget).
    PlanCostRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    double k() const;
    /// Sets k as the user would (the slider and the readout follow when it changes).
    void setK(double k);
    /// Shows a plan's k: as setK(), and the slider and readout follow even when k is unchanged.
    void showPlanK(double k);
    /// The readout under k: bytes per round, ratio to full updating, one device's session.
    CostReadout* readout() const { return cost_; }
    /// The Deployment… button's tooltip: the plan's fleet in words.
    void showFleet(const dpu::Deployment& fleet);
    /// Binds k's spin box and slider to the plan's `k` (the field table's rules).
    void bindRules(FieldEnabling& enabling) const;

    /// The plan paths marked here ("k" at its spin box).
    QHash<QString, QWidget*> fields() const;
    /// Where the plan's fleet.* keys are marked: the Deployment… button.
    QWidget* fleetField() const;

    /// Maps k in [0.0005, 1] to the slider's 0..1000 and back (logarithmic).
    static int sliderPosForK(double k);
    static double kForSliderPos(int pos);

Q_SIGNALS:
    /// k changed (typed, slid or set); `field` is its spin box.
    void kChanged(QObject* field);
    /// Deployment… was clicked.
    void fleetClicked();

private:
    /// The slider and the readout follow the spin box.
    void onKSpinChanged(double k);
    /// The slider proposes a rounded k to the spin box.
    void onKSliderMoved(int pos);

    QDoubleSpinBox* k_;
    QSlider* kSlider_;
    CostReadout* cost_;
    QToolButton* fleet_; ///< Deployment…: the plan's link and fleet (PlanFleetDialog)
};

} // namespace dpu::ui
