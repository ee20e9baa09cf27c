// SPDX-License-Identifier: MIT
// PlanBundleRows: value coding with its quantisation-aware switch, the biases' treatment, and the byte budget with its unit.
#include "panels/PlanBundleRows.h"
#include "panels/EnumCombo.h"
#include "panels/FieldEnabling.h"
#include "panels/FieldErrorMarks.h"
#include "panels/IntSpin.h"
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <algorithm>

namespace dpu::ui {

PlanBundleRows::PlanBundleRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent) : QObject(parent)
{
    addValuesRows(form, marks);
    addBudgetRow(form, marks);
    connect(values_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT ruleEdited(values_); });
    connect(quantAware_, &QCheckBox::toggled, this, [this] { Q_EMIT edited(quantAware_); });
    connect(budget_, &QSpinBox::valueChanged, this, [this] { Q_EMIT ruleEdited(budget_); });
    connect(budgetUnit_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT edited(budgetUnit_); });
    connect(dense_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT edited(dense_); });
}

void PlanBundleRows::addValuesRows(QFormLayout* form, FieldErrorMarks& marks)
{
    QWidget* box = form->parentWidget();
    values_ = new QComboBox(box);
    values_->setObjectName(QStringLiteral("bundleValues"));
    for (const auto& v : dpu::enumNames<dpu::Coding>())
        values_->addItem(QString::fromLatin1(v.name), comboData(v.value));
    values_->setToolTip(tr("How the changed weights travel in the update bundles: fp32 exact, fp16, q8 "
                           "(256 centroids per tensor), q8c (q8's error in about 0.8x its bytes), q4 (16 "
                           "centroids), ternary (sign x one magnitude); devices run what they decode"));
    quantAware_ = new QCheckBox(tr("Quantisation-aware"), box);
    quantAware_->setObjectName(QStringLiteral("quantAware"));
    quantAware_->setToolTip(tr("The sparse fine-tune knows the coding: the changed weights are quantised in "
                               "steps and the rest re-fitted around them (lossy codings only)"));
    auto* valuesRow = new QHBoxLayout;
    valuesRow->addWidget(values_);
    valuesRow->addWidget(quantAware_, 1);
    auto* valuesLabel = new QLabel(tr("Bundle values"), box);
    valuesLabel->setBuddy(values_);
    form->addRow(valuesLabel, valuesRow);
    marks.addRow(QStringLiteral("bundleValues"), {values_, quantAware_});

    dense_ = new QComboBox(box);
    dense_->setObjectName(QStringLiteral("bundleDense"));
    dense_->addItem(tr("exact, every round"), comboData(dpu::DenseTensors::Exact));
    dense_->addItem(tr("ranked with the weights"), comboData(dpu::DenseTensors::Partial));
    dense_->addItem(tr("under the values' coding"), comboData(dpu::DenseTensors::Coded));
    dense_->setToolTip(tr("The always-shipped 1-D tensors (biases): dense and exact every round (the paper), "
                          "selected with the weights by the same ranking, or their changes coded like the "
                          "weights' (lossy codings only; on the MLP about a quarter fewer bytes with q4)"));
    auto* denseLabel = new QLabel(tr("Biases"), box);
    denseLabel->setBuddy(dense_);
    form->addRow(denseLabel, dense_);
    marks.addRow(QStringLiteral("bundleDense"), {dense_});
}

void PlanBundleRows::addBudgetRow(QFormLayout* form, FieldErrorMarks& marks)
{
    QWidget* box = form->parentWidget();
    budget_ = intSpin(box, 0, 2000000000);
    budget_->setObjectName(QStringLiteral("budgetBytes"));
    budget_->setSuffix(tr(" bytes"));
    budget_->setSingleStep(1000);
    budget_->setSpecialValueText(tr("off (k decides)"));
    budget_->setToolTip(tr("When set, replaces k: each round ships the most valuable weights whose real "
                           "update bundle fits (FU and pruning ship as they always do)"));
    budgetUnit_ = new QComboBox(box);
    budgetUnit_->setObjectName(QStringLiteral("budgetUnit"));
    budgetUnit_->addItem(tr("per round"), QStringLiteral("round"));
    budgetUnit_->addItem(tr("per run"), QStringLiteral("run"));
    budgetUnit_->setToolTip(tr("Per round: every round's bundle fits the budget. Per run: all rounds' bundles "
                               "together fit it; each round gets what is left over the rounds left, so unused "
                               "bytes carry over"));
    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(budget_, 1);
    budgetRow->addWidget(budgetUnit_);
    auto* budgetLabel = new QLabel(tr("Budget"), box);
    budgetLabel->setBuddy(budget_);
    form->addRow(budgetLabel, budgetRow);
    marks.addRow(QStringLiteral("budget"), {budget_, budgetUnit_});
}

void PlanBundleRows::setFrom(const dpu::Plan& plan)
{
    setComboValue(values_, plan.bundle.values);
    quantAware_->setChecked(plan.bundle.quantAware);
    setComboValue(dense_, plan.bundle.denseTensors);
    // A plan file with both budgets is refused at this field (its file problem) until edited.
    const bool perRun = plan.budget.bytesTotal > 0 && plan.budget.bytesPerRound == 0;
    budgetUnit_->setCurrentIndex(budgetUnit_->findData(perRun ? QStringLiteral("run") : QStringLiteral("round")));
    budget_->setValue(static_cast<int>(
        std::min<int64_t>(perRun ? plan.budget.bytesTotal : plan.budget.bytesPerRound, budget_->maximum())));
}

void PlanBundleRows::writeTo(dpu::Plan& p) const
{
    p.bundle.values = comboValue(values_, dpu::Coding::Fp32);
    p.bundle.quantAware = quantAware_->isChecked(); // unchecked with fp32 (the rules clear it)
    p.bundle.denseTensors = comboValue(dense_, dpu::DenseTensors::Exact);
    const bool perRun = budgetUnit_->currentData().toString() == QLatin1String("run");
    p.budget.bytesPerRound = perRun ? 0 : budget_->value();
    p.budget.bytesTotal = perRun ? budget_->value() : 0;
}

void PlanBundleRows::showCleared(const dpu::Plan& cleared)
{
    const QSignalBlocker blockValues(values_), blockAware(quantAware_), blockDense(dense_), blockBudget(budget_);
    setComboValue(values_, cleared.bundle.values);
    quantAware_->setChecked(cleared.bundle.quantAware);
    setComboValue(dense_, cleared.bundle.denseTensors);
    if (!cleared.budget.enabled())
        budget_->setValue(0);
}

void PlanBundleRows::bindRules(FieldEnabling& enabling) const
{
    enabling.add("bundle.values", values_);
    enabling.add("bundle.quant_aware", quantAware_);
    enabling.add("bundle.dense_tensors", dense_); // not where an INT8 model's biases are its own codes
    enabling.addChoiceItem("bundle.dense_tensors", "coded", dense_, comboData(dpu::DenseTensors::Coded));
    enabling.add("budget.bytes_per_round", budget_);
    enabling.add("budget.bytes_total", budgetUnit_);
}

QHash<QString, QWidget*> PlanBundleRows::fields() const
{
    // Quantisation-aware is marked at the coding it depends on; both budgets at the one spin box.
    return {{QStringLiteral("bundle.values"), values_},
            {QStringLiteral("bundle.quant_aware"), values_},
            {QStringLiteral("bundle.dense_tensors"), dense_},
            {QStringLiteral("budget.bytes_per_round"), budget_},
            {QStringLiteral("budget.bytes_total"), budget_}};
}

} // namespace dpu::ui
