// SPDX-License-Identifier: MIT
// The plan form: model, dataset, split, strategies, k (with cost readout), bundle coding and budget, training.
#pragma once
#include "dpu/Models.h"
#include "dpu/Plan.h"
#include "panels/FieldEnabling.h"
#include "workers/ProbeWorker.h"
#include <QHash>
#include <QMap>
#include <QString>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QJsonObject;
class QFormLayout;
class QPushButton;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QThread;
class QToolButton;
class QTimer;

namespace dpu::ui {

class CostReadout;
class FieldErrorMarks;

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
    /// The plan's link and fleet (its fleet.* keys), as the form's Fleet… dialog sets them.
    void setPlanFleet(const dpu::PlanFleet& fleet);
    /// Opens the Fleet… dialog over the plan's fleet keys; OK keeps what it states.
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
    bool isValid() const { return errors_.isEmpty() && !detectingKind(); }
    /// The form's widgets bound to the plan's fields, enabled by the field table's rules.
    const FieldEnabling& enabling() const { return enabling_; }
    /// "path: reason" of every problem found by the last validate(), one per line.
    QString errorText() const;
    /// Why the plan cannot run, for Run's tooltip and the log: the problems, or that the data's
    /// kind is still being detected; empty when it can.
    QString whyNotValid() const;
    /// The reason shown at the field owning a plan path (e.g. "train.epochs"); empty when fine.
    QString fieldError(const QString& path) const;
    /// After setFileProblems(): a marked number field shows the file's value where it can hold
    /// it (k = -0.5, rounds = 0), so the field and its message agree; `file` is the plan file's
    /// JSON. Other fields keep their defaults.
    void showFileValues(const QJsonObject& file);
    /// The red line under the field of a plan path that shows its reason (hidden when fine).
    QLabel* errorLabelFor(const QString& path) const;
    /// The widget that edits a plan path (nullptr when the form does not show it).
    QWidget* fieldFor(const QString& path) const;
    /// The described plan fields (dpu::planFields()) the form deliberately has no widget for.
    static QStringList pathsWithoutField();

    /// "<data>-<model>-k<k>" (e.g. "fashion-mlp-k0.01"): the name a plan gets from its fields.
    static QString automaticName(const dpu::Plan& plan);
    /// Whether the name follows model, data and k (true until the user types a name).
    bool nameFollows() const { return nameFollows_; }
    /// Lets a template's name (a built-in preset) follow the fields as an automatic one does.
    void setNameFollows(bool follows);

    CostReadout* costReadout() const { return cost_; }
    /// Sets k as the user would (spin box, slider and readout follow).
    void setK(double k);
    /// Sets `k` rounded down to four significant digits (a budget's answer: rounding up would
    /// cost more than the budget allows).
    void setKWithin(double k);
    /// Maps k in [0.0005, 1] to the slider's 0..1000 and back (logarithmic).
    static int sliderPosForK(double k);
    static double kForSliderPos(int pos);

    /// Whether the dataset shown is still being read (its summary and the model list follow).
    bool probePending() const { return probeBusy_ || probeWaiting_; }
    /// What the last finished probe found for the dataset shown, or nullptr (not read yet, or the
    /// fields changed since): the error, the summary, the models that fit.
    const ProbeResult* currentProbe() const;
    /// Sets the dataset path as picking it would: its kind is detected and it is read.
    void pickDataset(const QString& path);
    /// Whether the kind of the path shown is still being detected (the kind field may be stale).
    bool detectingKind() const { return probePending() && detectNext_; }
    /// Detects the kind of the path shown again and reads it, as picking it would.
    void detectKind() { scheduleProbe(true); }

Q_SIGNALS:
    /// Any field changed (the plan differs from the one last set).
    void planEdited();
    void validityChanged(bool valid);
    /// A probe of the dataset finished (summary, model list and field checks are up to date).
    void dataProbed();

private:
    /// The Method… button's tooltip: the plan's mode and ablations in words.
    void showMethod(const dpu::Plan& plan);
    QWidget* buildForm();
    void addModelRows(QFormLayout* form, QWidget* box);
    void addDatasetRows(QFormLayout* form, QWidget* box);
    /// Normalisation and the seeded augmentations, on one row.
    void addPreprocessRow(QFormLayout* form, QWidget* box);
    void addSplitRows(QFormLayout* form, QWidget* box);
    void addStrategyBox(QFormLayout* form, QWidget* box);
    void addRatioRows(QFormLayout* form, QWidget* box);
    /// Value coding with its quantisation-aware switch, the biases' treatment, and the byte budget
    /// (per round or per run).
    void addBundleRows(QFormLayout* form, QWidget* box);
    void addTrainingRows(QFormLayout* form, QWidget* box);
    /// One form row holding two fields: `first`, then `second` after its own label.
    static QWidget* pairRow(QWidget* box, QWidget* first, const QString& secondLabel, QWidget* second);
    /// Adds `row` under `label`, whose mnemonic focuses `first`.
    static void addPairRow(QFormLayout* form, const QString& label, QWidget* row, QWidget* first);
    /// Object names: what tests and settings find the fields by.
    void nameFields();
    static QString strategyToolTip(const QString& name);
    void connectEdits();
    /// Fills fields_ from the engine's field table (after buildForm()).
    void mapFields();
    void onModelOrDatasetChanged();
    void onKSpinChanged(double k);
    void onKSliderMoved(int pos);
    /// Binds the widgets whose fields have rules in the engine's table (after buildForm()).
    void bindRules();
    /// Enables the widgets by the table's rules, and puts back what no longer applies.
    void updateEnabling();
    /// Shows the fields clearInapplicable() may have changed (strategies, the bundle's and the budget's).
    void showCleared(const dpu::Plan& cleared);
    void markErrors();
    /// Marks the split fields the dataset on disk cannot hold (dpu::checkSplitFits).
    void checkSplitAgainstData(const dpu::Plan& p);
    void browseDataset(bool file);
    /// Reads the dataset on the worker (after a short pause, so typing does not read every prefix).
    void scheduleProbe(bool detect);
    void sendProbe();
    void onProbed(const dpu::ui::ProbeResult& result);
    /// The summary line under the path, and the model list's fit marks.
    void showProbe();
    /// The dataset errors of the probe (the reader's, the split's, the model's) for validate().
    void addProbeErrors(const dpu::Plan& p);
    void startProbeThread();
    void stopProbeThread();
    void followName();

    dpu::Plan base_;
    bool filling_ = false;
    bool nameFollows_ = true;
    QMap<QString, QString> errors_; // plan path -> reason
    QMap<QString, QString> fileProblems_; // plan path -> reason, from the plan file last opened
    QHash<QString, QWidget*> fields_;     // plan field path -> the widget that shows it (mapFields)
    /// Drops the file problems of the field that sent the edit being handled.
    void dropFileProblemsOf(QObject* field);
    std::unique_ptr<FieldErrorMarks> marks_;
    QHash<QString, dpu::ModelInfo> modelCache_;

    QLineEdit* name_;
    QComboBox* model_;
    QLabel* modelInfo_;
    QComboBox* datasetKind_;
    QLineEdit* datasetPath_;
    QPushButton* browse_;
    QLabel* dataInfo_;
    QComboBox* normalise_;
    QSpinBox* cropPadding_;
    QCheckBox* flip_;
    QThread* probeThread_ = nullptr;
    ProbeWorker* probeWorker_ = nullptr;
    QTimer* probeTimer_ = nullptr;
    quint64 probeSeq_ = 0;
    bool probeBusy_ = false;    ///< a request is on the worker
    bool probeWaiting_ = false; ///< a request waits for the timer or for the worker
    bool detectNext_ = false;
    bool lastValid_ = true; // what validate() last said, for validityChanged
    bool haveProbe_ = false;
    ProbeResult probe_;
    QSpinBox* initial_;
    QSpinBox* perRound_;
    QSpinBox* rounds_;
    QSpinBox* validation_;
    QGroupBox* strategiesBox_;
    QMap<QString, QCheckBox*> strategies_;
    FieldEnabling enabling_;
    QDoubleSpinBox* k_;
    QSlider* kSlider_;
    CostReadout* cost_;
    QToolButton* fleet_; ///< the plan's link and fleet (PlanFleetDialog); its tooltip says what they are
    QToolButton* method_; ///< mode, re-initialisation, FU's start, rewinding (PlanMethodDialog)
    QComboBox* values_;
    QCheckBox* quantAware_;
    QComboBox* dense_;
    QSpinBox* budget_;
    QComboBox* budgetUnit_; ///< "round" or "run": which budget the spin box sets
    QDoubleSpinBox* lambda_;
    QSpinBox* epochs_;
    QDoubleSpinBox* lr_;
    QComboBox* optimizer_;
    QLineEdit* seeds_;
    QComboBox* device_;
    QLabel* errorLabel_;
};

} // namespace dpu::ui
