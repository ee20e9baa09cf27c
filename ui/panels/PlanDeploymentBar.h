// SPDX-License-Identifier: MIT
// The line atop the Fleet and Budget tabs: the plan's deployment they start from, or what the tab explores instead of it, with Use in plan and Reset to plan.
#pragma once
#include "dpu/Plan.h"
#include <QString>
#include <QWidget>
#include <optional>

class QLabel;
class QPushButton;

namespace dpu::ui {

/// A tab holds its own copy of no deployment: it starts from the plan's (setPlan()), may vary it
/// to explore, and this line says which. Hidden until a plan is given (a tab on its own).
class PlanDeploymentBar : public QWidget {
    Q_OBJECT
public:
    /// `prefix` names the widgets: <prefix>Deployment (the line), <prefix>UseInPlan and
    /// <prefix>ResetToPlan (the buttons, shown while the tab differs from the plan).
    explicit PlanDeploymentBar(const QString& prefix, QWidget* parent = nullptr);

    /// The plan's fleet keys as given (`original`) and as the tab's widgets read them right
    /// after showing them (`shown`: SF 0 reads as SF7); compare() then says what the tab states.
    void setPlan(const dpu::Deployment& original, const dpu::Deployment& shown);
    bool hasPlan() const { return hasPlan_; }
    /// The plan's keys as given to setPlan().
    const dpu::Deployment& plan() const { return original_; }
    /// What the tab states now. nullopt: a state no plan holds, which `whyNotInPlan` names: Use
    /// in plan is off and says why.
    void compare(const std::optional<dpu::Deployment>& now, const QString& whyNotInPlan = QString());
    /// The tab states another deployment than the plan's.
    bool differs() const { return differs_; }
    /// The keys Use in plan writes: the tab's values where they differ from the plan's, the
    /// plan's own elsewhere (deploymentcompare::kept); nullopt for a state no plan holds.
    std::optional<dpu::Deployment> forPlan() const;
    /// The line as shown (rich text).
    QString text() const;
    /// The differences in words ("SF10 instead of the plan's FUOTASim mix", ...); empty when the
    /// tab states the plan's deployment.
    const QStringList& differences() const { return differences_; }

Q_SIGNALS:
    /// Use in plan: the plan's fleet keys become `fleet` (forPlan()).
    void useInPlan(const dpu::Deployment& fleet);
    /// Reset to plan: the tab shows the plan's deployment again.
    void resetToPlan();

private:
    void refresh();

    QLabel* line_;
    QPushButton* use_;
    QPushButton* reset_;
    dpu::Deployment original_;
    dpu::Deployment shown_;
    std::optional<dpu::Deployment> now_;
    QString whyNot_;
    QStringList differences_;
    bool hasPlan_ = false;
    bool differs_ = false;
};

} // namespace dpu::ui
