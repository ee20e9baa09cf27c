// SPDX-License-Identifier: MIT
// PlanDataRows: kind, path and Browse on one row, the data's summary, normalisation and augmentation, the split.
#include "panels/PlanDataRows.h"
#include "dpu/DataFormats.h"
#include "panels/EnumCombo.h"
#include "panels/FieldErrorMarks.h"
#include "panels/IntSpin.h"
#include "workers/ProbeWorker.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <algorithm>

namespace dpu::ui {
namespace {
QString shapeText(const dpu::InputShape& s)
{
    return QStringLiteral("%1×%2×%3").arg(s.channels).arg(s.height).arg(s.width);
}

/// "a 10, b 10, c 10" for a few classes, else the smallest and the largest ones.
QString balanceText(const std::vector<dpu::ClassInfo>& classes)
{
    if (classes.empty())
        return {};
    if (classes.size() <= 6) {
        QStringList parts;
        for (const auto& c : classes)
            parts << QStringLiteral("%1 %L2").arg(QString::fromStdString(c.name)).arg(c.train);
        return parts.join(QStringLiteral(", "));
    }
    const auto [lo, hi] = std::minmax_element(classes.begin(), classes.end(),
                                              [](const auto& a, const auto& b) { return a.train < b.train; });
    if (lo->train == hi->train)
        return PlanDataRows::tr("%L1 each").arg(lo->train);
    return PlanDataRows::tr("fewest %L1 (%2), most %L3 (%4)")
        .arg(lo->train).arg(QString::fromStdString(lo->name)).arg(hi->train).arg(QString::fromStdString(hi->name));
}
} // namespace

PlanDataRows::PlanDataRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent)
    : QObject(parent), box_(form->parentWidget())
{
    addDatasetRows(form, marks);
    addPreprocessRow(form, marks);
    addSplitRows(form, marks);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT kindChanged(kind_); });
    connect(path_, &QLineEdit::textChanged, this, [this] { Q_EMIT pathChanged(path_); });
    connect(normalise_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT edited(normalise_); });
    connect(cropPadding_, &QSpinBox::valueChanged, this, [this] { Q_EMIT edited(cropPadding_); });
    connect(flip_, &QCheckBox::toggled, this, [this] { Q_EMIT edited(flip_); });
    for (QSpinBox* s : {initial_, perRound_, rounds_, validation_})
        connect(s, &QSpinBox::valueChanged, this, [this, s] { Q_EMIT edited(s); });
}

void PlanDataRows::addDatasetRows(QFormLayout* form, FieldErrorMarks& marks)
{
    kind_ = new QComboBox(box_);
    kind_->setObjectName(QStringLiteral("datasetKind"));
    kind_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // The first three keep their places: plans and settings of earlier versions name them by index.
    // Short names: the combo shares its row with the path; the item's tooltip says more.
    for (const dpu::DataFormat& f : dpu::dataFormats()) {
        kind_->addItem(QString::fromStdString(f.label), comboData(f.kind));
        kind_->setItemData(kind_->count() - 1, QString::fromStdString(f.summary), Qt::ToolTipRole);
    }
    kind_->setToolTip(tr("Detected when you pick or type a path; change it only to read the data another way"));
    path_ = new QLineEdit(box_);
    path_->setObjectName(QStringLiteral("datasetPath"));
    path_->setMinimumWidth(80);
    path_->setToolTip(tr("A dataset folder (IDX, CIFAR, .npy files, image class folders) or file (.npz, "
                         ".safetensors): its kind is detected and what it holds shown below"));
    browse_ = new QPushButton(tr("Browse…"), box_);
    browse_->setObjectName(QStringLiteral("datasetBrowse"));
    browse_->setToolTip(tr("Choose the dataset folder or file"));
    auto* menu = new QMenu(browse_);
    connect(menu->addAction(tr("Folder…")), &QAction::triggered, this, [this] { browse(false); });
    connect(menu->addAction(tr("File (.npz, .safetensors)…")), &QAction::triggered, this, [this] { browse(true); });
    browse_->setMenu(menu);
    // Kind, path and Browse on one row: the kind is mostly detected, and the form must fit 768 pixels.
    kind_->setMinimumContentsLength(6);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(kind_);
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse_);
    auto* label = new QLabel(tr("&Dataset"), box_);
    label->setBuddy(path_);
    form->addRow(label, pathRow);
    marks.addRow(QStringLiteral("datasetKind"), {kind_});
    info_ = new QLabel(box_);
    info_->setObjectName(QStringLiteral("datasetInfo"));
    info_->setWordWrap(true);
    form->addRow(QString(), info_);
    marks.addRow(QStringLiteral("datasetPath"), {path_});
}

void PlanDataRows::addPreprocessRow(QFormLayout* form, FieldErrorMarks& marks)
{
    normalise_ = new QComboBox(box_);
    normalise_->setObjectName(QStringLiteral("normalise"));
    // Long item texts must not widen the form (the split's spin boxes then lose their width).
    normalise_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    normalise_->setMinimumContentsLength(8);
    normalise_->addItem(tr("on the training data"), comboData(dpu::Normalise::Train));
    normalise_->addItem(tr("on round 1's data"), comboData(dpu::Normalise::FirstRound));
    normalise_->addItem(tr("off"), comboData(dpu::Normalise::None));
    normalise_->addItem(tr("the plan's mean/std"), comboData(dpu::Normalise::Given));
    normalise_->setToolTip(tr("Per-channel mean and std: of the training split, of each seed's first-round "
                              "samples (what a server has before its first deployment), none, or the values "
                              "the plan file gives"));
    cropPadding_ = new QSpinBox(box_);
    cropPadding_->setObjectName(QStringLiteral("cropPadding"));
    cropPadding_->setRange(0, 64);
    cropPadding_->setPrefix(tr("crop "));
    cropPadding_->setSpecialValueText(tr("no crop"));
    cropPadding_->setToolTip(tr("Seeded random crop of the original size from the image padded by this many zeros "
                                "(the paper's CIFAR runs: 4)"));
    flip_ = new QCheckBox(tr("Flip"), box_);
    flip_->setObjectName(QStringLiteral("flip"));
    flip_->setToolTip(tr("Seeded random horizontal flip of training samples"));
    auto* row = new QHBoxLayout;
    row->addWidget(normalise_, 1);
    row->addWidget(cropPadding_);
    row->addWidget(flip_);
    auto* label = new QLabel(tr("Normalise"), box_);
    label->setBuddy(normalise_);
    form->addRow(label, row);
    marks.addRow(QStringLiteral("preprocess"), {normalise_, cropPadding_, flip_});
}

void PlanDataRows::addSplitRows(QFormLayout* form, FieldErrorMarks& marks)
{
    // Spin boxes allow 0 where the engine forbids it, so the engine's own message is shown.
    initial_ = intSpin(box_, 0, 10000000);
    perRound_ = intSpin(box_, 0, 10000000);
    rounds_ = intSpin(box_, 0, 100000);
    validation_ = intSpin(box_, 0, 1000000);
    initial_->setObjectName(QStringLiteral("splitInitial"));
    perRound_->setObjectName(QStringLiteral("splitPerRound"));
    rounds_->setObjectName(QStringLiteral("splitRounds"));
    validation_->setObjectName(QStringLiteral("splitValidation"));
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
        split->addWidget(new QLabel(cells[i].first, box_), i / 2, 2 * (i % 2));
        split->addWidget(cells[i].second, i / 2, 2 * (i % 2) + 1);
    }
    form->addRow(tr("Split"), split);
    marks.addRow(QStringLiteral("split"), {initial_, perRound_, rounds_, validation_},
                 {tr("|D1|"), tr("|ΔD|"), tr("Rounds"), tr("Validation")});
}

void PlanDataRows::setFrom(const dpu::Plan& plan)
{
    setComboValue(kind_, plan.dataset.kind);
    path_->setText(QString::fromStdString(plan.dataset.path));
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
}

void PlanDataRows::writeTo(dpu::Plan& p) const
{
    p.dataset.kind = kind();
    p.dataset.path = path().toStdString();
    p.dataset.normalise = comboValue(normalise_, dpu::Normalise::Train);
    p.dataset.augment.cropPadding = cropPadding_->value();
    p.dataset.augment.flip = flip_->isChecked();
    p.split.initial = initial_->value();
    p.split.perRound = perRound_->value();
    p.split.rounds = rounds_->value();
    p.split.validation = validation_->value();
}

dpu::DataKind PlanDataRows::kind() const
{
    return comboValue(kind_, dpu::DataKind::Idx);
}

void PlanDataRows::showKind(dpu::DataKind kind)
{
    const QSignalBlocker block(kind_); // the caller reports the detection as one edit
    setComboValue(kind_, kind);
}

QString PlanDataRows::path() const
{
    return path_->text().trimmed();
}

void PlanDataRows::setPath(const QString& path)
{
    path_->setText(path); // textChanged: pathChanged
}

void PlanDataRows::browse(bool file)
{
    const QString current = path_->text();
    const QString picked = file ? QFileDialog::getOpenFileName(box_, tr("Dataset file"), current,
                                                               tr("Datasets (*.npz *.safetensors);;All files (*)"))
                                : QFileDialog::getExistingDirectory(box_, tr("Dataset folder"), current);
    if (!picked.isEmpty())
        setPath(picked);
}

void PlanDataRows::showSummary(const ProbeResult* r, bool reading)
{
    if (!r || !r->error.empty()) {
        // A reader's error is shown at the path field itself.
        info_->setText(!r && reading && !path().isEmpty() ? tr("reading the data…") : QString());
        info_->setToolTip(QString());
        return;
    }
    const dpu::DataProbe& d = r->probe;
    info_->setText(tr("%1: %L2 train / %L3 test%4 · %5 %6 · %7 classes: %8")
                       .arg(comboData(d.kind))
                       .arg(d.train).arg(d.test)
                       .arg(d.heldOut ? tr(" (held out)") : QString())
                       .arg(shapeText(d.shape), QString::fromStdString(d.dtype))
                       .arg(d.classes)
                       .arg(balanceText(d.perClass)));
    QStringList rows{tr("class\ttrain\ttest")};
    for (const auto& c : d.perClass)
        rows << QStringLiteral("%1\t%L2\t%L3").arg(QString::fromStdString(c.name)).arg(c.train).arg(c.test);
    info_->setToolTip(QString::fromStdString(d.description) + QLatin1Char('\n') + rows.join(QLatin1Char('\n')));
}

QHash<QString, QWidget*> PlanDataRows::fields() const
{
    // Crop and flip share the row's error line; both are marked at the crop box.
    return {{QStringLiteral("dataset.kind"), kind_},
            {QStringLiteral("dataset.normalise"), normalise_},
            {QStringLiteral("dataset.augment.crop_padding"), cropPadding_},
            {QStringLiteral("dataset.augment.flip"), cropPadding_},
            {QStringLiteral("split.initial"), initial_},
            {QStringLiteral("split.per_round"), perRound_},
            {QStringLiteral("split.rounds"), rounds_},
            {QStringLiteral("split.validation"), validation_}};
}

QWidget* PlanDataRows::pathField() const
{
    return path_;
}

} // namespace dpu::ui
