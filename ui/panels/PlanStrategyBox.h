// SPDX-License-Identifier: MIT
// PlanStrategyBox: the plan form's strategies to compare, with the plan's Method… (mode and the paper's ablations) in its heading.
#pragma once
#include "dpu/Plan.h"
#include <QHash>
#include <QMap>
#include <QObject>
#include <QString>
#include <string>
#include <vector>

class QCheckBox;
class QFormLayout;
class QGroupBox;
class QToolButton;
class QWidget;

namespace dpu::ui {

class FieldEnabling;
class FieldErrorMarks;

/// One check box per strategy the engine knows (dpu::strategyNames()), three to a row, each
/// with a tooltip saying what it does; the heading's Method… button opens the plan's method
/// (its tooltip says what the method is; the owner opens the dialog on methodClicked()).
class PlanStrategyBox : public QObject {
    Q_OBJECT
public:
    /// Adds the heading and the box to `form` (widgets are children of the form's widget).
    PlanStrategyBox(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    /// The strategies ticked, in the engine's canonical order (saved plans compare equal).
    std::vector<std::string> chosen() const;
    /// Ticks exactly the strategies named (unknown names are ignored), without reporting edits.
    void setChosen(const std::vector<std::string>& names);
    /// The Method… button's tooltip: the plan's mode and ablations in words.
    void showMethod(const dpu::Plan& plan);
    /// Binds each check box to its choice of the plan's `strategies` (the field table's rules).
    void bindRules(FieldEnabling& enabling) const;

    /// The plan paths marked here: the list at the box, the method's keys at Method….
    QHash<QString, QWidget*> fields() const;

Q_SIGNALS:
    /// A strategy was ticked or unticked by the user.
    void edited(QObject* field);
    /// Method… was clicked.
    void methodClicked();

private:
    static QString strategyToolTip(const QString& name);

    QToolButton* method_; ///< mode, re-initialisation, FU's start, rewinding (PlanMethodDialog)
    QGroupBox* box_;
    QMap<QString, QCheckBox*> strategies_;
};

} // namespace dpu::ui
