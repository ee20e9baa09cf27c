// SPDX-License-Identifier: MIT
// PlanTrainingRows: epochs and learning rate, λ and the optimiser, seeds and device, two to a row.
#include "panels/PlanTrainingRows.h"
#include "panels/EnumCombo.h"
#include "panels/FieldErrorMarks.h"
#include "panels/IntSpin.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace dpu::ui {

PlanTrainingRows::PlanTrainingRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent) : QObject(parent)
{
    QWidget* box = form->parentWidget();
    epochs_ = intSpin(box, 0, 10000);
    epochs_->setObjectName(QStringLiteral("epochs"));
    epochs_->setToolTip(tr("Epochs of each training step per round: the full step and the sparse fine-tune "
                           "take this many each, so a DPU round trains about twice as long"));
    lr_ = new QDoubleSpinBox(box);
    lr_->setObjectName(QStringLiteral("lr"));
    lr_->setRange(0, 100);
    lr_->setDecimals(6);
    lr_->setSingleStep(0.001);
    lr_->setToolTip(tr("Learning rate of every training step"));
    addPairRow(form, tr("&Epochs"), pairRow(box, epochs_, tr("Learning rate"), lr_), epochs_);
    marks.addRow(QStringLiteral("epochs"), {epochs_, lr_}, {tr("Epochs"), tr("Learning rate")});
    // Made after Epochs and Learning rate: Tab visits the fields in the order they are shown.
    lambda_ = new QDoubleSpinBox(box);
    lambda_->setObjectName(QStringLiteral("lambda"));
    lambda_->setRange(-1, 2); // out-of-range values get the engine's message
    lambda_->setDecimals(3);
    lambda_->setSingleStep(0.05);
    lambda_->setToolTip(tr("DPU's weight of the global contribution (how far a weight moved in the full "
                           "training step) against the local one (how much it lowered the loss on the way); "
                           "0.5 weighs both equally, as the paper does. Only dpu and its variants use it."));
    optimizer_ = new QComboBox(box);
    optimizer_->setObjectName(QStringLiteral("optimizer"));
    optimizer_->addItem(QStringLiteral("Adam"), comboData(dpu::Optimizer::Adam));
    optimizer_->addItem(QStringLiteral("SGD (Nesterov)"), comboData(dpu::Optimizer::Sgd));
    // λ and the optimiser share a row: the form fits a 768-pixel-high screen with the data summary.
    addPairRow(form, tr("λ (global weight)"), pairRow(box, lambda_, tr("O&ptimiser"), optimizer_), lambda_);
    marks.addRow(QStringLiteral("lambda"), {lambda_, optimizer_}, {tr("λ"), tr("Optimiser")});
    seeds_ = new QLineEdit(box);
    seeds_->setObjectName(QStringLiteral("seeds"));
    seeds_->setPlaceholderText(tr("1, 2, 3"));
    seeds_->setToolTip(tr("One run per seed, separated by commas or spaces"));
    device_ = new QComboBox(box);
    device_->setObjectName(QStringLiteral("device"));
    for (const auto& d : dpu::enumNames<dpu::ComputeDevice>())
        device_->addItem(QString::fromLatin1(d.name), comboData(d.value));
    addPairRow(form, tr("&Seeds"), pairRow(box, seeds_, tr("De&vice"), device_), seeds_);
    marks.addRow(QStringLiteral("seeds"), {seeds_, device_}, {tr("Seeds"), tr("Device")});

    for (QDoubleSpinBox* d : {lambda_, lr_})
        connect(d, &QDoubleSpinBox::valueChanged, this, [this, d] { Q_EMIT edited(d); });
    connect(epochs_, &QSpinBox::valueChanged, this, [this] { Q_EMIT edited(epochs_); });
    for (QComboBox* c : {optimizer_, device_})
        connect(c, &QComboBox::currentIndexChanged, this, [this, c] { Q_EMIT edited(c); });
    connect(seeds_, &QLineEdit::textChanged, this, [this] { Q_EMIT edited(seeds_); });
}

void PlanTrainingRows::addPairRow(QFormLayout* form, const QString& label, QWidget* row, QWidget* first)
{
    // The row's own label goes to its first field: a mnemonic on the row container (what
    // addRow(QString, QWidget*) makes) would focus nothing.
    auto* l = new QLabel(label, row->parentWidget());
    l->setBuddy(first);
    form->addRow(l, row);
}

QWidget* PlanTrainingRows::pairRow(QWidget* box, QWidget* first, const QString& secondLabel, QWidget* second)
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

void PlanTrainingRows::setFrom(const dpu::Plan& plan)
{
    lambda_->setValue(plan.lambda);
    epochs_->setValue(plan.train.epochs);
    lr_->setValue(plan.train.lr);
    setComboValue(optimizer_, plan.train.optimizer);
    QStringList seeds;
    for (uint64_t s : plan.seeds)
        seeds << QString::number(s);
    seeds_->setText(seeds.join(QStringLiteral(", ")));
    setComboValue(device_, plan.device);
}

QStringList PlanTrainingRows::seedParts() const
{
    return seeds_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
}

void PlanTrainingRows::writeTo(dpu::Plan& p) const
{
    p.lambda = lambda_->value();
    p.train.epochs = epochs_->value();
    p.train.lr = lr_->value();
    p.train.optimizer = comboValue(optimizer_, dpu::Optimizer::Adam);
    p.seeds.clear();
    for (const QString& part : seedParts()) {
        bool ok = false;
        const qulonglong v = part.toULongLong(&ok);
        if (ok)
            p.seeds.push_back(v);
    }
    p.device = comboValue(device_, dpu::ComputeDevice::Auto);
}

QString PlanTrainingRows::seedsProblem() const
{
    // The engine never sees the text: a part that is not a number would be dropped silently.
    for (const QString& part : seedParts()) {
        bool ok = false;
        part.toULongLong(&ok);
        if (!ok)
            return tr("expected non-negative integers, found \"%1\"").arg(part);
    }
    return {};
}

QHash<QString, QWidget*> PlanTrainingRows::fields() const
{
    return {{QStringLiteral("lambda"), lambda_},       {QStringLiteral("train.epochs"), epochs_},
            {QStringLiteral("train.lr"), lr_},         {QStringLiteral("train.optimizer"), optimizer_},
            {QStringLiteral("seeds"), seeds_},         {QStringLiteral("device"), device_}};
}

} // namespace dpu::ui
