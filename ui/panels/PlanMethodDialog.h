// SPDX-License-Identifier: MIT
// The plan's method options (mode, re-initialisation, FU's start, rewinding, the deployed model's form) edited in a dialog: the paper's ablations, beside λ on the form.
#pragma once
#include "dpu/Plan.h"
#include "panels/FieldEnabling.h"
#include <QDialog>
#include <QString>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;

namespace dpu::ui {

class PlanMethodDialog : public QDialog {
    Q_OBJECT
public:
    explicit PlanMethodDialog(QWidget* parent = nullptr);

    /// Shows the plan's mode, reinit, reinit_every, fu_start, rewind, deployed and deployed_sparsity.
    void setPlan(const dpu::Plan& plan);
    /// Writes the seven keys the rows state into `plan`, then puts back to its default what no
    /// longer applies by the plan's rules (dpu::clearInapplicable: rewind_epochs leaves with the
    /// rewinding it shortens, reinit_every with single mode). Throws nothing.
    void applyTo(dpu::Plan& plan) const;
    /// The rows' bindings to the plan's fields, enabled by the field table's rules.
    const FieldEnabling& enabling() const { return enabling_; }
    /// The seven keys of `plan` in one line, for the form's button.
    static QString summary(const dpu::Plan& plan);

private:
    void addDeployedRow(QFormLayout* form);
    void updateEnabled();
    /// The rows' values over the plan last set, before clearing.
    dpu::Plan shown() const;

    QComboBox* mode_;
    QComboBox* reinit_;   ///< the rule, every n rounds, never
    QSpinBox* every_;
    QComboBox* fuStart_;
    QCheckBox* rewind_;
    QComboBox* deployed_;  ///< fp32 or sparse
    QSpinBox* sparsity_;   ///< percent of zeros per layer
    dpu::Plan base_;       ///< the plan last set: the rules read its other fields
    FieldEnabling enabling_;
};

} // namespace dpu::ui
