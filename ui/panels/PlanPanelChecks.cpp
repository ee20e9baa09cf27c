// SPDX-License-Identifier: MIT
// PlanPanel's checks: local ones, the engine's (dpu::validatePlan), the data's; marked at their fields.
#include "panels/PlanPanel.h"
#include "dpu/DataFormats.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "dpu/PlanFields.h"
#include "panels/FieldErrorMarks.h"
#include <QToolButton>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

void PlanPanel::setFileProblems(const std::vector<dpu::PlanProblem>& problems, const QString& fileName)
{
    fileProblems_.clear();
    for (const dpu::PlanProblem& p : problems) {
        const QString path = QString::fromStdString(p.path);
        QString reason = tr("%1 in %2").arg(QString::fromStdString(p.message), fileName);
        if (!fieldFor(path))
            reason += tr(" (not in the form: fix it in the file and open it again)");
        fileProblems_.insert(path, reason);
    }
    validate();
}

void PlanPanel::showFileValues(const QJsonObject& file)
{
    const QStringList paths = fileProblems_.keys();
    for (const QString& path : paths) {
        if (fieldFor(path) == strategiesBox_ && file.value(QStringLiteral("strategies")).isArray()) {
            // The file's list with a name the engine does not know: its known names ticked, not
            // the default's (an unknown "foo" beside "dpu" left dpu, fu and rpu ticked).
            const QJsonArray listed = file.value(QStringLiteral("strategies")).toArray();
            for (auto it = strategies_.begin(); it != strategies_.end(); ++it) {
                const QSignalBlocker block(it.value());
                it.value()->setChecked(listed.contains(QJsonValue(it.key())));
            }
            continue;
        }
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
    validate();
}

void PlanPanel::dropFileProblemsOf(QObject* field)
{
    auto* widget = qobject_cast<QWidget*>(field);
    for (auto it = fileProblems_.begin(); widget && it != fileProblems_.end();) {
        QWidget* owner = fieldFor(it.key());
        if (owner && (owner == widget || owner->isAncestorOf(widget)))
            it = fileProblems_.erase(it);
        else
            ++it;
    }
}

bool PlanPanel::validate()
{
    const bool wasValid = lastValid_;
    errors_.clear();
    const dpu::Plan p = plan();
    // Local checks the engine only finds at run time, or cannot see (unparsed text).
    for (const QString& part : seeds_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        part.toULongLong(&ok);
        if (!ok) {
            errors_.insert(QStringLiteral("seeds"), tr("expected non-negative integers, found \"%1\"").arg(part));
            break;
        }
    }
    // A typed path is read with the kind shown until its own is detected: that kind's error
    // would be shown for a moment (or for the seconds a big folder takes), so none is, unless
    // nothing is there, which no kind changes.
    const bool kindKnown = !detectingKind() || !QFileInfo::exists(QString::fromStdString(p.dataset.path));
    if (!p.dataset.path.empty() && kindKnown) {
        const QString problem = QString::fromStdString(dpu::quickDataCheck(p.dataset.kind, p.dataset.path));
        if (!problem.isEmpty())
            errors_.insert(QStringLiteral("dataset.path"), problem);
        else if (dpu::dataFormat(p.dataset.kind).sizedFromHeaders)
            checkSplitAgainstData(p);
        if (problem.isEmpty())
            addProbeErrors(p);
    }
    if (!modelInfo_->property("error").toString().isEmpty())
        errors_.insert(QStringLiteral("model"), modelInfo_->property("error").toString());
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
    lastValid_ = isValid();
    if (wasValid != lastValid_)
        Q_EMIT validityChanged(lastValid_);
    return lastValid_;
}

QString PlanPanel::whyNotValid() const
{
    if (!errors_.isEmpty())
        return errorText();
    return detectingKind() ? tr("the data's kind is still being detected (reading %1)").arg(datasetPath_->text().trimmed())
                           : QString();
}

void PlanPanel::checkSplitAgainstData(const dpu::Plan& p)
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

QString PlanPanel::errorText() const
{
    QStringList lines;
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        lines << (it.key().isEmpty() ? it.value() : it.key() + QStringLiteral(": ") + it.value());
    return lines.join(QLatin1Char('\n'));
}

QString PlanPanel::fieldError(const QString& path) const
{
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        if (fieldFor(it.key()) && fieldFor(it.key()) == fieldFor(path))
            return it.value();
    return {};
}

QWidget* PlanPanel::fieldFor(const QString& path) const
{
    // "strategies[2]" is marked where its list is; a path below a field ("dataset.normalise.std[0]")
    // where that field is.
    QString key = path.section(QLatin1Char('['), 0, 0);
    for (; !key.isEmpty(); key = key.section(QLatin1Char('.'), 0, -2))
        if (fields_.contains(key))
            return fields_.value(key);
    return nullptr;
}

QStringList PlanPanel::pathsWithoutField()
{
    // The engine's table says which fields live in plan files only; their problems are listed
    // under the form.
    QStringList paths;
    for (const dpu::PlanField& f : dpu::planFields())
        if (f.advanced)
            paths << QString::fromStdString(f.path);
    return paths;
}

void PlanPanel::mapFields()
{
    // Every described plan field (dpu::planFields()) is marked at one widget, or is advanced
    // (pathsWithoutField()); test_ui_fields holds the form to the engine's table.
    const QHash<QString, QWidget*> own{
        {QStringLiteral("name"), name_}, {QStringLiteral("model"), model_},
        {QStringLiteral("dataset.kind"), datasetKind_}, {QStringLiteral("dataset.normalise"), normalise_},
        {QStringLiteral("dataset.augment.crop_padding"), cropPadding_}, {QStringLiteral("dataset.augment.flip"), cropPadding_},
        {QStringLiteral("split.initial"), initial_}, {QStringLiteral("split.per_round"), perRound_},
        {QStringLiteral("split.rounds"), rounds_}, {QStringLiteral("split.validation"), validation_},
        {QStringLiteral("strategies"), strategiesBox_}, {QStringLiteral("k"), k_}, {QStringLiteral("lambda"), lambda_},
        {QStringLiteral("train.epochs"), epochs_}, {QStringLiteral("train.lr"), lr_},
        {QStringLiteral("train.optimizer"), optimizer_}, {QStringLiteral("seeds"), seeds_}, {QStringLiteral("device"), device_},
        {QStringLiteral("bundle.values"), values_}, {QStringLiteral("bundle.quant_aware"), values_},
        {QStringLiteral("bundle.dense_tensors"), dense_}, {QStringLiteral("budget.bytes_per_round"), budget_},
        {QStringLiteral("budget.bytes_total"), budget_}, {QStringLiteral("mode"), method_},
        {QStringLiteral("reinit"), method_}, {QStringLiteral("reinit_every"), method_},
        {QStringLiteral("fu_start"), method_}, {QStringLiteral("rewind"), method_},
        {QStringLiteral("deployed"), method_}, {QStringLiteral("deployed_sparsity"), method_}};
    const QStringList none = pathsWithoutField();
    for (const dpu::PlanField& f : dpu::planFields()) {
        const QString path = QString::fromStdString(f.path);
        if (own.contains(path))
            fields_.insert(path, own.value(path));
        else if (path.startsWith(QLatin1String("dataset.")))
            fields_.insert(path, datasetPath_); // the data's own keys: where the data is named
        else if (path.startsWith(QLatin1String("fleet.")))
            fields_.insert(path, fleet_); // the link and fleet: the Fleet… dialog beside the link
        else if (!none.contains(path))
            qWarning("plan field %s has no place in the form", qPrintable(path));
    }
}

void PlanPanel::markErrors()
{
    // At the field: red frame, tooltip and a line under it; the label below the form lists all
    // (also problems of fields the form does not show, e.g. train.batch from a plan file).
    QList<QPair<QWidget*, QString>> marks;
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        if (QWidget* w = fieldFor(it.key()))
            marks.append({w, it.value()});
    marks_->mark(marks);
    errorLabel_->setText(errorText());
    errorLabel_->setVisible(!errorLabel_->text().isEmpty()); // an empty line would still take its height
}

QLabel* PlanPanel::errorLabelFor(const QString& path) const
{
    QWidget* w = fieldFor(path);
    return w ? marks_->labelFor(w) : nullptr;
}

} // namespace dpu::ui
