// SPDX-License-Identifier: MIT
// FieldEnabling: a form's widgets switched on and off by the plan's rules as data (dpu::fieldApplies), with the rule's words.
#pragma once
#include "dpu/Plan.h"
#include <QPointer>
#include <QString>
#include <QVariant>
#include <functional>
#include <string>
#include <vector>

class QComboBox;
class QWidget;

namespace dpu::ui {

/// Binds a form's widgets to plan fields (or one choice of a field) and enables each where the
/// engine's field table says the field applies; a disabled widget's tooltip adds the rule's
/// sentence. The form keeps no rule of its own: test_ui_plan_dialogs compares every binding with
/// the table.
class FieldEnabling {
public:
    /// One widget (or one item of a combo box) and the field it edits.
    struct Bound {
        std::string path;
        std::string choice;     ///< "" for the field; else the choice this widget or item offers
        QPointer<QWidget> widget;
        int item = -1;          ///< the combo box item of `choice`, or -1 for the whole widget
        std::function<bool()> also; ///< a condition of the widget's own (a spin box beside "every n")
    };

    /// `widget` edits the field at `path`; `also`, when given, must hold too (the form's own state).
    void add(const std::string& path, QWidget* widget, std::function<bool()> also = {});
    /// `widget` (a check box of a list) offers `choice` of the field at `path`.
    void addChoice(const std::string& path, const std::string& choice, QWidget* widget);
    /// The item of `combo` whose data is `data` offers `choice` of the field at `path`.
    void addChoiceItem(const std::string& path, const std::string& choice, QComboBox* combo, const QVariant& data);

    /// Enables each bound widget or item where its rule holds for `plan`, and says why where not.
    void apply(const dpu::Plan& plan);

    /// Whether `b` should be enabled for `plan` (the table's answer and the widget's own condition).
    static bool shouldEnable(const Bound& b, const dpu::Plan& plan);
    const std::vector<Bound>& bound() const { return bound_; }

private:
    std::vector<Bound> bound_;
};

} // namespace dpu::ui
