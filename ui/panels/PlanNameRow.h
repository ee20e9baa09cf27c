// SPDX-License-Identifier: MIT
// PlanNameRow: the plan form's name: one typed stays, else it follows the model, the data and k.
#pragma once
#include "dpu/Plan.h"
#include <QObject>
#include <QString>

class QFormLayout;
class QLineEdit;
class QWidget;

namespace dpu::ui {

class FieldErrorMarks;

/// The Name row. A name made from the fields (automaticName()) keeps following them; a name
/// typed stays until it is cleared, which hands the name back to the fields.
class PlanNameRow : public QObject {
    Q_OBJECT
public:
    /// Adds the row to `form` (its widget is a child of the form's widget) with its error line.
    PlanNameRow(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    /// "<data>-<model>-k<k>" (e.g. "fashion-mlp-k0.01"): core's rule, which sweep cells follow too.
    static QString automaticName(const dpu::Plan& plan);
    /// The name shown (trimmed).
    QString name() const;
    /// Shows the plan's name, which follows the fields when it is their automatic name; no edit reported.
    void setFrom(const dpu::Plan& plan);
    /// Whether the name follows the fields.
    bool follows() const { return follows_; }
    void setFollows(bool follows) { follows_ = follows; }
    /// Shows `plan`'s automatic name when the name follows; no edit reported (the caller reports its own).
    void follow(const dpu::Plan& plan);
    /// The line edit (the plan path "name" is marked there).
    QWidget* field() const;

Q_SIGNALS:
    /// The user typed (or cleared) the name.
    void edited(QObject* field);

private:
    QLineEdit* name_;
    bool follows_ = true;
};

} // namespace dpu::ui
