// SPDX-License-Identifier: MIT
// PlanDataRows: the plan form's data rows: the dataset (kind, path, Browse, what it holds), its preprocessing and its split over rounds.
#pragma once
#include "dpu/Plan.h"
#include <QHash>
#include <QObject>
#include <QString>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QWidget;

namespace dpu::ui {

class FieldErrorMarks;
struct ProbeResult;

/// The rows of the plan's `dataset` and `split` keys. The kind is mostly detected from the path
/// (the form's probe reads it); the line under the path summarises what the data holds.
class PlanDataRows : public QObject {
    Q_OBJECT
public:
    /// Adds the Dataset, Normalise and Split rows to `form` (widgets are children of the form's
    /// widget), each with its error line.
    PlanDataRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    /// Shows the plan's dataset and split ("the plan's mean/std" offered only when it has them).
    void setFrom(const dpu::Plan& plan);
    /// Writes the rows' dataset kind, path, preprocessing and split into `plan`.
    void writeTo(dpu::Plan& plan) const;

    dpu::DataKind kind() const;
    /// Shows the kind the probe detected, without reporting an edit.
    void showKind(dpu::DataKind kind);
    /// The path as typed (trimmed).
    QString path() const;
    /// Sets the path as picking it would (pathChanged follows).
    void setPath(const QString& path);
    /// The summary under the path: what `probed` read (nullptr: nothing read, or "reading the
    /// data…" while `reading`); the reader's error is shown at the path itself.
    void showSummary(const ProbeResult* probed, bool reading);

    /// The plan paths the rows edit, each with its widget.
    QHash<QString, QWidget*> fields() const;
    /// Where the data's other keys (dataset.*) are marked: the path, where the data is named.
    QWidget* pathField() const;

Q_SIGNALS:
    /// The user chose another kind: read the data that way.
    void kindChanged(QObject* field);
    /// The path changed (typed or picked): detect its kind and read it.
    void pathChanged(QObject* field);
    /// Preprocessing or split changed.
    void edited(QObject* field);

private:
    void addDatasetRows(QFormLayout* form, FieldErrorMarks& marks);
    /// Normalisation and the seeded augmentations, on one row.
    void addPreprocessRow(QFormLayout* form, FieldErrorMarks& marks);
    void addSplitRows(QFormLayout* form, FieldErrorMarks& marks);
    void browse(bool file);

    QWidget* box_;
    QComboBox* kind_;
    QLineEdit* path_;
    QPushButton* browse_;
    QLabel* info_;
    QComboBox* normalise_;
    QSpinBox* cropPadding_;
    QCheckBox* flip_;
    QSpinBox* initial_;
    QSpinBox* perRound_;
    QSpinBox* rounds_;
    QSpinBox* validation_;
};

} // namespace dpu::ui
