// SPDX-License-Identifier: MIT
// PlanTrainingRows: the plan form's training rows: epochs and learning rate, λ and the optimiser, seeds and the device.
#pragma once
#include "dpu/Plan.h"
#include <QHash>
#include <QObject>
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace dpu::ui {

class FieldErrorMarks;

/// Two fields to a row, so that the form fits a 768-pixel-high screen without scrolling; each
/// row's label (and its mnemonic) belongs to its first field, and Tab visits the fields in the
/// order they are shown.
class PlanTrainingRows : public QObject {
    Q_OBJECT
public:
    /// Adds the three rows to `form` (widgets are children of the form's widget), each with its error line.
    PlanTrainingRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    /// Shows the plan's λ, epochs, learning rate, optimiser, seeds and device.
    void setFrom(const dpu::Plan& plan);
    /// Writes them into `plan` (of the seeds text, the numbers it holds).
    void writeTo(dpu::Plan& plan) const;
    /// The seeds text's first part that is not a non-negative integer, as a reason; empty when fine.
    QString seedsProblem() const;

    /// The plan paths the rows edit, each with its widget.
    QHash<QString, QWidget*> fields() const;

Q_SIGNALS:
    /// A field changed.
    void edited(QObject* field);

private:
    /// One form row holding two fields: `first`, then `second` after its own label.
    static QWidget* pairRow(QWidget* box, QWidget* first, const QString& secondLabel, QWidget* second);
    /// Adds `row` under `label`, whose mnemonic focuses `first`.
    static void addPairRow(QFormLayout* form, const QString& label, QWidget* row, QWidget* first);
    /// The parts of the seeds text (separated by commas or spaces).
    QStringList seedParts() const;

    QSpinBox* epochs_;
    QDoubleSpinBox* lr_;
    QDoubleSpinBox* lambda_;
    QComboBox* optimizer_;
    QLineEdit* seeds_;
    QComboBox* device_;
};

} // namespace dpu::ui
