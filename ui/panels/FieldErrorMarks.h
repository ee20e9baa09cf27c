// SPDX-License-Identifier: MIT
// Marks invalid form fields where they are: red frame, the reason as tooltip and in a red line under the field.
#pragma once
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

namespace dpu {
class PlanError;
}

class QFormLayout;
class QLabel;
class QWidget;

namespace dpu::ui {

class FieldErrorMarks {
public:
    explicit FieldErrorMarks(QFormLayout* form) : form_(form) {}

    /// Appends a hidden error row to the form for these fields (e.g. the four spin boxes of the
    /// split share one); `names` prefix the reasons when several fields share the row. The
    /// label's object name is "fieldError_" + `name`.
    void addRow(const QString& name, const QList<QWidget*>& fields, const QStringList& names = {});
    /// Shows each (field, reason) at its field and clears every field not listed.
    void mark(const QList<QPair<QWidget*, QString>>& errors);
    /// A plan error's reason as a field shows it: its message without the leading "path: ".
    static QString reasonOf(const dpu::PlanError& error);
    /// The error line under a field (nullptr when it has none).
    QLabel* labelFor(QWidget* field) const { return labels_.value(field); }

private:
    void setFrame(QWidget* field, const QString& reason);
    void clearFrame(QWidget* field);

    QFormLayout* form_;
    QHash<QWidget*, QLabel*> labels_;
    QHash<QWidget*, QString> names_;
    QList<QWidget*> marked_;
};

} // namespace dpu::ui
