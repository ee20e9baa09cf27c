// SPDX-License-Identifier: MIT
// PlanPanel: edits a dpu::Plan; validation comes from the engine so the GUI and CLI agree.
#include "panels/PlanPanel.h"
#include "dpu/Cost.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "panels/CostReadout.h"
#include "panels/DatasetCheck.h"
#include "panels/FieldErrorMarks.h"
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
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace dpu::ui {
namespace {
constexpr double kMinSliderK = 0.0005;
constexpr int kSliderSteps = 1000;
const char* const kFashionMnist = "/usr/share/datasets/fashion-mnist";

QSpinBox* intSpin(QWidget* parent, int lo, int hi)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setGroupSeparatorShown(false);
    return s;
}

dpu::InputShape shapeOf(const QString& kind, int* classes)
{
    *classes = kind == QLatin1String("cifar100") ? 100 : 10;
    if (kind == QLatin1String("idx"))
        return {1, 28, 28};
    return {3, 32, 32};
}
} // namespace

PlanPanel::PlanPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildForm());
    errorLabel_ = new QLabel(this);
    errorLabel_->setObjectName(QStringLiteral("planErrors"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    layout->addWidget(errorLabel_);
    layout->addStretch(1);
    dpu::Plan initial = dpu::defaultPlan();
    // Preselect Fashion-MNIST when Debian's dataset-fashion-mnist package is installed.
    if (QDir(QString::fromLatin1(kFashionMnist)).exists()) {
        initial.dataset.kind = "idx";
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
    marks_ = std::make_unique<FieldErrorMarks>(form);
    addModelRows(form, box);
    addDatasetRows(form, box);
    addSplitRows(form, box);
    addStrategyBox(form, box);
    addRatioRows(form, box);
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

void PlanPanel::addDatasetRows(QFormLayout* form, QWidget* box)
{
    datasetKind_ = new QComboBox(box);
    datasetKind_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    datasetKind_->setMinimumContentsLength(12);
    datasetKind_->addItem(tr("MNIST format (IDX)"), QStringLiteral("idx"));
    datasetKind_->addItem(tr("CIFAR-10 (binary)"), QStringLiteral("cifar10"));
    datasetKind_->addItem(tr("CIFAR-100 (binary)"), QStringLiteral("cifar100"));
    datasetPath_ = new QLineEdit(box);
    datasetPath_->setMinimumWidth(80);
    browse_ = new QPushButton(tr("Browse…"), box);
    browse_->setObjectName(QStringLiteral("datasetBrowse"));
    browse_->setToolTip(tr("Choose the dataset folder"));
    connect(browse_, &QPushButton::clicked, this, &PlanPanel::browseDataset);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(datasetPath_, 1);
    pathRow->addWidget(browse_);
    form->addRow(tr("&Dataset"), datasetKind_);
    marks_->addRow(QStringLiteral("datasetKind"), {datasetKind_});
    // No mnemonic: F opens the File menu.
    form->addRow(tr("Folder"), pathRow);
    marks_->addRow(QStringLiteral("datasetPath"), {datasetPath_});
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
    strategiesBox_ = new QGroupBox(tr("Strategies to compare"), box);
    auto* grid = new QGridLayout(strategiesBox_);
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
    k_ = new QDoubleSpinBox(box);
    k_->setObjectName(QStringLiteral("k"));
    // Wider than the valid (0, 1], so a typed 2 reaches validation and gets a message instead
    // of being swallowed by the spin box.
    k_->setRange(0, 100);
    k_->setDecimals(5);
    k_->setSingleStep(0.001);
    k_->setToolTip(tr("Updating ratio k: the share of the partial weights a round may change (0 < k ≤ 1)"));
    kSlider_ = new QSlider(Qt::Horizontal, box);
    kSlider_->setObjectName(QStringLiteral("kSlider"));
    kSlider_->setRange(0, kSliderSteps);
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
}

void PlanPanel::addTrainingRows(QFormLayout* form, QWidget* box)
{
    lambda_ = new QDoubleSpinBox(box);
    lambda_->setRange(-1, 2); // out-of-range values get the engine's message
    lambda_->setDecimals(3);
    lambda_->setSingleStep(0.05);
    lambda_->setToolTip(tr("DPU's weight of the global contribution (how far a weight moved in the full "
                           "training step) against the local one (how much it lowered the loss on the way); "
                           "0.5 weighs both equally, as the paper does. Only dpu and its variants use it."));
    form->addRow(tr("λ (global weight)"), lambda_);
    marks_->addRow(QStringLiteral("lambda"), {lambda_});
    epochs_ = intSpin(box, 0, 10000);
    epochs_->setToolTip(tr("Epochs of each training step per round: the full step and the sparse fine-tune "
                           "take this many each, so a DPU round trains about twice as long"));
    form->addRow(tr("&Epochs"), epochs_);
    marks_->addRow(QStringLiteral("epochs"), {epochs_});
    lr_ = new QDoubleSpinBox(box);
    lr_->setRange(0, 100);
    lr_->setDecimals(6);
    lr_->setSingleStep(0.001);
    form->addRow(tr("Learning rate"), lr_);
    marks_->addRow(QStringLiteral("lr"), {lr_});
    optimizer_ = new QComboBox(box);
    optimizer_->addItem(QStringLiteral("Adam"), QStringLiteral("adam"));
    optimizer_->addItem(QStringLiteral("SGD (Nesterov)"), QStringLiteral("sgd"));
    form->addRow(tr("O&ptimiser"), optimizer_);
    marks_->addRow(QStringLiteral("optimizer"), {optimizer_});
    seeds_ = new QLineEdit(box);
    seeds_->setPlaceholderText(tr("1, 2, 3"));
    seeds_->setToolTip(tr("One run per seed, separated by commas or spaces"));
    form->addRow(tr("&Seeds"), seeds_);
    marks_->addRow(QStringLiteral("seeds"), {seeds_});
    device_ = new QComboBox(box);
    for (const char* d : {"auto", "cpu", "cuda"})
        device_->addItem(QString::fromLatin1(d));
    form->addRow(tr("De&vice"), device_);
    marks_->addRow(QStringLiteral("device"), {device_});
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
}

QString PlanPanel::strategyToolTip(const QString& name)
{
    if (name == QLatin1String("fu"))
        return tr("Full updating: retrain from the seeded random model each round and send every weight");
    if (name == QLatin1String("dpu"))
        return tr("Deep Partial Updating: change the k share of weights with the largest combined (global and "
                  "local) contribution, with re-initialisation when the data has more than doubled");
    if (name == QLatin1String("dpu-noreinit"))
        return tr("DPU without re-initialisation: every round starts from the deployed weights");
    if (name == QLatin1String("dpu-memory"))
        return tr("DPU with server-side memory (error feedback): the server keeps its fully trained model, and "
                  "each round ships the most valuable part of everything the devices still lack");
    if (name == QLatin1String("gcpu"))
        return tr("Global contribution only (λ = 1): the weights that moved most in the full training step");
    if (name == QLatin1String("gcpu-reinit"))
        return tr("Global contribution only, with DPU's re-initialisation rule");
    if (name == QLatin1String("lcpu"))
        return tr("Local contribution only (λ = 0): the weights whose steps lowered the loss most");
    if (name == QLatin1String("rpu"))
        return tr("Random partial updating: fine-tune a random k share of each layer from the deployed weights");
    if (name == QLatin1String("pruning"))
        return tr("Pruning baseline: train from scratch, keep the k share of largest weights, send them and "
                  "their positions");
    return {};
}

void PlanPanel::connectEdits()
{
    auto edited = [this] {
        if (filling_)
            return;
        validate();
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
    connect(model_, &QComboBox::currentTextChanged, this, [this, namedEdit] {
        onModelOrDatasetChanged();
        namedEdit();
    });
    connect(datasetKind_, &QComboBox::currentIndexChanged, this, [this, namedEdit] {
        onModelOrDatasetChanged();
        namedEdit();
    });
    connect(datasetPath_, &QLineEdit::textChanged, this, namedEdit);
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
}

QString PlanPanel::automaticName(const dpu::Plan& plan)
{
    QString data = QString::fromStdString(plan.dataset.kind);
    if (data == QLatin1String("idx")) {
        const QString folder = QDir::cleanPath(QString::fromStdString(plan.dataset.path)).section(QLatin1Char('/'), -1).toLower();
        data = folder.contains(QLatin1String("fashion")) ? QStringLiteral("fashion")
               : folder.contains(QLatin1String("kmnist")) ? QStringLiteral("kmnist")
               : folder.contains(QLatin1String("mnist"))  ? QStringLiteral("mnist")
               : folder.isEmpty()                          ? QStringLiteral("idx")
                                                           : folder;
    }
    QString model = QString::fromStdString(plan.model);
    if (model.startsWith(QLatin1String("torchscript:")))
        model = QFileInfo(model.mid(12)).completeBaseName();
    return QStringLiteral("%1-%2-k%3").arg(data, model).arg(plan.k);
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
    // A name that was made from the fields keeps following them; one chosen by hand stays.
    nameFollows_ = QString::fromStdString(plan.name) == automaticName(plan);
    filling_ = true;
    name_->setText(QString::fromStdString(plan.name));
    model_->setCurrentText(QString::fromStdString(plan.model));
    const int kind = datasetKind_->findData(QString::fromStdString(plan.dataset.kind));
    datasetKind_->setCurrentIndex(kind < 0 ? 0 : kind);
    datasetPath_->setText(QString::fromStdString(plan.dataset.path));
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
    optimizer_->setCurrentIndex(plan.train.optimizer == "sgd" ? 1 : 0);
    QStringList seeds;
    for (uint64_t s : plan.seeds)
        seeds << QString::number(s);
    seeds_->setText(seeds.join(QStringLiteral(", ")));
    device_->setCurrentText(QString::fromStdString(plan.device));
    filling_ = false;
    onModelOrDatasetChanged();
    validate();
}

dpu::Plan PlanPanel::plan() const
{
    dpu::Plan p = base_;
    p.name = name_->text().trimmed().toStdString();
    p.model = model_->currentText().trimmed().toStdString();
    p.dataset.kind = datasetKind_->currentData().toString().toStdString();
    p.dataset.path = datasetPath_->text().trimmed().toStdString();
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
    p.train.optimizer = optimizer_->currentData().toString().toStdString();
    p.seeds.clear();
    for (const QString& part : seeds_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qulonglong v = part.toULongLong(&ok);
        if (ok)
            p.seeds.push_back(v);
    }
    p.device = device_->currentText().toStdString();
    return p;
}

bool PlanPanel::validate()
{
    const bool wasValid = errors_.isEmpty();
    errors_.clear();
    const dpu::Plan p = plan();
    // Local checks the engine only finds at run time, or cannot see (unparsed text).
    for (const QString& part : seeds_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        part.toULongLong(&ok);
        if (!ok) {
            errors_.insert(QStringLiteral("seeds"), tr("expected non-negative integers, found \"%1\"").arg(part));
            break;
        }
    }
    if (!p.dataset.path.empty()) {
        const QString problem = DatasetCheck::problem(QString::fromStdString(p.dataset.kind),
                                                      QString::fromStdString(p.dataset.path));
        if (!problem.isEmpty())
            errors_.insert(QStringLiteral("dataset.path"), problem);
        else
            checkSplitAgainstData(p);
    }
    if (!modelInfo_->property("error").toString().isEmpty())
        errors_.insert(QStringLiteral("model"), modelInfo_->property("error").toString());
    try {
        dpu::validatePlan(p);
    } catch (const dpu::PlanError& e) {
        const QString path = QString::fromStdString(e.path());
        QString reason = QString::fromStdString(e.what());
        if (!path.isEmpty() && reason.startsWith(path + QStringLiteral(": ")))
            reason = reason.mid(path.size() + 2);
        if (!errors_.contains(path))
            errors_.insert(path, reason);
    }
    markErrors();
    if (wasValid != errors_.isEmpty())
        Q_EMIT validityChanged(errors_.isEmpty());
    return errors_.isEmpty();
}

void PlanPanel::checkSplitAgainstData(const dpu::Plan& p)
{
    // The engine's own rule on the dataset's real size, so Run is refused here instead of the
    // run stopping early (headers only: microseconds, fine on every edit).
    try {
        dpu::checkSplitFits(p, dpu::readDatasetSize(p.dataset));
    } catch (const dpu::PlanError& e) {
        QString reason = QString::fromStdString(e.what());
        const QString path = QString::fromStdString(e.path());
        if (reason.startsWith(path + QStringLiteral(": ")))
            reason = reason.mid(path.size() + 2);
        errors_.insert(path, reason);
    } catch (const dpu::Error& e) {
        errors_.insert(QStringLiteral("dataset.path"), QString::fromStdString(e.what()));
    }
}

QString PlanPanel::errorText() const
{
    QStringList lines;
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        lines << (it.key().isEmpty() ? it.value() : it.key() + QStringLiteral(": ") + it.value());
    return lines.join(QLatin1Char('\n'));
}

QString PlanPanel::fieldError(const QString& path) const
{
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        if (fieldFor(it.key()) && fieldFor(it.key()) == fieldFor(path))
            return it.value();
    return {};
}

QWidget* PlanPanel::fieldFor(const QString& path) const
{
    if (path == QLatin1String("name")) return name_;
    if (path == QLatin1String("model") || path == QLatin1String("width_multiplier")) return model_;
    if (path == QLatin1String("dataset.kind")) return datasetKind_;
    if (path.startsWith(QLatin1String("dataset."))) return datasetPath_;
    if (path == QLatin1String("split.initial")) return initial_;
    if (path == QLatin1String("split.per_round")) return perRound_;
    if (path == QLatin1String("split.rounds")) return rounds_;
    if (path == QLatin1String("split.validation")) return validation_;
    if (path.startsWith(QLatin1String("strategies"))) return strategiesBox_;
    if (path == QLatin1String("k")) return k_;
    if (path == QLatin1String("lambda")) return lambda_;
    if (path == QLatin1String("train.epochs")) return epochs_;
    if (path == QLatin1String("train.lr")) return lr_;
    if (path == QLatin1String("train.optimizer")) return optimizer_;
    if (path == QLatin1String("seeds")) return seeds_;
    if (path == QLatin1String("device")) return device_;
    return nullptr;
}

void PlanPanel::markErrors()
{
    // At the field: red frame, tooltip and a line under it; the label below the form lists all
    // (also problems of fields the form does not show, e.g. train.batch from a plan file).
    QList<QPair<QWidget*, QString>> marks;
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
        if (QWidget* w = fieldFor(it.key()))
            marks.append({w, it.value()});
    marks_->mark(marks);
    errorLabel_->setText(errorText());
}

QLabel* PlanPanel::errorLabelFor(const QString& path) const
{
    QWidget* w = fieldFor(path);
    return w ? marks_->labelFor(w) : nullptr;
}

void PlanPanel::onModelOrDatasetChanged()
{
    const QString name = model_->currentText().trimmed();
    int classes = 10;
    const dpu::InputShape shape = shapeOf(datasetKind_->currentData().toString(), &classes);
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
            cost_->setCostModel({});
            return;
        }
        try {
            // Builds the model once on the GUI thread (milliseconds for the zoo); cached per shape.
            const double width = name == QLatin1String("mobilenetv1") ? base_.widthMultiplier : 1.0;
            modelCache_.insert(key, dpu::describeModel(name.toStdString(), shape, classes, width));
        } catch (const std::exception& e) {
            modelInfo_->setProperty("error", QString::fromStdString(e.what()));
            modelInfo_->setText(QString());
            cost_->setCostModel({});
            return;
        }
    }
    const dpu::ModelInfo& info = modelCache_[key];
    modelInfo_->setText(tr("%L1 weights (%L2 partial + %L3 dense), %4 fp32")
                            .arg(info.partialWeights + info.denseWeights)
                            .arg(info.partialWeights)
                            .arg(info.denseWeights)
                            .arg(CostReadout::formatBytes(static_cast<double>(info.fp32Bytes()))));
    cost_->setCostModel({info.partialWeights, info.denseWeights});
}

void PlanPanel::setK(double k)
{
    k_->setValue(k);
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

void PlanPanel::browseDataset()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Dataset folder"), datasetPath_->text());
    if (!dir.isEmpty())
        datasetPath_->setText(dir);
}

} // namespace dpu::ui
