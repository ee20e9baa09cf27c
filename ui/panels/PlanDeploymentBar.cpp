// SPDX-License-Identifier: MIT
// PlanDeploymentBar: the plan's deployment in a line, or the tab's variation of it in words with the buttons that write it back or drop it.
#include "panels/PlanDeploymentBar.h"
#include "panels/DeploymentCompare.h"
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace dpu::ui {

PlanDeploymentBar::PlanDeploymentBar(const QString& prefix, QWidget* parent) : QWidget(parent)
{
    line_ = new QLabel(this);
    line_->setObjectName(prefix + QStringLiteral("Deployment"));
    line_->setWordWrap(true);
    line_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // No Alt letters: the window's are all taken (test_ui_use).
    use_ = new QPushButton(tr("Use in plan"), this);
    use_->setObjectName(prefix + QStringLiteral("UseInPlan"));
    reset_ = new QPushButton(tr("Reset to plan"), this);
    reset_->setObjectName(prefix + QStringLiteral("ResetToPlan"));
    reset_->setToolTip(tr("Show the plan's deployment again (Deployment… on the plan form edits it)"));
    // The line over the buttons: it sits over a tab's results, beside the inputs' column, whose
    // height it must not take (every input of the Budget tab stays in view at 1366x768).
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(use_);
    buttons->addWidget(reset_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(line_);
    layout->addLayout(buttons);
    connect(use_, &QPushButton::clicked, this, [this] {
        if (const std::optional<dpu::Deployment> fleet = forPlan())
            Q_EMIT useInPlan(*fleet);
    });
    connect(reset_, &QPushButton::clicked, this, &PlanDeploymentBar::resetToPlan);
    setVisible(false); // until a plan is given
    refresh();
}

void PlanDeploymentBar::setPlan(const dpu::Deployment& original, const dpu::Deployment& shown)
{
    original_ = original;
    shown_ = shown;
    now_ = shown;
    whyNot_.clear();
    hasPlan_ = true;
    setVisible(true);
    refresh();
}

void PlanDeploymentBar::compare(const std::optional<dpu::Deployment>& now, const QString& whyNotInPlan)
{
    now_ = now;
    whyNot_ = whyNotInPlan;
    refresh();
}

std::optional<dpu::Deployment> PlanDeploymentBar::forPlan() const
{
    if (!now_)
        return std::nullopt;
    return deploymentcompare::kept(original_, shown_, *now_);
}

QString PlanDeploymentBar::text() const
{
    return line_->text();
}

void PlanDeploymentBar::refresh()
{
    differences_ = now_ ? deploymentcompare::differences(shown_, *now_) : QStringList{whyNot_};
    differs_ = hasPlan_ && !differences_.isEmpty();
    use_->setVisible(differs_);
    reset_->setVisible(differs_);
    use_->setEnabled(now_.has_value());
    use_->setToolTip(now_ ? tr("Write this variation into the plan's deployment: the plan form, its readout and this "
                               "window's other views follow")
                          : whyNot_);
    // Short lines: the tab's results keep their height; the tooltips say the rest.
    if (differs_) {
        line_->setText(tr("<b>Exploring:</b> %1.").arg(differences_.join(QStringLiteral("; ")).toHtmlEscaped()));
        line_->setToolTip(tr("A variation of the plan's deployment (%1): the plan stays as it is until Use in plan")
                              .arg(deploymentcompare::summary(original_)));
    } else {
        line_->setText(tr("<b>The plan's deployment:</b> %1.").arg(deploymentcompare::summary(original_).toHtmlEscaped()));
        line_->setToolTip(tr("Deployment… on the plan form edits it, and this tab starts from it whenever it changes; "
                             "vary it here to explore, then Use in plan or Reset to plan"));
    }
}

} // namespace dpu::ui
