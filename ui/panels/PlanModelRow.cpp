// SPDX-License-Identifier: MIT
// PlanModelRow: the model list with its descriptions, the weights line under it, and the fit marks the data's probe gives.
#include "panels/PlanModelRow.h"
#include "dpu/DataFormats.h"
#include "panels/CostReadout.h"
#include "panels/FieldErrorMarks.h"
#include "panels/WaitCursor.h"
#include "workers/ProbeWorker.h"
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QStandardItemModel>

namespace dpu::ui {
namespace {
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

PlanModelRow::PlanModelRow(QFormLayout* form, FieldErrorMarks& marks, QObject* parent) : QObject(parent)
{
    QWidget* box = form->parentWidget();
    model_ = new QComboBox(box);
    model_->setObjectName(QStringLiteral("model"));
    model_->setEditable(true); // also accepts "torchscript:PATH"
    // Long model names or a TorchScript path must not widen the whole form.
    model_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    model_->setMinimumContentsLength(12);
    for (const auto& m : dpu::builtinModels()) {
        model_->addItem(QString::fromStdString(m));
        model_->setItemData(model_->count() - 1, QString::fromStdString(dpu::modelDescription(m)), Qt::ToolTipRole);
    }
    info_ = new QLabel(box);
    info_->setObjectName(QStringLiteral("modelInfo"));
    info_->setWordWrap(true); // the weight counts of vgg or mobilenetv1 are long
    form->addRow(tr("&Model"), model_);
    form->addRow(QString(), info_);
    marks.addRow(QStringLiteral("model"), {model_});
    connect(model_, &QComboBox::currentTextChanged, this,
            [this](const QString& text) { Q_EMIT modelChanged(model_, text); });
}

QString PlanModelRow::name() const
{
    return model_->currentText().trimmed();
}

void PlanModelRow::setName(const QString& name)
{
    model_->setCurrentText(name);
}

std::vector<std::string> PlanModelRow::offered() const
{
    std::vector<std::string> names;
    for (int i = 0; i < model_->count(); ++i)
        names.push_back(model_->itemText(i).toStdString());
    return names;
}

QWidget* PlanModelRow::field() const
{
    return model_;
}

QString PlanModelRow::problem() const
{
    return info_->property("error").toString();
}

void PlanModelRow::showNone(const QString& problem)
{
    info_->setProperty("error", problem);
    info_->setText(QString());
}

dpu::ModelInfo PlanModelRow::describe(dpu::DataKind kind, const ProbeResult* probed, double widthMultiplier)
{
    const QString name = this->name();
    int classes = 10;
    dpu::InputShape shape;
    const bool fixed = fixedShape(kind, &shape, &classes);
    if (probed && probed->error.empty()) {
        shape = probed->probe.shape;
        classes = probed->probe.classes;
    } else if (!fixed) {
        showNone(QString()); // arrays and images: the shape is known once the data is read
        return {};
    }
    const QString key = QStringLiteral("%1|%2x%3x%4|%5|%6")
                            .arg(name)
                            .arg(shape.channels).arg(shape.height).arg(shape.width)
                            .arg(classes).arg(widthMultiplier);
    info_->setProperty("error", QString());
    const bool builtin = model_->findText(name) >= 0;
    if (!cache_.contains(key)) {
        if (!builtin && !name.startsWith(QLatin1String("torchscript:"))) {
            showNone(tr("unknown model \"%1\"").arg(name));
            return {};
        }
        try {
            // Builds the model once on the GUI thread (milliseconds for the zoo); cached per shape.
            // A TorchScript file's first check starts the check process (about half a second).
            const double width = name == QLatin1String("mobilenetv1") ? widthMultiplier : 1.0;
            const WaitCursor wait(!builtin);
            cache_.insert(key, dpu::describeModel(name.toStdString(), shape, classes, width));
        } catch (const std::exception& e) {
            showNone(QString::fromStdString(e.what()));
            return {};
        }
    }
    const dpu::ModelInfo& info = cache_[key];
    info_->setText(tr("%L1 weights (%L2 partial + %L3 dense), %4 fp32")
                       .arg(info.partialWeights + info.denseWeights)
                       .arg(info.partialWeights)
                       .arg(info.denseWeights)
                       .arg(CostReadout::formatBytes(static_cast<double>(info.fp32Bytes()))));
    return info;
}

void PlanModelRow::showFits(const ProbeResult* probed)
{
    auto* items = qobject_cast<QStandardItemModel*>(model_->model());
    // Every model is offered again until the data says otherwise.
    for (int i = 0; i < model_->count(); ++i) {
        QStandardItem* item = items->item(i);
        item->setEnabled(true);
        item->setToolTip(QString::fromStdString(dpu::modelDescription(model_->itemText(i).toStdString())));
    }
    if (!probed || !probed->error.empty())
        return;
    for (const ModelFit& fit : probed->fits) {
        const int i = model_->findText(QString::fromStdString(fit.model));
        if (i < 0 || fit.problem.empty())
            continue;
        QStandardItem* item = items->item(i);
        item->setEnabled(false); // not offered; the tooltip says why
        item->setToolTip(tr("Does not fit this data: %1").arg(QString::fromStdString(fit.problem)));
    }
}

} // namespace dpu::ui
