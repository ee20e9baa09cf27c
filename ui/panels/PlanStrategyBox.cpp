// SPDX-License-Identifier: MIT
// PlanStrategyBox: the strategies' check boxes with what each does, and the Method… button over the plan's method.
#include "panels/PlanStrategyBox.h"
#include "dpu/StrategyId.h"
#include "panels/FieldEnabling.h"
#include "panels/FieldErrorMarks.h"
#include "panels/PlanMethodDialog.h"
#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>
#include <algorithm>

namespace dpu::ui {

PlanStrategyBox::PlanStrategyBox(QFormLayout* form, FieldErrorMarks& marks, QObject* parent) : QObject(parent)
{
    QWidget* box = form->parentWidget();
    // The heading carries the plan's Method… (mode, re-initialisation, FU's start, rewinding:
    // the paper's ablations) at its right, in a dialog: the form has no row to spare at 1366x768.
    auto* heading = new QHBoxLayout;
    heading->setContentsMargins(0, 0, 0, 0);
    heading->addWidget(new QLabel(tr("Strategies to compare"), box));
    heading->addStretch(1);
    method_ = new QToolButton(box);
    method_->setText(tr("Method…"));
    method_->setObjectName(QStringLiteral("planMethod"));
    heading->addWidget(method_);
    connect(method_, &QToolButton::clicked, this, &PlanStrategyBox::methodClicked);
    form->addRow(heading);
    box_ = new QGroupBox(box);
    auto* grid = new QGridLayout(box_);
    // The heading's button is taller than a group box's title: tighter rows give it back.
    const QMargins m = grid->contentsMargins();
    grid->setContentsMargins(m.left(), 4, m.right(), 4);
    grid->setVerticalSpacing(2);
    int i = 0;
    for (const auto& s : dpu::strategyNames()) {
        const QString name = QString::fromStdString(s);
        auto* c = new QCheckBox(name, box_);
        c->setObjectName(QStringLiteral("strategy_") + name);
        c->setToolTip(strategyToolTip(name));
        strategies_.insert(name, c);
        grid->addWidget(c, i / 3, i % 3);
        connect(c, &QCheckBox::toggled, this, [this, c] { Q_EMIT edited(c); });
        ++i;
    }
    form->addRow(box_);
    marks.addRow(QStringLiteral("strategies"), {box_});
}

std::vector<std::string> PlanStrategyBox::chosen() const
{
    std::vector<std::string> names;
    for (const auto& s : dpu::strategyNames())
        if (strategies_.value(QString::fromStdString(s))->isChecked())
            names.push_back(s);
    return names;
}

void PlanStrategyBox::setChosen(const std::vector<std::string>& names)
{
    for (auto it = strategies_.begin(); it != strategies_.end(); ++it) {
        const QSignalBlocker block(it.value());
        it.value()->setChecked(std::find(names.begin(), names.end(), it.key().toStdString()) != names.end());
    }
}

void PlanStrategyBox::showMethod(const dpu::Plan& plan)
{
    method_->setToolTip(tr("The plan's method: %1. Opens the mode, re-initialisation, FU's start, rewinding and the "
                           "deployed model's form.")
                            .arg(PlanMethodDialog::summary(plan)));
}

void PlanStrategyBox::bindRules(FieldEnabling& enabling) const
{
    for (auto it = strategies_.begin(); it != strategies_.end(); ++it)
        enabling.addChoice("strategies", it.key().toStdString(), it.value());
}

QHash<QString, QWidget*> PlanStrategyBox::fields() const
{
    QHash<QString, QWidget*> fields{{QStringLiteral("strategies"), box_}};
    for (const char* key : {"mode", "reinit", "reinit_every", "fu_start", "rewind", "deployed", "deployed_sparsity"})
        fields.insert(QString::fromLatin1(key), method_);
    return fields;
}

QString PlanStrategyBox::strategyToolTip(const QString& name)
{
    const std::optional<dpu::StrategyId> id = dpu::enumFromString<dpu::StrategyId>(name.toStdString());
    if (!id)
        return {};
    switch (*id) {
    case dpu::StrategyId::Fu:
        return tr("Full updating: retrain from the seeded random model each round and send every weight");
    case dpu::StrategyId::Dpu:
        return tr("Deep Partial Updating: change the k share of weights with the largest combined (global and "
                  "local) contribution, with re-initialisation when the data has more than doubled");
    case dpu::StrategyId::DpuNoreinit:
        return tr("DPU without re-initialisation: every round starts from the deployed weights");
    case dpu::StrategyId::DpuMemory:
        return tr("DPU with server-side memory (error feedback): the server keeps its fully trained model, and "
                  "each round ships the most valuable part of everything the devices still lack");
    case dpu::StrategyId::Gcpu:
        return tr("Global contribution only (λ = 1): the weights that moved most in the full training step");
    case dpu::StrategyId::GcpuReinit:
        return tr("Global contribution only, with DPU's re-initialisation rule");
    case dpu::StrategyId::Lcpu:
        return tr("Local contribution only (λ = 0): the weights whose steps lowered the loss most");
    case dpu::StrategyId::Rpu:
        return tr("Random partial updating: fine-tune a random k share of each layer from the deployed weights");
    case dpu::StrategyId::Pruning:
        return tr("Pruning baseline: train from scratch, keep the k share of largest weights, send them and "
                  "their positions");
    }
    return {};
}

} // namespace dpu::ui
