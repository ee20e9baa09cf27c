// SPDX-License-Identifier: MIT
// PlanPanel: edits a dpu::Plan; validation comes from the engine so the GUI and CLI agree.
#include "panels/PlanPanel.h"
#include "dpu/RoundEstimate.h"
#include "dpu/FleetSettings.h"
#include "panels/PlanFleetDialog.h"
#include "panels/PlanMethodDialog.h"
#include "dpu/Cost.h"
#include "dpu/DataFormats.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "dpu/PlanFields.h"
#include "panels/CostReadout.h"
#include "panels/EnumCombo.h"
#include "panels/FieldErrorMarks.h"
#include "panels/WaitCursor.h"
#include <QToolButton>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace dpu::ui {
namespace {
constexpr double kMinSliderK = 0.0005;
constexpr int kSliderSteps = 1000;
const char* const kFashionMnist = "/usr/share/datasets/fashion-mnist";

/// The sample shape of the kinds whose shape is fixed (IDX images may differ: the probe says).
bool fixedShape(dpu::DataKind kind, dpu::InputShape* shape, int* classes)
{
    const dpu::DataFormat& f = dpu::dataFormat(kind);
    *classes = f.fixedClasses > 0 ? f.fixedClasses : 10;
    if (f.fixedClasses > 0)
        *shape = f.fixedShape;
    return f.fixedClasses > 0;
}
} // namespace

PlanPanel::PlanPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(layout->contentsMargins().left(), 0, layout->contentsMargins().right(), 0);
    layout->addWidget(buildForm());
    mapFields();
    bindRules();
    errorLabel_ = new QLabel(this);
    errorLabel_->setObjectName(QStringLiteral("planErrors"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    layout->addWidget(errorLabel_);
    layout->addStretch(1);
    dpu::Plan initial = dpu::defaultPlan();
    // Preselect Fashion-MNIST when Debian's dataset-fashion-mnist package is installed.
    if (QDir(QString::fromLatin1(kFashionMnist)).exists()) {
        initial.dataset.kind = dpu::DataKind::Idx;
        initial.dataset.path = kFashionMnist;
    }
    setPlan(initial);
    connectEdits();
}

PlanPanel::~PlanPanel()
{
    stopProbeThread();
}

void PlanPanel::connectEdits()
{
    auto edited = [this] {
        if (filling_)
            return;
        dropFileProblemsOf(sender());
        validate();
        cost_->setPlan(plan());
        Q_EMIT planEdited();
    };
    // A name typed (or set) keeps it; clearing it hands the name back to the model, data and k.
    // followName() changes the text with signals blocked, so it does not land here.
    connect(name_, &QLineEdit::textChanged, this, [this, edited](const QString& text) {
        if (!filling_)
            nameFollows_ = text.trimmed().isEmpty();
        edited();
    });
    // The fields an automatic name is made of.
    auto namedEdit = [this, edited] {
        if (!filling_)
            followName();
        edited();
    };
    connect(model_, &QComboBox::currentTextChanged, this, [this, namedEdit](const QString& text) {
        if (!filling_ && text.trimmed().startsWith(QLatin1String("torchscript:")))
            scheduleProbe(detectingKind()); // its fit takes one forward pass on the data's shape
        onModelOrDatasetChanged();
        namedEdit();
    });
    connect(datasetKind_, &QComboBox::currentIndexChanged, this, [this, namedEdit] {
        if (!filling_)
            scheduleProbe(false); // read the data the way the user chose
        onModelOrDatasetChanged();
        showProbe();
        namedEdit();
    });
    // A path typed or picked: its kind is detected when it is read.
    connect(datasetPath_, &QLineEdit::textChanged, this, [this, namedEdit] {
        if (!filling_)
            scheduleProbe(true);
        onModelOrDatasetChanged();
        showProbe();
        namedEdit();
    });
    connect(normalise_, &QComboBox::currentIndexChanged, this, edited);
    connect(cropPadding_, &QSpinBox::valueChanged, this, edited);
    connect(flip_, &QCheckBox::toggled, this, edited);
    for (QSpinBox* s : {initial_, perRound_, rounds_, validation_, epochs_})
        connect(s, &QSpinBox::valueChanged, this, edited);
    for (QCheckBox* c : strategies_)
        connect(c, &QCheckBox::toggled, this, edited);
    connect(k_, &QDoubleSpinBox::valueChanged, this, [this, namedEdit](double k) {
        onKSpinChanged(k);
        namedEdit();
    });
    connect(kSlider_, &QSlider::valueChanged, this, &PlanPanel::onKSliderMoved);
    connect(lambda_, &QDoubleSpinBox::valueChanged, this, edited);
    connect(lr_, &QDoubleSpinBox::valueChanged, this, edited);
    connect(optimizer_, &QComboBox::currentIndexChanged, this, edited);
    connect(seeds_, &QLineEdit::textChanged, this, edited);
    connect(device_, &QComboBox::currentIndexChanged, this, edited);
    connect(values_, &QComboBox::currentIndexChanged, this, [this, edited] {
        updateEnabling();
        edited();
    });
    connect(quantAware_, &QCheckBox::toggled, this, edited);
    connect(budget_, &QSpinBox::valueChanged, this, [this, edited] {
        updateEnabling();
        edited();
    });
    connect(budgetUnit_, &QComboBox::currentIndexChanged, this, edited);
    connect(dense_, &QComboBox::currentIndexChanged, this, edited);
}

void PlanPanel::bindRules()
{
    // The form's widgets for fields with rules; the rules are the engine's (dpu::fieldApplies),
    // and test_ui_plan_dialogs holds every ruled field of the form to a binding here.
    enabling_.add("k", k_);
    enabling_.add("k", kSlider_);
    enabling_.add("bundle.values", values_);
    enabling_.add("bundle.quant_aware", quantAware_);
    enabling_.addChoiceItem("bundle.dense_tensors", "coded", dense_, comboData(dpu::DenseTensors::Coded));
    enabling_.add("budget.bytes_per_round", budget_);
    enabling_.add("budget.bytes_total", budgetUnit_);
    for (auto it = strategies_.begin(); it != strategies_.end(); ++it)
        enabling_.addChoice("strategies", it.key().toStdString(), it.value());
}

void PlanPanel::updateEnabling()
{
    dpu::Plan p = plan();
    dpu::clearInapplicable(p); // what a choice took the meaning of goes back to its default
    showCleared(p);
    enabling_.apply(p);
}

void PlanPanel::showCleared(const dpu::Plan& cleared)
{
    const dpu::Plan shown = plan();
    if (dpu::planToJson(shown) == dpu::planToJson(cleared))
        return;
    // The caller validates and reports the edit once.
    const QSignalBlocker blockValues(values_), blockAware(quantAware_), blockDense(dense_), blockBudget(budget_);
    setComboValue(values_, cleared.bundle.values);
    quantAware_->setChecked(cleared.bundle.quantAware);
    setComboValue(dense_, cleared.bundle.denseTensors);
    if (!cleared.budget.enabled())
        budget_->setValue(0);
    for (auto it = strategies_.begin(); it != strategies_.end(); ++it) {
        const QSignalBlocker block(it.value());
        it.value()->setChecked(std::find(cleared.strategies.begin(), cleared.strategies.end(), it.key().toStdString())
                               != cleared.strategies.end());
    }
}

QString PlanPanel::automaticName(const dpu::Plan& plan)
{
    return QString::fromStdString(dpu::automaticPlanName(plan)); // core's rule, which sweep cells follow too
}

void PlanPanel::setNameFollows(bool follows)
{
    nameFollows_ = follows;
}

void PlanPanel::followName()
{
    if (!nameFollows_)
        return;
    const QString name = automaticName(plan());
    if (name_->text() != name) {
        const QSignalBlocker block(name_); // the caller validates and reports the edit once
        name_->setText(name);
    }
}

void PlanPanel::setPlan(const dpu::Plan& plan)
{
    base_ = plan;
    fileProblems_.clear();
    // A name that was made from the fields keeps following them; one chosen by hand stays.
    nameFollows_ = QString::fromStdString(plan.name) == automaticName(plan);
    filling_ = true;
    setPlanFleet(plan.fleet); // its button's tooltip
    showMethod(plan);
    name_->setText(QString::fromStdString(plan.name));
    model_->setCurrentText(QString::fromStdString(plan.model));
    setComboValue(datasetKind_, plan.dataset.kind);
    datasetPath_->setText(QString::fromStdString(plan.dataset.path));
    // "given" needs the plan's mean and std: offered only when the plan has them.
    auto* normaliseItems = qobject_cast<QStandardItemModel*>(normalise_->model());
    normaliseItems->item(normalise_->findData(comboData(dpu::Normalise::Given)))
        ->setEnabled(!plan.dataset.mean.empty() && !plan.dataset.std.empty());
    setComboValue(normalise_, plan.dataset.normalise);
    cropPadding_->setValue(plan.dataset.augment.cropPadding);
    flip_->setChecked(plan.dataset.augment.flip);
    initial_->setValue(static_cast<int>(plan.split.initial));
    perRound_->setValue(static_cast<int>(plan.split.perRound));
    rounds_->setValue(plan.split.rounds);
    validation_->setValue(static_cast<int>(plan.split.validation));
    for (auto it = strategies_.begin(); it != strategies_.end(); ++it) {
        const bool on = std::find(plan.strategies.begin(), plan.strategies.end(), it.key().toStdString())
                        != plan.strategies.end();
        it.value()->setChecked(on);
    }
    k_->setValue(plan.k);
    onKSpinChanged(plan.k);
    lambda_->setValue(plan.lambda);
    epochs_->setValue(plan.train.epochs);
    lr_->setValue(plan.train.lr);
    setComboValue(optimizer_, plan.train.optimizer);
    QStringList seeds;
    for (uint64_t s : plan.seeds)
        seeds << QString::number(s);
    seeds_->setText(seeds.join(QStringLiteral(", ")));
    setComboValue(device_, plan.device);
    setComboValue(values_, plan.bundle.values);
    quantAware_->setChecked(plan.bundle.quantAware);
    setComboValue(dense_, plan.bundle.denseTensors);
    // A plan file with both budgets is refused at this field (its file problem) until edited.
    const bool perRun = plan.budget.bytesTotal > 0 && plan.budget.bytesPerRound == 0;
    budgetUnit_->setCurrentIndex(budgetUnit_->findData(perRun ? QStringLiteral("run") : QStringLiteral("round")));
    budget_->setValue(static_cast<int>(
        std::min<int64_t>(perRun ? plan.budget.bytesTotal : plan.budget.bytesPerRound, budget_->maximum())));
    updateEnabling();
    filling_ = false;
    haveProbe_ = false;
    scheduleProbe(false); // a plan names its kind: read the data that way
    onModelOrDatasetChanged();
    showProbe();
    validate();
    cost_->setPlan(this->plan()); // the readout estimates for this coding and these strategies
}

void PlanPanel::setPlanFleet(const dpu::PlanFleet& fleet)
{
    base_.fleet = fleet;
    const dpu::FleetSettings s = dpu::fleetSettingsOf(fleet);
    QString link = QString::fromStdString(fleet.link);
    try {
        link = QString::fromStdString(dpu::linkOf(s.link).name);
    } catch (const std::exception&) { // validate() names the key; the tooltip shows the key as given
    }
    fleet_->setToolTip(tr("The deployment the plan is for (its fleet keys): %L1 devices on %2, %3 % frame loss, "
                          "%4 % available per round, a round every %5 h. dpu-cli fleet and the Fleet tab start from it.")
                           .arg(fleet.devices)
                           .arg(link)
                           .arg(fleet.frameLoss * 100)
                           .arg(fleet.availability * 100)
                           .arg(fleet.roundPeriodHours));
    if (filling_) // setPlan() gives the readout the whole plan once it is filled
        return;
    cost_->setPlan(plan()); // the per-device row is on this link
    Q_EMIT planEdited();
}

void PlanPanel::choosePlanLink(const QString& key)
{
    if (key.toStdString() == base_.fleet.link)
        return;
    dpu::PlanFleet fleet = base_.fleet;
    fleet.link = key.toStdString();
    // An SF, a sub-band or multicast belongs to the link they were chosen for.
    fleet.spreadingFactor = 0;
    fleet.sfMix.clear();
    fleet.dutyCycle = 0;
    fleet.delivery = dpu::DeliveryChoice::Preset;
    setPlanFleet(fleet);
    validate();
}

void PlanPanel::showMethod(const dpu::Plan& plan)
{
    method_->setToolTip(tr("The plan's method: %1. Opens the mode, re-initialisation, FU's start, rewinding and the "
                           "deployed model's form.")
                            .arg(PlanMethodDialog::summary(plan)));
}

void PlanPanel::editPlanMethod()
{
    PlanMethodDialog dialog(this);
    const dpu::Plan before = plan();
    dialog.setPlan(before);
    if (dialog.exec() != QDialog::Accepted)
        return;
    dpu::Plan edited = before;
    dialog.applyTo(edited); // clears what the new method took the meaning of, on the form too
    base_ = edited; // the form's own fields are read from its widgets; the rest are the plan's
    showCleared(edited);
    updateEnabling();
    showMethod(base_);
    validate();
    cost_->setPlan(plan());
    if (dpu::planToJson(plan()) != dpu::planToJson(before))
        Q_EMIT planEdited();
}

void PlanPanel::editPlanFleet()
{
    PlanFleetDialog dialog(this);
    dialog.setFleet(base_.fleet);
    if (dialog.exec() == QDialog::Accepted) {
        setPlanFleet(dialog.fleet());
        validate();
    }
}

dpu::Plan PlanPanel::plan() const
{
    dpu::Plan p = base_;
    p.name = name_->text().trimmed().toStdString();
    p.model = model_->currentText().trimmed().toStdString();
    p.dataset.kind = comboValue(datasetKind_, dpu::DataKind::Idx);
    p.dataset.path = datasetPath_->text().trimmed().toStdString();
    p.dataset.normalise = comboValue(normalise_, dpu::Normalise::Train);
    p.dataset.augment.cropPadding = cropPadding_->value();
    p.dataset.augment.flip = flip_->isChecked();
    p.split.initial = initial_->value();
    p.split.perRound = perRound_->value();
    p.split.rounds = rounds_->value();
    p.split.validation = validation_->value();
    // Keep the engine's canonical order so saved plans compare equal.
    p.strategies.clear();
    for (const auto& s : dpu::strategyNames())
        if (strategies_.value(QString::fromStdString(s))->isChecked())
            p.strategies.push_back(s);
    p.k = k_->value();
    p.lambda = lambda_->value();
    p.train.epochs = epochs_->value();
    p.train.lr = lr_->value();
    p.train.optimizer = comboValue(optimizer_, dpu::Optimizer::Adam);
    p.seeds.clear();
    for (const QString& part : seeds_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qulonglong v = part.toULongLong(&ok);
        if (ok)
            p.seeds.push_back(v);
    }
    p.device = comboValue(device_, dpu::ComputeDevice::Auto);
    p.bundle.values = comboValue(values_, dpu::Coding::Fp32);
    p.bundle.quantAware = quantAware_->isChecked(); // unchecked with fp32 (updateEnabling)
    p.bundle.denseTensors = comboValue(dense_, dpu::DenseTensors::Exact);
    const bool perRun = budgetUnit_->currentData().toString() == QLatin1String("run");
    p.budget.bytesPerRound = perRun ? 0 : budget_->value();
    p.budget.bytesTotal = perRun ? budget_->value() : 0;
    return p;
}

void PlanPanel::onModelOrDatasetChanged()
{
    const QString name = model_->currentText().trimmed();
    int classes = 10;
    dpu::InputShape shape;
    const bool fixed = fixedShape(comboValue(datasetKind_, dpu::DataKind::Idx), &shape, &classes);
    const ProbeResult* probed = currentProbe();
    if (probed && probed->error.empty()) {
        shape = probed->probe.shape;
        classes = probed->probe.classes;
    } else if (!fixed) {
        // Arrays and images: the shape is known once the data is read.
        modelInfo_->setProperty("error", QString());
        modelInfo_->setText(QString());
        cost_->setModelInfo({});
        return;
    }
    const QString key = QStringLiteral("%1|%2x%3x%4|%5|%6")
                            .arg(name)
                            .arg(shape.channels).arg(shape.height).arg(shape.width)
                            .arg(classes).arg(base_.widthMultiplier);
    modelInfo_->setProperty("error", QString());
    const bool builtin = model_->findText(name) >= 0;
    if (!modelCache_.contains(key)) {
        if (!builtin && !name.startsWith(QLatin1String("torchscript:"))) {
            modelInfo_->setProperty("error", tr("unknown model \"%1\"").arg(name));
            modelInfo_->setText(QString());
            cost_->setModelInfo({});
            return;
        }
        try {
            // Builds the model once on the GUI thread (milliseconds for the zoo); cached per shape.
            // A TorchScript file's first check starts the check process (about half a second).
            const double width = name == QLatin1String("mobilenetv1") ? base_.widthMultiplier : 1.0;
            const WaitCursor wait(!builtin);
            modelCache_.insert(key, dpu::describeModel(name.toStdString(), shape, classes, width));
        } catch (const std::exception& e) {
            modelInfo_->setProperty("error", QString::fromStdString(e.what()));
            modelInfo_->setText(QString());
            cost_->setModelInfo({});
            return;
        }
    }
    const dpu::ModelInfo& info = modelCache_[key];
    modelInfo_->setText(tr("%L1 weights (%L2 partial + %L3 dense), %4 fp32")
                            .arg(info.partialWeights + info.denseWeights)
                            .arg(info.partialWeights)
                            .arg(info.denseWeights)
                            .arg(CostReadout::formatBytes(static_cast<double>(info.fp32Bytes()))));
    cost_->setModelInfo(info);
}

void PlanPanel::setK(double k)
{
    k_->setValue(k);
}

void PlanPanel::setKWithin(double k)
{
    // Rounded down (0.0099583 becomes 0.009958): rounding up to 0.00996 cost more than the
    // budget that gave it. Core's rule, which the Budget tab's answer shows too.
    k_->setValue(dpu::roundKDown(k));
}

void PlanPanel::onKSpinChanged(double k)
{
    const QSignalBlocker block(kSlider_);
    kSlider_->setValue(sliderPosForK(k));
    cost_->setK(k);
}

void PlanPanel::onKSliderMoved(int pos)
{
    // The spin box is the source of truth; the slider only proposes a rounded value.
    const double k = kForSliderPos(pos);
    const double rounded = std::round(k * 1e5) / 1e5;
    k_->setValue(std::max(rounded, kMinSliderK));
}

int PlanPanel::sliderPosForK(double k)
{
    if (!(k > kMinSliderK))
        return 0;
    if (k >= 1)
        return kSliderSteps;
    const double t = (std::log10(k) - std::log10(kMinSliderK)) / -std::log10(kMinSliderK);
    return static_cast<int>(std::lround(t * kSliderSteps));
}

double PlanPanel::kForSliderPos(int pos)
{
    const double t = static_cast<double>(pos) / kSliderSteps;
    return std::pow(10.0, std::log10(kMinSliderK) * (1.0 - t));
}

} // namespace dpu::ui
