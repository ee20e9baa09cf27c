// SPDX-License-Identifier: MIT
// FieldErrorMarks: the reason next to the field as the user types, not only in a list below the form.
#include "panels/FieldErrorMarks.h"
#include "dpu/Error.h"
#include <QFormLayout>
#include <QLabel>
#include <QMap>
#include <QSet>
#include <QWidget>

namespace dpu::ui {

QString FieldErrorMarks::reasonOf(const dpu::PlanError& error)
{
    const QString path = QString::fromStdString(error.path());
    QString reason = QString::fromStdString(error.what());
    if (!path.isEmpty() && reason.startsWith(path + QStringLiteral(": ")))
        reason = reason.mid(path.size() + 2);
    return reason;
}

void FieldErrorMarks::addRow(const QString& name, const QList<QWidget*>& fields, const QStringList& names)
{
    auto* label = new QLabel(form_->parentWidget());
    label->setObjectName(QStringLiteral("fieldError_") + name);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #b00020; font-size: small;"));
    form_->addRow(QString(), label);
    form_->setRowVisible(label, false); // takes no space until there is something to say
    for (int i = 0; i < fields.size(); ++i) {
        labels_.insert(fields[i], label);
        if (i < names.size())
            names_.insert(fields[i], names[i]);
    }
}

void FieldErrorMarks::setFrame(QWidget* field, const QString& reason)
{
    if (!field->property("dpuInvalid").toBool())
        field->setProperty("dpuTip", field->toolTip());
    field->setProperty("dpuInvalid", true);
    const QString cls = QString::fromLatin1(field->metaObject()->className());
    field->setStyleSheet(QStringLiteral("%1 { border: 2px solid #d32f2f; }").arg(cls));
    field->setToolTip(reason);
}

void FieldErrorMarks::clearFrame(QWidget* field)
{
    if (!field->property("dpuInvalid").toBool())
        return;
    field->setStyleSheet(QString());
    field->setToolTip(field->property("dpuTip").toString());
    field->setProperty("dpuInvalid", false);
}

void FieldErrorMarks::mark(const QList<QPair<QWidget*, QString>>& errors)
{
    for (QWidget* w : marked_)
        clearFrame(w);
    marked_.clear();
    QMap<QLabel*, QStringList> lines;
    for (const auto& [field, reason] : errors) {
        setFrame(field, reason);
        marked_ << field;
        if (QLabel* label = labels_.value(field)) {
            const QString name = names_.value(field);
            lines[label] << (name.isEmpty() ? reason : name + QStringLiteral(": ") + reason);
        }
    }
    for (QLabel* label : QSet<QLabel*>(labels_.cbegin(), labels_.cend())) {
        const QString text = lines.value(label).join(QLatin1Char('\n'));
        if (label->text() != text)
            label->setText(text);
        form_->setRowVisible(label, !text.isEmpty());
    }
}

} // namespace dpu::ui
