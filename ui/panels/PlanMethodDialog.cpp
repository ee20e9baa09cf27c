// SPDX-License-Identifier: MIT
// PlanMethodDialog: the mode and the paper's ablations (re-initialisation, FU's start, rewinding) over a plan, OK to keep them.
#include "panels/PlanMethodDialog.h"
#include "dpu/DeployedForms.h"
#include "dpu/PlanFields.h"
#include "report/ReportText.h"
#include <QCheckBox>
#include <algorithm>
#include <cmath>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

namespace dpu::ui {

namespace {

enum class Reinit { Rule, Every, Never };

/// A row of a choice with its number beside it (re-initialise every n, the sparsity), the
/// label's mnemonic on the choice.
void addChoiceRow(QFormLayout* form, const QString& label, QComboBox* choice, QSpinBox* number)
{
    auto* row = new QHBoxLayout;
    row->addWidget(choice, 1);
    row->addWidget(number);
    auto* text = new QLabel(label, choice->parentWidget());
    text->setBuddy(choice);
    form->addRow(text, row);
}

} // namespace

PlanMethodDialog::PlanMethodDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("planMethodDialog"));
    setWindowTitle(tr("Method of the plan"));
    auto* layout = new QVBoxLayout(this);
    auto* about = new QLabel(tr("How the strategies train each round: the paper's choices by default, its appendix's "
                                "alternatives to compare against them (plan keys <b>mode</b>, <b>reinit</b>, "
                                "<b>reinit_every</b>, <b>fu_start</b>, <b>rewind</b>), and the form of the model on "
                                "the devices (<b>deployed</b>, <b>deployed_sparsity</b>)."),
                             this);
    about->setWordWrap(true);
    layout->addWidget(about);
    auto* form = new QFormLayout;
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("methodMode"));
    mode_->addItem(tr("Multi-round: every round updates the deployed model"), static_cast<int>(dpu::RunMode::Multi));
    mode_->addItem(tr("Single update: round 2 updates round 1's model once"), static_cast<int>(dpu::RunMode::Single));
    mode_->setToolTip(tr("Single mode trains the deployed model fully in round 1 and updates it once in round 2 "
                         "with iterative rewinding (20 % of the remaining weights per step), as the paper's Table 3"));
    form->addRow(tr("&Mode"), mode_);
    reinit_ = new QComboBox(this);
    reinit_->setObjectName(QStringLiteral("methodReinit"));
    reinit_->addItem(tr("By the paper's rule"), static_cast<int>(Reinit::Rule));
    reinit_->addItem(tr("Every n rounds"), static_cast<int>(Reinit::Every));
    reinit_->addItem(tr("Never"), static_cast<int>(Reinit::Never));
    reinit_->setToolTip(tr("When DPU, LCPU, dpu-memory and gcpu-reinit start over from the seeded random model: when "
                           "the data has grown enough to pay off (the paper's Sec. 4.2), every n rounds (its appendix "
                           "compares 1, 5, 10, 20), or never"));
    every_ = new QSpinBox(this);
    every_->setObjectName(QStringLiteral("methodReinitEvery"));
    every_->setRange(1, 100000);
    every_->setValue(5);
    every_->setPrefix(tr("n = "));
    addChoiceRow(form, tr("&Re-initialise"), reinit_, every_);
    fuStart_ = new QComboBox(this);
    fuStart_->setObjectName(QStringLiteral("methodFuStart"));
    fuStart_->addItem(tr("The same seeded random model (the paper)"), static_cast<int>(dpu::FuStart::Seeded));
    fuStart_->addItem(tr("A new random model each round"), static_cast<int>(dpu::FuStart::Fresh));
    fuStart_->addItem(tr("The last round's weights"), static_cast<int>(dpu::FuStart::Last));
    fuStart_->setToolTip(tr("Where full updating's training starts each round (the paper's appendix compares the three)"));
    form->addRow(tr("&FU starts from"), fuStart_);
    rewind_ = new QCheckBox(tr("Rewind iteratively in multi-round mode"), this);
    rewind_->setObjectName(QStringLiteral("methodRewind"));
    rewind_->setToolTip(tr("DPU, GCPU and LCPU reach k in steps of 20 % of the remaining weights with a fine-tune each, "
                           "as single mode always does, instead of one top-k mask (several times the training time)"));
    form->addRow(QString(), rewind_);
    addDeployedRow(form);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    enabling_.add("mode", mode_);
    enabling_.add("reinit", reinit_);
    // The count is the plan's only while the choice beside it says "every n rounds".
    enabling_.add("reinit_every", every_, [this] { return reinit_->currentData().toInt() == static_cast<int>(Reinit::Every); });
    enabling_.add("fu_start", fuStart_);
    enabling_.add("rewind", rewind_);
    enabling_.add("deployed", deployed_);
    enabling_.add("deployed_sparsity", sparsity_);
    connect(mode_, &QComboBox::currentIndexChanged, this, &PlanMethodDialog::updateEnabled);
    connect(reinit_, &QComboBox::currentIndexChanged, this, &PlanMethodDialog::updateEnabled);
    connect(deployed_, &QComboBox::currentIndexChanged, this, &PlanMethodDialog::updateEnabled);
    setMinimumWidth(480);
    updateEnabled();
}

void PlanMethodDialog::addDeployedRow(QFormLayout* form)
{
    deployed_ = new QComboBox(this);
    deployed_->setObjectName(QStringLiteral("methodDeployed"));
    // One item per deployed form, in its words (dpu/DeployedForms.h); the tooltip is their help
    // and which of them nothing re-initialises.
    QStringList help, kept;
    for (const dpu::DeployedFormInfo& f : dpu::deployedForms()) {
        deployed_->addItem(QString::fromStdString(f.choiceLabel), static_cast<int>(f.form));
        if (!f.choiceHelp.empty())
            help << QString::fromStdString(f.choiceHelp);
        if (f.keepsItsForm())
            kept << QString::fromStdString(f.shortName);
    }
    help << tr("Nothing re-initialises a %1 model.").arg(kept.join(tr(" or ")));
    deployed_->setToolTip(help.join(QLatin1Char('\n')));
    sparsity_ = new QSpinBox(this);
    sparsity_->setObjectName(QStringLiteral("methodSparsity"));
    sparsity_->setRange(1, 99);
    sparsity_->setValue(50);
    sparsity_->setSuffix(tr(" % zeros"));
    sparsity_->setToolTip(tr("The share of each layer's weights that are zero (the paper: 50 %)"));
    addChoiceRow(form, tr("&Deployed model"), deployed_, sparsity_);
}

void PlanMethodDialog::setPlan(const dpu::Plan& plan)
{
    base_ = plan;
    mode_->setCurrentIndex(std::max(0, mode_->findData(static_cast<int>(plan.mode))));
    const Reinit r = !plan.reinit ? Reinit::Never : plan.reinitEvery > 0 ? Reinit::Every : Reinit::Rule;
    reinit_->setCurrentIndex(reinit_->findData(static_cast<int>(r)));
    if (plan.reinitEvery > 0)
        every_->setValue(plan.reinitEvery);
    fuStart_->setCurrentIndex(std::max(0, fuStart_->findData(static_cast<int>(plan.fuStart))));
    rewind_->setChecked(plan.rewind);
    deployed_->setCurrentIndex(std::max(0, deployed_->findData(static_cast<int>(plan.deployed))));
    sparsity_->setValue(static_cast<int>(std::lround(plan.deployedSparsity * 100.0)));
    updateEnabled();
}

dpu::Plan PlanMethodDialog::shown() const
{
    dpu::Plan plan = base_;
    plan.mode = static_cast<dpu::RunMode>(mode_->currentData().toInt());
    const auto r = static_cast<Reinit>(reinit_->currentData().toInt());
    plan.reinit = r != Reinit::Never;
    plan.reinitEvery = r == Reinit::Every ? every_->value() : 0;
    plan.fuStart = static_cast<dpu::FuStart>(fuStart_->currentData().toInt());
    plan.rewind = rewind_->isChecked();
    plan.deployed = static_cast<dpu::DeployedForm>(deployed_->currentData().toInt());
    plan.deployedSparsity = sparsity_->value() / 100.0;
    return plan;
}

void PlanMethodDialog::applyTo(dpu::Plan& plan) const
{
    const dpu::Plan rows = shown();
    plan.mode = rows.mode;
    plan.reinit = rows.reinit;
    plan.reinitEvery = rows.reinitEvery;
    plan.fuStart = rows.fuStart;
    plan.rewind = rows.rewind;
    plan.deployed = rows.deployed;
    plan.deployedSparsity = rows.deployedSparsity;
    // What a row's choice took the meaning of (the table's rules) goes back to its default.
    dpu::clearInapplicable(plan);
}

void PlanMethodDialog::updateEnabled()
{
    enabling_.apply(shown());
}

QString PlanMethodDialog::summary(const dpu::Plan& plan)
{
    const QString mode = plan.mode == dpu::RunMode::Single ? tr("single update") : tr("multi-round");
    const QString reinit = ReportText::reinitInWords(plan);
    const QString fu = plan.fuStart == dpu::FuStart::Fresh  ? tr("FU from a new random model")
                       : plan.fuStart == dpu::FuStart::Last ? tr("FU from the last weights")
                                                            : tr("FU from the seeded model");
    QString s = QStringLiteral("%1, %2, %3").arg(mode, reinit, fu);
    if (plan.rewind && dpu::fieldApplies("rewind", plan))
        s += tr(", iterative rewinding");
    const dpu::DeployedFormInfo& form = dpu::deployedFormInfo(plan.deployed);
    const QString deployed = QString::fromStdString(form.summaryWords);
    s += form.keptMask == dpu::KeptMask::Zeros ? deployed.arg(std::lround(plan.deployedSparsity * 100.0)) : deployed;
    return s;
}

} // namespace dpu::ui
