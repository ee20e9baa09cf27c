// SPDX-License-Identifier: MIT
// intSpin: the plan form's integer spin box (no group separators: sample counts and bytes are typed as digits).
#pragma once
#include <QSpinBox>

namespace dpu::ui {

/// A spin box over [lo, hi] without thousands separators.
inline QSpinBox* intSpin(QWidget* parent, int lo, int hi)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setGroupSeparatorShown(false);
    return s;
}

} // namespace dpu::ui
