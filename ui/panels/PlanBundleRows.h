// SPDX-License-Identifier: MIT
// PlanBundleRows: the plan form's bundle rows (value coding, quantisation-aware, the biases' treatment) and its byte budget (per round or per run).
#pragma once
#include "dpu/Plan.h"
#include <QHash>
#include <QObject>
#include <QString>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QSpinBox;
class QWidget;

namespace dpu::ui {

class FieldEnabling;
class FieldErrorMarks;

/// The plan's `bundle` and `budget` keys: how the changed weights travel, and the bytes a round
/// (or the whole run) may ship instead of k. The rows carry no mnemonics: every letter of their
/// names is taken in the main window.
class PlanBundleRows : public QObject {
    Q_OBJECT
public:
    /// Adds the Bundle values, Biases and Budget rows to `form` (widgets are children of the
    /// form's widget), each with its error line.
    PlanBundleRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    /// Shows the plan's bundle and budget (a plan with both budgets shows the per-round one).
    void setFrom(const dpu::Plan& plan);
    /// Writes the rows' bundle and budget into `plan`.
    void writeTo(dpu::Plan& plan) const;
    /// Shows what dpu::clearInapplicable() put back (coding, its switches, the budget), without
    /// reporting edits.
    void showCleared(const dpu::Plan& cleared);
    /// Binds the rows to their plan fields and the biases' "coded" item to its choice.
    void bindRules(FieldEnabling& enabling) const;

    /// The plan paths the rows edit, each with its widget.
    QHash<QString, QWidget*> fields() const;

Q_SIGNALS:
    /// The coding or the budget changed: what applies elsewhere may change with it.
    void ruleEdited(QObject* field);
    /// Quantisation-aware, the biases or the budget's unit changed.
    void edited(QObject* field);

private:
    void addValuesRows(QFormLayout* form, FieldErrorMarks& marks);
    void addBudgetRow(QFormLayout* form, FieldErrorMarks& marks);

    QComboBox* values_;
    QCheckBox* quantAware_;
    QComboBox* dense_;
    QSpinBox* budget_;
    QComboBox* budgetUnit_; ///< "round" or "run": which budget the spin box sets
};

} // namespace dpu::ui
