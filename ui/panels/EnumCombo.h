// SPDX-License-Identifier: MIT
// Combo boxes over the plan's enums: each item's data is the value's plan-file name (dpu/PlanEnums.h).
#pragma once
#include "dpu/PlanEnums.h"
#include <QComboBox>
#include <QString>

namespace dpu::ui {

/// The enum value the combo shows; `fallback` when its data names none (an empty combo).
template <typename E> E comboValue(const QComboBox* combo, E fallback)
{
    return dpu::enumFromString<E>(combo->currentData().toString().toStdString()).value_or(fallback);
}

/// Shows `value` (the first item when the combo does not offer it).
template <typename E> void setComboValue(QComboBox* combo, E value)
{
    const int index = combo->findData(QString::fromStdString(dpu::nameOf(value)));
    combo->setCurrentIndex(index < 0 ? 0 : index);
}

/// Item data for `value`: its plan-file name.
template <typename E> QString comboData(E value)
{
    return QString::fromStdString(dpu::nameOf(value));
}

} // namespace dpu::ui
