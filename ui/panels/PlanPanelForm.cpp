// SPDX-License-Identifier: MIT
// PlanPanel's form: its rows, section by section (split from PlanPanel.cpp to keep both short).
#include "panels/PlanPanel.h"
#include "panels/RatioSpinBox.h"
#include "panels/CostReadout.h"
#include "panels/EnumCombo.h"
#include "panels/FieldErrorMarks.h"
#include "dpu/StrategyId.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

namespace dpu::ui {
namespace {
QSpinBox* intSpin(QWidget* parent, int lo, int hi)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setGroupSeparatorShown(false);
    return s;
}
} // namespace

QWidget* PlanPanel::buildForm()
{
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    // Fields take the width there is; at a narrow width labels move above their fields
    // instead of pushing the form wider than the window.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    marks_ = std::make_unique<FieldErrorMarks>(form);
    addModelRows(form, box);
    addDatasetRows(form, box);
    addPreprocessRow(form, box);
    addSplitRows(form, box);
    addStrategyBox(form, box);
    addRatioRows(form, box);
    addBundleRows(form, box);
    addTrainingRows(form, box);
    nameFields();
    return box;
}

void PlanPanel::addModelRows(QFormLayout* form, QWidget* box)
{
    name_ = new QLineEdit(box);
    name_->setToolTip(tr("Names the run and its output folder; follows the model, data and k until you type one"));
    form->addRow(tr("&Name"), name_);
    marks_->addRow(QStringLiteral("name"), {name_});

    model_ = new QComboBox(box);
    model_->setEditable(true); // also accepts "torchscript:PATH"
    // Long model names or a TorchScript path must not widen the whole form.
    model_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    model_->setMinimumContentsLength(12);
    for (const auto& m : dpu::builtinModels()) {
        model_->addItem(QString::fromStdString(m));
        model_->setItemData(model_->count() - 1, QString::fromStdString(dpu::modelDescription(m)), Qt::ToolTipRole);
    }
    modelInfo_ = new QLabel(box);
    modelInfo_->setObjectName(QStringLiteral("modelInfo"));
    modelInfo_->setWordWrap(true); // the weight counts of vgg or mobilenetv1 are long
    form->addRow(tr("&Model"), model_);
    form->addRow(QString(), modelInfo_);
    marks_->addRow(QStringLiteral("model"), {model_});
}

void PlanPanel::addSplitRows(QFormLayout* form, QWidget* box)
{
    // Spin boxes allow 0 where the engine forbids it, so the engine's own message is shown.
    initial_ = intSpin(box, 0, 10000000);
    perRound_ = intSpin(box, 0, 10000000);
    rounds_ = intSpin(box, 0, 100000);
    validation_ = intSpin(box, 0, 1000000);
    initial_->setToolTip(tr("|D1|: training samples the first round has"));
    perRound_->setToolTip(tr("|ΔD|: new training samples each later round adds"));
    rounds_->setToolTip(tr("Rounds to simulate; |D1| + (rounds - 1) × |ΔD| must fit in the training split"));
    validation_->setToolTip(tr("Samples of the test split held out for validation; the rest is test"));
    auto* split = new QGridLayout;
    split->setColumnStretch(1, 1);
    split->setColumnStretch(3, 1);
    const QList<QPair<QString, QSpinBox*>> cells{
        {tr("|D1|"), initial_}, {tr("|ΔD|"), perRound_}, {tr("Rounds"), rounds_}, {tr("Validation"), validation_}};
    for (int i = 0; i < cells.size(); ++i) {
        split->addWidget(new QLabel(cells[i].first, box), i / 2, 2 * (i % 2));
        split->addWidget(cells[i].second, i / 2, 2 * (i % 2) + 1);
    }
    form->addRow(tr("Split"), split);
    marks_->addRow(QStringLiteral("split"), {initial_, perRound_, rounds_, validation_},
                   {tr("|D1|"), tr("|ΔD|"), tr("Rounds"), tr("Validation")});
}

void PlanPanel::addStrategyBox(QFormLayout* form, QWidget* box)
{
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
    connect(method_, &QToolButton::clicked, this, &PlanPanel::editPlanMethod);
    form->addRow(heading);
    strategiesBox_ = new QGroupBox(box);
    auto* grid = new QGridLayout(strategiesBox_);
    // The heading's button is taller than a group box's title: tighter rows give it back.
    const QMargins m = grid->contentsMargins();
    grid->setContentsMargins(m.left(), 4, m.right(), 4);
    grid->setVerticalSpacing(2);
    int i = 0;
    for (const auto& s : dpu::strategyNames()) {
        auto* c = new QCheckBox(QString::fromStdString(s), strategiesBox_);
        c->setObjectName(QStringLiteral("strategy_") + QString::fromStdString(s));
        c->setToolTip(strategyToolTip(QString::fromStdString(s)));
        strategies_.insert(QString::fromStdString(s), c);
        grid->addWidget(c, i / 3, i % 3);
        ++i;
    }
    form->addRow(strategiesBox_);
    marks_->addRow(QStringLiteral("strategies"), {strategiesBox_});
}

void PlanPanel::addRatioRows(QFormLayout* form, QWidget* box)
{
    k_ = new RatioSpinBox(box); // reads 1e-7, keeps -0.5 for validation to mark
    k_->setObjectName(QStringLiteral("k"));
    k_->setToolTip(tr("Updating ratio k: the share of the partial weights a round may change (0 < k ≤ 1)"));
    kSlider_ = new QSlider(Qt::Horizontal, box);
    kSlider_->setObjectName(QStringLiteral("kSlider"));
    kSlider_->setRange(0, sliderPosForK(1.0));
    kSlider_->setToolTip(tr("Logarithmic: 0.0005 … 1"));
    kSlider_->setMinimumWidth(60);
    auto* kRow = new QHBoxLayout;
    kRow->addWidget(k_);
    kRow->addWidget(kSlider_, 1);
    auto* kLabel = new QLabel(tr("Updating ratio &k"), box);
    kLabel->setBuddy(k_);
    form->addRow(kLabel, kRow);
    marks_->addRow(QStringLiteral("k"), {k_});
    cost_ = new CostReadout(box);
    form->addRow(QString(), cost_);
    // The deployment the plan is for (its fleet keys), beside the link: no room for rows of its
    // own in a form that must fit 1366x768.
    fleet_ = new QToolButton(box);
    fleet_->setText(tr("Fleet…"));
    fleet_->setObjectName(QStringLiteral("planFleet"));
    cost_->addToLinkRow(fleet_);
    connect(fleet_, &QToolButton::clicked, this, &PlanPanel::editPlanFleet);
    connect(cost_, &CostReadout::linkChosen, this, &PlanPanel::choosePlanLink);
}

void PlanPanel::addBundleRows(QFormLayout* form, QWidget* box)
{
    // No mnemonics on these rows: every letter of their names is taken in the main window.
    values_ = new QComboBox(box);
    for (const auto& v : dpu::enumNames<dpu::Coding>())
        values_->addItem(QString::fromLatin1(v.name), comboData(v.value));
    values_->setToolTip(tr("How the changed weights travel in the update bundles: fp32 exact, fp16, q8 "
                           "(256 centroids per tensor), q8c (q8's error in about 0.8x its bytes), q4 (16 "
                           "centroids), ternary (sign x one magnitude); devices run what they decode"));
    quantAware_ = new QCheckBox(tr("Quantisation-aware"), box);
    quantAware_->setToolTip(tr("The sparse fine-tune knows the coding: the changed weights are quantised in "
                               "steps and the rest re-fitted around them (lossy codings only)"));
    auto* valuesRow = new QHBoxLayout;
    valuesRow->addWidget(values_);
    valuesRow->addWidget(quantAware_, 1);
    auto* valuesLabel = new QLabel(tr("Bundle values"), box);
    valuesLabel->setBuddy(values_);
    form->addRow(valuesLabel, valuesRow);
    marks_->addRow(QStringLiteral("bundleValues"), {values_, quantAware_});

    dense_ = new QComboBox(box);
    dense_->addItem(tr("exact, every round"), comboData(dpu::DenseTensors::Exact));
    dense_->addItem(tr("ranked with the weights"), comboData(dpu::DenseTensors::Partial));
    dense_->addItem(tr("under the values' coding"), comboData(dpu::DenseTensors::Coded));
    dense_->setToolTip(tr("The always-shipped 1-D tensors (biases): dense and exact every round (the paper), "
                          "selected with the weights by the same ranking, or their changes coded like the "
                          "weights' (lossy codings only; on the MLP about a quarter fewer bytes with q4)"));
    auto* denseLabel = new QLabel(tr("Biases"), box);
    denseLabel->setBuddy(dense_);
    form->addRow(denseLabel, dense_);
    marks_->addRow(QStringLiteral("bundleDense"), {dense_});

    budget_ = intSpin(box, 0, 2000000000);
    budget_->setSuffix(tr(" bytes"));
    budget_->setSingleStep(1000);
    budget_->setSpecialValueText(tr("off (k decides)"));
    budget_->setToolTip(tr("When set, replaces k: each round ships the most valuable weights whose real "
                           "update bundle fits (FU and pruning ship as they always do)"));
    budgetUnit_ = new QComboBox(box);
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
    marks_->addRow(QStringLiteral("budget"), {budget_, budgetUnit_});
}

void PlanPanel::addTrainingRows(QFormLayout* form, QWidget* box)
{
    // Two fields per row below: the form fits a 768-pixel-high screen without scrolling.
    epochs_ = intSpin(box, 0, 10000);
    epochs_->setToolTip(tr("Epochs of each training step per round: the full step and the sparse fine-tune "
                           "take this many each, so a DPU round trains about twice as long"));
    lr_ = new QDoubleSpinBox(box);
    lr_->setRange(0, 100);
    lr_->setDecimals(6);
    lr_->setSingleStep(0.001);
    lr_->setToolTip(tr("Learning rate of every training step"));
    addPairRow(form, tr("&Epochs"), pairRow(box, epochs_, tr("Learning rate"), lr_), epochs_);
    marks_->addRow(QStringLiteral("epochs"), {epochs_, lr_}, {tr("Epochs"), tr("Learning rate")});
    // Made after Epochs and Learning rate: Tab visits the fields in the order they are shown.
    lambda_ = new QDoubleSpinBox(box);
    lambda_->setRange(-1, 2); // out-of-range values get the engine's message
    lambda_->setDecimals(3);
    lambda_->setSingleStep(0.05);
    lambda_->setToolTip(tr("DPU's weight of the global contribution (how far a weight moved in the full "
                           "training step) against the local one (how much it lowered the loss on the way); "
                           "0.5 weighs both equally, as the paper does. Only dpu and its variants use it."));
    optimizer_ = new QComboBox(box);
    optimizer_->addItem(QStringLiteral("Adam"), comboData(dpu::Optimizer::Adam));
    optimizer_->addItem(QStringLiteral("SGD (Nesterov)"), comboData(dpu::Optimizer::Sgd));
    // λ and the optimiser share a row: the form fits a 768-pixel-high screen with the data summary.
    addPairRow(form, tr("λ (global weight)"), pairRow(box, lambda_, tr("O&ptimiser"), optimizer_), lambda_);
    marks_->addRow(QStringLiteral("lambda"), {lambda_, optimizer_}, {tr("λ"), tr("Optimiser")});
    seeds_ = new QLineEdit(box);
    seeds_->setPlaceholderText(tr("1, 2, 3"));
    seeds_->setToolTip(tr("One run per seed, separated by commas or spaces"));
    device_ = new QComboBox(box);
    for (const auto& d : dpu::enumNames<dpu::ComputeDevice>())
        device_->addItem(QString::fromLatin1(d.name), comboData(d.value));
    addPairRow(form, tr("&Seeds"), pairRow(box, seeds_, tr("De&vice"), device_), seeds_);
    marks_->addRow(QStringLiteral("seeds"), {seeds_, device_}, {tr("Seeds"), tr("Device")});
}

void PlanPanel::addPairRow(QFormLayout* form, const QString& label, QWidget* row, QWidget* first)
{
    // The row's own label goes to its first field: a mnemonic on the row container (what
    // addRow(QString, QWidget*) makes) would focus nothing.
    auto* l = new QLabel(label, row->parentWidget());
    l->setBuddy(first);
    form->addRow(l, row);
}

QWidget* PlanPanel::pairRow(QWidget* box, QWidget* first, const QString& secondLabel, QWidget* second)
{
    auto* row = new QWidget(box);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(first, 1);
    auto* label = new QLabel(secondLabel, row);
    label->setBuddy(second);
    h->addWidget(label);
    h->addWidget(second, 1);
    return row;
}

void PlanPanel::nameFields()
{
    name_->setObjectName(QStringLiteral("name"));
    model_->setObjectName(QStringLiteral("model"));
    datasetKind_->setObjectName(QStringLiteral("datasetKind"));
    datasetPath_->setObjectName(QStringLiteral("datasetPath"));
    initial_->setObjectName(QStringLiteral("splitInitial"));
    perRound_->setObjectName(QStringLiteral("splitPerRound"));
    rounds_->setObjectName(QStringLiteral("splitRounds"));
    validation_->setObjectName(QStringLiteral("splitValidation"));
    lambda_->setObjectName(QStringLiteral("lambda"));
    epochs_->setObjectName(QStringLiteral("epochs"));
    lr_->setObjectName(QStringLiteral("lr"));
    optimizer_->setObjectName(QStringLiteral("optimizer"));
    seeds_->setObjectName(QStringLiteral("seeds"));
    device_->setObjectName(QStringLiteral("device"));
    values_->setObjectName(QStringLiteral("bundleValues"));
    quantAware_->setObjectName(QStringLiteral("quantAware"));
    budget_->setObjectName(QStringLiteral("budgetBytes"));
    budgetUnit_->setObjectName(QStringLiteral("budgetUnit"));
    dense_->setObjectName(QStringLiteral("bundleDense"));
}

QString PlanPanel::strategyToolTip(const QString& name)
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
