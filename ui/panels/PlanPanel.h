// SPDX-License-Identifier: MIT
// The plan form: model, dataset, split, strategies, k (with cost readout), bundle coding and budget, training.
#pragma once
#include "dpu/Plan.h"
#include "panels/FieldEnabling.h"
#include "panels/PlanCostRows.h"
#include "panels/PlanDataRows.h"
#include "panels/PlanFieldChecks.h"
#include "panels/PlanNameRow.h"
#include "workers/ProbeQueue.h"
#include "workers/ProbeWorker.h"
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

class QJsonObject;
class QLabel;

namespace dpu::ui {

class CostReadout;
class PlanBundleRows;
class PlanModelRow;
class PlanStrategyBox;
class PlanTrainingRows;

/// Coordinates the form's sections (each owns its rows), the dataset's probe and the checks:
/// what the plan is, what follows an edit (the name, the rules' enabling, the checks, the cost
/// readout), and what the rest of the window asks of the form.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlanPanel(QWidget* parent = nullptr);
    ~PlanPanel() override;

    /// Fills the form. Fields the form does not show (batch, schedule, limits, ...) are kept
    /// and come back unchanged from plan().
    void setPlan(const dpu::Plan& plan);
    /// The plan as edited (not validated).
    dpu::Plan plan() const;
    /// The plan's deployment (its fleet.* keys), as the form's Deployment… dialog sets them, or
    /// a tab's Use in plan (the Fleet and Budget tabs').
    void setPlanFleet(const dpu::Deployment& fleet);
    /// Opens the Deployment… dialog over the plan's fleet keys: the one place the window edits
    /// the deployment (the tabs start from it). OK keeps what it states.
    void editPlanFleet();
    /// Opens the Method… dialog over the plan's mode, reinit, reinit_every, fu_start, rewind,
    /// deployed and deployed_sparsity; OK keeps what it states.
    void editPlanMethod();
    /// The Link row's choice: the plan's `fleet.link` becomes `key`; another link starts from
    /// its own SF, sub-band and delivery (devices, loss, availability and period stay).
    void choosePlanLink(const QString& key);
    /// Marks what a plan file got wrong (dpu::recoverPlan's problems; the form holds defaults
    /// there) until the user edits each marked field; Run stays refused meanwhile. setPlan()
    /// clears them, so call this after it.
    void setFileProblems(const std::vector<dpu::PlanProblem>& problems, const QString& fileName);

    /// Checks the form (local checks, then dpu::validatePlan), marks the offending field and
    /// returns true when the plan can run. While a path's kind is being detected the path gets
    /// no mark (the kind shown may be the old one) and the plan cannot run yet.
    bool validate();
    bool isValid() const { return !checks_->hasErrors() && !detectingKind(); }
    /// The form's widgets bound to the plan's fields, enabled by the field table's rules.
    const FieldEnabling& enabling() const { return enabling_; }
    /// "path: reason" of every problem found by the last validate(), one per line.
    QString errorText() const { return checks_->errorText(); }
    /// Why the plan cannot run, for Run's tooltip and the log: the problems, or that the data's
    /// kind is still being detected; empty when it can.
    QString whyNotValid() const;
    /// The reason shown at the field owning a plan path (e.g. "train.epochs"); empty when fine.
    QString fieldError(const QString& path) const { return checks_->fieldError(path); }
    /// After setFileProblems(): a marked number field shows the file's value where it can hold
    /// it (k = -0.5, rounds = 0), so the field and its message agree; `file` is the plan file's
    /// JSON. Other fields keep their defaults.
    void showFileValues(const QJsonObject& file);
    /// The red line under the field of a plan path that shows its reason (hidden when fine).
    QLabel* errorLabelFor(const QString& path) const { return checks_->errorLabelFor(path); }
    /// The widget that edits a plan path (nullptr when the form does not show it).
    QWidget* fieldFor(const QString& path) const { return checks_->fieldFor(path); }
    /// The described plan fields (dpu::planFields()) the form deliberately has no widget for.
    static QStringList pathsWithoutField() { return PlanFieldChecks::pathsWithoutField(); }

    /// "<data>-<model>-k<k>" (e.g. "fashion-mlp-k0.01"): the name a plan gets from its fields.
    static QString automaticName(const dpu::Plan& plan) { return PlanNameRow::automaticName(plan); }
    /// Whether the name follows model, data and k (true until the user types a name).
    bool nameFollows() const { return name_->follows(); }
    /// Lets a template's name (a built-in preset) follow the fields as an automatic one does.
    void setNameFollows(bool follows) { name_->setFollows(follows); }

    /// The cost readout under k (the window gives it the frontier and follows its cost model).
    CostReadout* costReadout() const { return cost_->readout(); }
    /// Sets k as the user would (spin box, slider and readout follow).
    void setK(double k) { cost_->setK(k); }
    /// Sets `k` rounded down to four significant digits (a budget's answer: rounding up would
    /// cost more than the budget allows).
    void setKWithin(double k);
    /// Maps k in [0.0005, 1] to the slider's 0..1000 and back (logarithmic).
    static int sliderPosForK(double k) { return PlanCostRows::sliderPosForK(k); }
    static double kForSliderPos(int pos) { return PlanCostRows::kForSliderPos(pos); }

    /// Whether the dataset shown is still being read (its summary and the model list follow).
    bool probePending() const { return probe_->pending(); }
    /// What the last finished probe found for the dataset shown, or nullptr (not read yet, or the
    /// fields changed since): the error, the summary, the models that fit.
    const ProbeResult* currentProbe() const { return probe_->resultFor(plan().dataset); }
    /// Sets the dataset path as picking it would: its kind is detected and it is read.
    void pickDataset(const QString& path) { data_->setPath(path); }
    /// Whether the kind of the path shown is still being detected (the kind field may be stale).
    bool detectingKind() const { return probe_->detecting(); }
    /// Detects the kind of the path shown again and reads it, as picking it would.
    void detectKind() { probe_->schedule(true); }

Q_SIGNALS:
    /// Any field changed (the plan differs from the one last set).
    void planEdited();
    /// The plan's deployment (plan().fleet) may have changed: a plan was set (opened, restored,
    /// adjusted), or setPlanFleet() (the Deployment… dialog, the Link row, a tab's Use in plan).
    void deploymentChanged();
    void validityChanged(bool valid);
    /// A probe of the dataset finished (summary, model list and field checks are up to date).
    void dataProbed();

private:
    /// The form's sections in the order they are shown, with the name row first.
    QWidget* buildForm();
    /// What follows each section's edits (connected once the first plan is shown).
    void connectEdits();
    /// An edit of `field`: its file problems go, the form is checked, the readout follows.
    void onEdited(QObject* field);
    /// An edit of a field the automatic name is made of (model, data, k).
    void onNamedEdit(QObject* field);
    /// The model line for the data shown, and the readout's model.
    void showModel();
    /// The data's summary and the model list's fit marks.
    void showProbe();
    /// A probe's answer: a detected kind replaces the one shown (one edit), then all follows.
    void onProbed(const dpu::ui::ProbeResult& result);
    /// Enables the widgets by the table's rules, and puts back what no longer applies.
    void updateEnabling();
    /// Shows the fields clearInapplicable() may have changed (strategies, the bundle's and the budget's).
    void showCleared(const dpu::Plan& cleared);

    dpu::Plan base_;
    bool filling_ = false;
    bool lastValid_ = true; // what validate() last said, for validityChanged
    PlanNameRow* name_ = nullptr;
    PlanFieldChecks* checks_ = nullptr;
    PlanModelRow* model_ = nullptr;
    PlanDataRows* data_ = nullptr;
    PlanStrategyBox* strategies_ = nullptr;
    PlanCostRows* cost_ = nullptr;
    PlanBundleRows* bundle_ = nullptr;
    PlanTrainingRows* training_ = nullptr;
    ProbeQueue* probe_ = nullptr;
    FieldEnabling enabling_;
};

} // namespace dpu::ui
