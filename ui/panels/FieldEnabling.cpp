// SPDX-License-Identifier: MIT
// FieldEnabling: enabling and tooltips of a form's widgets read from the plan field table's rules.
#include "panels/FieldEnabling.h"
#include "dpu/PlanFields.h"
#include <QComboBox>
#include <QStandardItemModel>
#include <QVariant>
#include <QWidget>

namespace dpu::ui {

namespace {

const char* const kBaseToolTip = "dpuBaseToolTip";

/// The widget's own tooltip, with the rule's sentence under it while the rule is off.
QString toolTipWith(const QString& base, const std::string& why)
{
    if (why.empty())
        return base;
    const QString off = QObject::tr("Not available: %1.").arg(QString::fromStdString(why));
    return base.isEmpty() ? off : base + QStringLiteral("\n\n") + off;
}

std::string whyOff(const FieldEnabling::Bound& b, const dpu::Plan& plan)
{
    if (b.choice.empty())
        return dpu::whyFieldOff(b.path, plan);
    std::string why;
    dpu::choiceApplies(b.path, b.choice, plan, &why);
    return why;
}

} // namespace

void FieldEnabling::add(const std::string& path, QWidget* widget, std::function<bool()> also)
{
    (void)dpu::fieldApplies(path, dpu::defaultPlan()); // a path the table lacks throws here, not later
    bound_.push_back({path, {}, widget, -1, std::move(also)});
}

void FieldEnabling::addChoice(const std::string& path, const std::string& choice, QWidget* widget)
{
    bound_.push_back({path, choice, widget, -1, {}});
}

void FieldEnabling::addChoiceItem(const std::string& path, const std::string& choice, QComboBox* combo, const QVariant& data)
{
    bound_.push_back({path, choice, combo, combo->findData(data), {}});
}

bool FieldEnabling::shouldEnable(const Bound& b, const dpu::Plan& plan)
{
    const bool applies = b.choice.empty() ? dpu::fieldApplies(b.path, plan) : dpu::choiceApplies(b.path, b.choice, plan);
    return applies && (!b.also || b.also());
}

void FieldEnabling::apply(const dpu::Plan& plan)
{
    for (const Bound& b : bound_) {
        if (!b.widget)
            continue;
        const bool on = shouldEnable(b, plan);
        const std::string why = whyOff(b, plan);
        if (b.item >= 0) {
            auto* model = qobject_cast<QStandardItemModel*>(static_cast<QComboBox*>(b.widget.data())->model());
            QStandardItem* item = model ? model->item(b.item) : nullptr;
            if (!item)
                continue;
            if (!item->data(Qt::UserRole + 100).isValid())
                item->setData(item->toolTip(), Qt::UserRole + 100);
            item->setEnabled(on);
            item->setToolTip(toolTipWith(item->data(Qt::UserRole + 100).toString(), why));
            continue;
        }
        if (!b.widget->property(kBaseToolTip).isValid())
            b.widget->setProperty(kBaseToolTip, b.widget->toolTip());
        b.widget->setEnabled(on);
        b.widget->setToolTip(toolTipWith(b.widget->property(kBaseToolTip).toString(), why));
    }
}

} // namespace dpu::ui
