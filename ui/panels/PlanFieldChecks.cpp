// SPDX-License-Identifier: MIT
// PlanFieldChecks: the form's local checks, the engine's (dpu::validatePlan), the data's and the plan file's, marked at their fields.
#include "panels/PlanFieldChecks.h"
#include "dpu/DataFormats.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "dpu/PlanFields.h"
#include "panels/FieldErrorMarks.h"
#include "workers/ProbeWorker.h"
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QJsonObject>
#include <QJsonValue>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

PlanFieldChecks::PlanFieldChecks(QFormLayout* form, QWidget* parent)
    : QObject(parent), marks_(std::make_unique<FieldErrorMarks>(form))
{
    errorList_ = new QLabel(parent);
    errorList_->setObjectName(QStringLiteral("planErrors"));
    errorList_->setWordWrap(true);
    errorList_->setStyleSheet(QStringLiteral("color: #b00020;"));
}

PlanFieldChecks::~PlanFieldChecks() = default;

void PlanFieldChecks::mapFields(const QHash<QString, QWidget*>& own, const QList<QPair<QString, QWidget*>>& byPrefix)
{
    // Every described plan field (dpu::planFields()) is marked at one widget, or is advanced
    // (pathsWithoutField()); test_ui_fields holds the form to the engine's table.
    for (const dpu::PlanField& f : dpu::planFields()) {
        if (f.advanced) // kept in plan files only, even under a prefix the form marks (fleet.)
            continue;
        const QString path = QString::fromStdString(f.path);
        QWidget* field = own.value(path);
        for (auto it = byPrefix.begin(); !field && it != byPrefix.end(); ++it)
            if (path.startsWith(it->first))
                field = it->second;
        if (field)
            fields_.insert(path, field);
        else
            qWarning("plan field %s has no place in the form", qPrintable(path));
    }
}

QWidget* PlanFieldChecks::fieldFor(const QString& path) const
{
    // "strategies[2]" is marked where its list is; a path below a field ("dataset.normalise.std[0]")
    // where that field is.
    QString key = path.section(QLatin1Char('['), 0, 0);
    for (; !key.isEmpty(); key = key.section(QLatin1Char('.'), 0, -2))
        if (fields_.contains(key))
            return fields_.value(key);
    return nullptr;
}

QStringList PlanFieldChecks::pathsWithoutField()
{
    // The engine's table says which fields live in plan files only; their problems are listed
    // under the form.
    QStringList paths;
    for (const dpu::PlanField& f : dpu::planFields())
        if (f.advanced)
            paths << QString::fromStdString(f.path);
    return paths;
}

void PlanFieldChecks::setFileProblems(const std::vector<dpu::PlanProblem>& problems, const QString& fileName)
{
    fileProblems_.clear();
    for (const dpu::PlanProblem& p : problems) {
        const QString path = QString::fromStdString(p.path);
        QString reason = tr("%1 in %2").arg(QString::fromStdString(p.message), fileName);
        if (!fieldFor(path))
            reason += tr(" (not in the form: fix it in the file and open it again)");
        fileProblems_.insert(path, reason);
    }
}

bool PlanFieldChecks::hasFileProblemAt(const QWidget* field) const
{
    const QStringList paths = fileProblems_.keys();
    return field && std::any_of(paths.begin(), paths.end(), [&](const QString& p) { return fieldFor(p) == field; });
}

void PlanFieldChecks::showFileNumbers(const QJsonObject& file)
{
    const QStringList paths = fileProblems_.keys();
    for (const QString& path : paths) {
        QJsonValue v = file;
        for (const QString& key : path.split(QLatin1Char('.')))
            v = v.toObject().value(key);
        if (!v.isDouble())
            continue; // a string or a list: the default stays, the message quotes the file
        const double x = v.toDouble();
        QWidget* field = fieldFor(path);
        const QSignalBlocker block(field); // not an edit: the file's problem stays marked
        if (auto* d = qobject_cast<QDoubleSpinBox*>(field); d && x >= d->minimum() && x <= d->maximum())
            d->setValue(x);
        else if (auto* i = qobject_cast<QSpinBox*>(field); i && x == std::floor(x) && std::abs(x) <= 1e9) {
            // Beside its refusal the field shows the file's number ("rounds -5"), not the default
            // the plan kept: its range widens to hold it, as k's does; the mark says what is allowed.
            i->setRange(std::min(i->minimum(), static_cast<int>(x)), std::max(i->maximum(), static_cast<int>(x)));
            i->setValue(static_cast<int>(x));
        }
    }
}

void PlanFieldChecks::dropFileProblemsOf(QObject* edited)
{
    auto* widget = qobject_cast<QWidget*>(edited);
    for (auto it = fileProblems_.begin(); widget && it != fileProblems_.end();) {
        QWidget* owner = fieldFor(it.key());
        if (owner && (owner == widget || owner->isAncestorOf(widget)))
            it = fileProblems_.erase(it);
        else
            ++it;
    }
}

void PlanFieldChecks::check(const dpu::Plan& p, const Findings& form)
{
    errors_.clear();
    // Local checks the engine only finds at run time, or cannot see (unparsed text).
    if (!form.seedsProblem.isEmpty())
        errors_.insert(QStringLiteral("seeds"), form.seedsProblem);
    checkData(p, form);
    if (!form.modelProblem.isEmpty())
        errors_.insert(QStringLiteral("model"), form.modelProblem);
    try {
        dpu::validatePlan(p);
    } catch (const dpu::PlanError& e) {
        const QString path = QString::fromStdString(e.path());
        if (!errors_.contains(path))
            errors_.insert(path, FieldErrorMarks::reasonOf(e));
    }
    // What the plan file got wrong stays marked until the field is edited, in the file's words
    // (naming it) even where the field now shows the file's value and the form's check finds it too.
    for (auto it = fileProblems_.begin(); it != fileProblems_.end(); ++it)
        errors_.insert(it.key(), it.value());
    markErrors();
}

void PlanFieldChecks::checkData(const dpu::Plan& p, const Findings& form)
{
    // A typed path is read with the kind shown until its own is detected: that kind's error
    // would be shown for a moment (or for the seconds a big folder takes), so none is, unless
    // nothing is there, which no kind changes.
    const bool kindKnown = !form.detectingKind || !QFileInfo::exists(QString::fromStdString(p.dataset.path));
    if (p.dataset.path.empty() || !kindKnown)
        return;
    const QString problem = QString::fromStdString(dpu::quickDataCheck(p.dataset.kind, p.dataset.path));
    if (!problem.isEmpty()) {
        errors_.insert(QStringLiteral("dataset.path"), problem);
        return;
    }
    if (dpu::dataFormat(p.dataset.kind).sizedFromHeaders)
        checkSplitAgainstData(p);
    if (form.probe)
        addProbeErrors(p, *form.probe); // not read yet: the run itself still checks every byte
}

void PlanFieldChecks::checkSplitAgainstData(const dpu::Plan& p)
{
    // The engine's own rule on the dataset's real size, so Run is refused here instead of the
    // run stopping early (headers only: microseconds, fine on every edit).
    try {
        dpu::checkSplitFits(p, dpu::readDatasetSize(p.dataset));
    } catch (const dpu::PlanError& e) {
        errors_.insert(QString::fromStdString(e.path()), FieldErrorMarks::reasonOf(e));
    } catch (const dpu::Error& e) {
        errors_.insert(QStringLiteral("dataset.path"), QString::fromStdString(e.what()));
    }
}

void PlanFieldChecks::addProbeErrors(const dpu::Plan& p, const ProbeResult& r)
{
    if (!r.error.empty()) {
        if (!errors_.contains(QStringLiteral("dataset.path")))
            errors_.insert(QStringLiteral("dataset.path"), QString::fromStdString(r.error));
        return;
    }
    if (!dpu::dataFormat(p.dataset.kind).sizedFromHeaders) {
        // The IDX and CIFAR sizes come from their headers as the user types; these from the probe.
        try {
            dpu::checkSplitFits(p, {r.probe.train, r.probe.test});
        } catch (const dpu::PlanError& e) {
            errors_.insert(QString::fromStdString(e.path()), FieldErrorMarks::reasonOf(e));
        }
    }
    for (const ModelFit& fit : r.fits)
        if (fit.model == p.model && !fit.problem.empty() && !errors_.contains(QStringLiteral("model")))
            errors_.insert(QStringLiteral("model"), QString::fromStdString(fit.problem));
}

void PlanFieldChecks::markErrors()
{
    // At the field: red frame, tooltip and a line under it; the label below the form lists all
    // (also problems of fields the form does not show, e.g. train.batch from a plan file).
    QList<QPair<QWidget*, QString>> marks;
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        if (QWidget* w = fieldFor(it.key()))
            marks.append({w, it.value()});
    marks_->mark(marks);
    errorList_->setText(errorText());
    errorList_->setVisible(!errorList_->text().isEmpty()); // an empty line would still take its height
}

QString PlanFieldChecks::errorText() const
{
    QStringList lines;
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        lines << (it.key().isEmpty() ? it.value() : it.key() + QStringLiteral(": ") + it.value());
    return lines.join(QLatin1Char('\n'));
}

QString PlanFieldChecks::fieldError(const QString& path) const
{
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        if (fieldFor(it.key()) && fieldFor(it.key()) == fieldFor(path))
            return it.value();
    return {};
}

QLabel* PlanFieldChecks::errorLabelFor(const QString& path) const
{
    QWidget* w = fieldFor(path);
    return w ? marks_->labelFor(w) : nullptr;
}

} // namespace dpu::ui
