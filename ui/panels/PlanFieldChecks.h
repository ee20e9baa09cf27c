// SPDX-License-Identifier: MIT
// PlanFieldChecks: the plan form's problems (its own checks, the engine's, the data's, the plan file's) and where each is marked.
#pragma once
#include "dpu/Plan.h"
#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

class QFormLayout;
class QJsonObject;
class QLabel;
class QWidget;

namespace dpu::ui {

class FieldErrorMarks;
struct ProbeResult;

/// Finds what keeps the plan on the form from running and marks each problem at the widget
/// that edits its plan path (red frame, tooltip, a line under the field) and in one list under
/// the form. Knows which widget edits which path; keeps a plan file's problems until their
/// field is edited. Holds no widget of the form's fields: the sections give theirs.
class PlanFieldChecks : public QObject {
    Q_OBJECT
public:
    /// What the form knows beyond the plan it states.
    struct Findings {
        QString seedsProblem;               ///< the seeds text that is not a list of numbers, or empty
        QString modelProblem;               ///< why the model cannot be described, or empty
        bool detectingKind = false;         ///< the kind shown may be stale (the path's is being detected)
        const ProbeResult* probe = nullptr; ///< the data shown as read, or nullptr (not read yet)
    };

    /// The field rows' error lines go into `form` (FieldErrorMarks); the list is errorList(),
    /// a child of `parent` for its owner to place.
    PlanFieldChecks(QFormLayout* form, QWidget* parent);
    ~PlanFieldChecks() override;

    /// Where the sections add each row's error line as they build their rows.
    FieldErrorMarks& marks() { return *marks_; }
    /// The red list of every problem under the form (hidden when there is none).
    QLabel* errorList() const { return errorList_; }

    /// Places every described plan field (dpu::planFields()): at its widget in `own`, else at the
    /// widget of the first prefix of `byPrefix` it starts with, else nowhere when it is advanced.
    void mapFields(const QHash<QString, QWidget*>& own, const QList<QPair<QString, QWidget*>>& byPrefix);
    /// The widget that edits a plan path (nullptr when the form does not show it).
    QWidget* fieldFor(const QString& path) const;
    /// The described plan fields the form deliberately has no widget for.
    static QStringList pathsWithoutField();

    /// Keeps what a plan file got wrong (dpu::recoverPlan's problems), naming `fileName`.
    void setFileProblems(const std::vector<dpu::PlanProblem>& problems, const QString& fileName);
    /// Forgets the plan file's problems (another plan is shown).
    void clearFileProblems() { fileProblems_.clear(); }
    /// Whether a plan file's problem is marked at `field`.
    bool hasFileProblemAt(const QWidget* field) const;
    /// Shows the file's number in each number field marked with a file problem, where it can hold it.
    void showFileNumbers(const QJsonObject& file);
    /// Drops the file problems of the field `edited` (or of the row holding it).
    void dropFileProblemsOf(QObject* edited);

    /// Checks `plan` (the form's findings, the data's size, dpu::validatePlan, the file's
    /// problems) and marks what it finds.
    void check(const dpu::Plan& plan, const Findings& form);
    bool hasErrors() const { return !errors_.isEmpty(); }
    /// "path: reason" of every problem found by the last check(), one per line.
    QString errorText() const;
    /// The reason shown at the field owning a plan path; empty when fine.
    QString fieldError(const QString& path) const;
    /// The red line under the field of a plan path (hidden when fine).
    QLabel* errorLabelFor(const QString& path) const;

private:
    /// The data at the plan's path: the reader's quick check, the split against its size, the probe's findings.
    void checkData(const dpu::Plan& plan, const Findings& form);
    /// Marks the split fields the dataset on disk cannot hold (dpu::checkSplitFits, headers only).
    void checkSplitAgainstData(const dpu::Plan& plan);
    /// The probe's errors (the reader's, the split's, the model's).
    void addProbeErrors(const dpu::Plan& plan, const ProbeResult& probe);
    void markErrors();

    std::unique_ptr<FieldErrorMarks> marks_;
    QLabel* errorList_;
    QHash<QString, QWidget*> fields_;     // plan field path -> the widget that shows it (mapFields)
    QMap<QString, QString> errors_;       // plan path -> reason
    QMap<QString, QString> fileProblems_; // plan path -> reason, from the plan file last opened
};

} // namespace dpu::ui
