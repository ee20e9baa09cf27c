// SPDX-License-Identifier: MIT
// PlanNameRow: the Name row, and whether the name follows the fields it is made of.
#include "panels/PlanNameRow.h"
#include "panels/FieldErrorMarks.h"
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>

namespace dpu::ui {

PlanNameRow::PlanNameRow(QFormLayout* form, FieldErrorMarks& marks, QObject* parent) : QObject(parent)
{
    name_ = new QLineEdit(form->parentWidget());
    name_->setObjectName(QStringLiteral("name"));
    name_->setToolTip(tr("Names the run and its output folder; follows the model, data and k until you type one"));
    form->addRow(tr("&Name"), name_);
    marks.addRow(QStringLiteral("name"), {name_});
    // A name typed keeps it; clearing it hands the name back to the model, data and k. The
    // row's own changes (setFrom(), follow()) block signals, so they do not land here.
    connect(name_, &QLineEdit::textChanged, this, [this](const QString& text) {
        follows_ = text.trimmed().isEmpty();
        Q_EMIT edited(name_);
    });
}

QString PlanNameRow::automaticName(const dpu::Plan& plan)
{
    return QString::fromStdString(dpu::automaticPlanName(plan));
}

QString PlanNameRow::name() const
{
    return name_->text().trimmed();
}

void PlanNameRow::setFrom(const dpu::Plan& plan)
{
    // A name that was made from the fields keeps following them; one chosen by hand stays.
    follows_ = QString::fromStdString(plan.name) == automaticName(plan);
    const QSignalBlocker block(name_);
    name_->setText(QString::fromStdString(plan.name));
}

void PlanNameRow::follow(const dpu::Plan& plan)
{
    if (!follows_)
        return;
    const QString name = automaticName(plan);
    if (name_->text() != name) {
        const QSignalBlocker block(name_);
        name_->setText(name);
    }
}

QWidget* PlanNameRow::field() const
{
    return name_;
}

} // namespace dpu::ui
