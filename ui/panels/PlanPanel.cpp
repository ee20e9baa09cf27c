// SPDX-License-Identifier: MIT
// PlanPanel: edits a dpu::Plan through its sections; validation comes from the engine so the GUI and CLI agree.
#include "panels/PlanPanel.h"
#include "dpu/PlanFields.h"
#include "dpu/RoundEstimate.h"
#include "panels/CostReadout.h"
#include "panels/FieldErrorMarks.h"
#include "panels/PlanBundleRows.h"
#include "panels/PlanFleetDialog.h"
#include "panels/PlanMethodDialog.h"
#include "panels/PlanModelRow.h"
#include "panels/PlanStrategyBox.h"
#include "panels/PlanTrainingRows.h"
#include <QDir>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLabel>
#include <QVBoxLayout>

namespace dpu::ui {
namespace {
const char* const kFashionMnist = "/usr/share/datasets/fashion-mnist";
} // namespace

PlanPanel::PlanPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(layout->contentsMargins().left(), 0, layout->contentsMargins().right(), 0);
    layout->addWidget(buildForm());
    layout->addWidget(checks_->errorList());
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

PlanPanel::~PlanPanel() = default;

QWidget* PlanPanel::buildForm()
{
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    // Fields take the width there is; at a narrow width labels move above their fields
    // instead of pushing the form wider than the window.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    checks_ = new PlanFieldChecks(form, this);
    FieldErrorMarks& marks = checks_->marks();
    // Created in the order they are shown: Tab visits the fields so.
    name_ = new PlanNameRow(form, marks, this);
    model_ = new PlanModelRow(form, marks, this);
    data_ = new PlanDataRows(form, marks, this);
    strategies_ = new PlanStrategyBox(form, marks, this);
    cost_ = new PlanCostRows(form, marks, this);
    bundle_ = new PlanBundleRows(form, marks, this);
    training_ = new PlanTrainingRows(form, marks, this);
    probe_ = new ProbeQueue([this] { return ProbeQueue::requestFor(plan(), model_->offered()); }, this);
    connect(probe_, &ProbeQueue::answered, this, &PlanPanel::onProbed);
    connect(probe_, &ProbeQueue::nothingToRead, this, [this] {
        showProbe();
        validate();
        Q_EMIT dataProbed();
    });
    connect(strategies_, &PlanStrategyBox::methodClicked, this, &PlanPanel::editPlanMethod);
    connect(cost_, &PlanCostRows::fleetClicked, this, &PlanPanel::editPlanFleet);
    connect(cost_->readout(), &CostReadout::linkChosen, this, &PlanPanel::choosePlanLink);
    // Each section says which plan paths its widgets edit; the data's other keys are marked at
    // the path (where the data is named), the deployment at Deployment… (beside the link).
    QHash<QString, QWidget*> own{{QStringLiteral("name"), name_->field()}, {QStringLiteral("model"), model_->field()}};
    for (const auto& fields :
         {data_->fields(), strategies_->fields(), cost_->fields(), bundle_->fields(), training_->fields()})
        own.insert(fields);
    checks_->mapFields(own, {{QStringLiteral("dataset."), data_->pathField()},
                             {QStringLiteral("fleet."), cost_->fleetField()}});
    // The rules are the engine's (dpu::fieldApplies); test_ui_plan_dialogs holds every ruled
    // field of the form to a binding here.
    cost_->bindRules(enabling_);
    bundle_->bindRules(enabling_);
    strategies_->bindRules(enabling_);
    return box;
}

void PlanPanel::connectEdits()
{
    connect(name_, &PlanNameRow::edited, this, &PlanPanel::onEdited);
    connect(model_, &PlanModelRow::modelChanged, this, [this](QObject* field, const QString& text) {
        if (!filling_ && text.trimmed().startsWith(QLatin1String("torchscript:")))
            probe_->schedule(detectingKind()); // its fit takes one forward pass on the data's shape
        showModel();
        onNamedEdit(field);
    });
    connect(data_, &PlanDataRows::kindChanged, this, [this](QObject* field) {
        if (!filling_)
            probe_->schedule(false); // read the data the way the user chose
        showModel();
        showProbe();
        onNamedEdit(field);
    });
    // A path typed or picked: its kind is detected when it is read.
    connect(data_, &PlanDataRows::pathChanged, this, [this](QObject* field) {
        if (!filling_)
            probe_->schedule(true);
        showModel();
        showProbe();
        onNamedEdit(field);
    });
    connect(cost_, &PlanCostRows::kChanged, this, &PlanPanel::onNamedEdit);
    // The coding and the budget decide what else applies: the enabling follows before the edit.
    connect(bundle_, &PlanBundleRows::ruleEdited, this, [this](QObject* field) {
        updateEnabling();
        onEdited(field);
    });
    connect(data_, &PlanDataRows::edited, this, &PlanPanel::onEdited);
    connect(strategies_, &PlanStrategyBox::edited, this, &PlanPanel::onEdited);
    connect(bundle_, &PlanBundleRows::edited, this, &PlanPanel::onEdited);
    connect(training_, &PlanTrainingRows::edited, this, &PlanPanel::onEdited);
}

void PlanPanel::onEdited(QObject* field)
{
    if (filling_)
        return;
    checks_->dropFileProblemsOf(field);
    validate();
    cost_->readout()->setPlan(plan());
    Q_EMIT planEdited();
}

void PlanPanel::onNamedEdit(QObject* field)
{
    if (!filling_)
        name_->follow(plan());
    onEdited(field);
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
    if (dpu::planToJson(plan()) == dpu::planToJson(cleared))
        return;
    // The caller validates and reports the edit once.
    bundle_->showCleared(cleared);
    strategies_->setChosen(cleared.strategies);
}

void PlanPanel::setPlan(const dpu::Plan& plan)
{
    base_ = plan;
    checks_->clearFileProblems();
    // The sections fill in the order the form always did: a coding or budget set re-applies the
    // rules on what is shown so far (PlanBundleRows::ruleEdited), so the order is not free.
    filling_ = true;
    setPlanFleet(plan.fleet); // its button's tooltip
    strategies_->showMethod(plan);
    name_->setFrom(plan); // a name made from the fields keeps following them
    model_->setName(QString::fromStdString(plan.model));
    data_->setFrom(plan);
    strategies_->setChosen(plan.strategies);
    cost_->showPlanK(plan.k);
    training_->setFrom(plan);
    bundle_->setFrom(plan); // the coding's and the budget's rules apply as they are set
    updateEnabling();
    filling_ = false;
    probe_->forget();
    probe_->schedule(false); // a plan names its kind: read the data that way
    showModel();
    showProbe();
    validate();
    cost_->readout()->setPlan(this->plan()); // the readout estimates for this coding and these strategies
    Q_EMIT deploymentChanged(); // the tabs start from it
}

dpu::Plan PlanPanel::plan() const
{
    dpu::Plan p = base_;
    p.name = name_->name().toStdString();
    p.model = model_->name().toStdString();
    data_->writeTo(p);
    p.strategies = strategies_->chosen();
    p.k = cost_->k();
    training_->writeTo(p);
    bundle_->writeTo(p);
    return p;
}

void PlanPanel::setPlanFleet(const dpu::Deployment& fleet)
{
    base_.fleet = fleet;
    cost_->showFleet(fleet);
    if (filling_) // setPlan() gives the readout the whole plan once it is filled
        return;
    cost_->readout()->setPlan(plan()); // the per-device row is on this link
    Q_EMIT planEdited();
    Q_EMIT deploymentChanged();
}

void PlanPanel::choosePlanLink(const QString& key)
{
    if (key.toStdString() == base_.fleet.link.link)
        return;
    dpu::Deployment fleet = base_.fleet;
    fleet.link.link = key.toStdString();
    // An SF, a sub-band or multicast belongs to the link they were chosen for.
    fleet.link.spreadingFactor = 0;
    fleet.link.sfMix.clear();
    fleet.link.dutyCycle.reset();
    fleet.link.delivery = dpu::DeliveryChoice::Preset;
    setPlanFleet(fleet);
    validate();
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
    strategies_->showMethod(base_);
    validate();
    cost_->readout()->setPlan(plan());
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

void PlanPanel::showModel()
{
    cost_->readout()->setModelInfo(model_->describe(data_->kind(), currentProbe(), base_.widthMultiplier));
}

void PlanPanel::showProbe()
{
    const ProbeResult* probed = currentProbe();
    model_->showFits(probed);
    data_->showSummary(probed, probePending());
}

void PlanPanel::onProbed(const dpu::ui::ProbeResult& result)
{
    // A detected kind replaces the one shown as one edit: the name, the model line, the
    // summary, the checks and the readout follow it, and the window hears of it.
    const bool kindDetected = result.detected && data_->kind() != result.spec.kind;
    if (kindDetected) {
        data_->showKind(result.spec.kind);
        name_->follow(plan());
    }
    showModel();
    showProbe();
    validate();
    if (kindDetected) {
        cost_->readout()->setPlan(plan());
        Q_EMIT planEdited();
    }
    Q_EMIT dataProbed();
}

bool PlanPanel::validate()
{
    const bool wasValid = lastValid_;
    checks_->check(plan(), {training_->seedsProblem(), model_->problem(), detectingKind(), currentProbe()});
    lastValid_ = isValid();
    if (wasValid != lastValid_)
        Q_EMIT validityChanged(lastValid_);
    return lastValid_;
}

QString PlanPanel::whyNotValid() const
{
    if (checks_->hasErrors())
        return errorText();
    return detectingKind() ? tr("the data's kind is still being detected (reading %1)").arg(data_->path()) : QString();
}

void PlanPanel::setFileProblems(const std::vector<dpu::PlanProblem>& problems, const QString& fileName)
{
    checks_->setFileProblems(problems, fileName);
    validate();
}

void PlanPanel::showFileValues(const QJsonObject& file)
{
    // The file's list with a name the engine does not know: its known names ticked, not the
    // default's (an unknown "foo" beside "dpu" left dpu, fu and rpu ticked).
    const QJsonValue listed = file.value(QStringLiteral("strategies"));
    if (listed.isArray() && checks_->hasFileProblemAt(fieldFor(QStringLiteral("strategies")))) {
        std::vector<std::string> names;
        for (const QJsonValue& v : listed.toArray())
            names.push_back(v.toString().toStdString());
        strategies_->setChosen(names);
    }
    checks_->showFileNumbers(file); // the rest: numbers, where a field can hold them
    validate();
}

void PlanPanel::setKWithin(double k)
{
    // Rounded down (0.0099583 becomes 0.009958): rounding up to 0.00996 cost more than the
    // budget that gave it. Core's rule, which the Budget tab's answer shows too.
    cost_->setK(dpu::roundKDown(k));
}

} // namespace dpu::ui
