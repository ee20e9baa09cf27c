// SPDX-License-Identifier: MIT
// PlanPanel's dataset rows: kind, path, what the data holds (read on a worker thread), preprocessing.
#include "panels/PlanPanel.h"
#include "dpu/DataFormats.h"
#include "dpu/DatasetSize.h"
#include "dpu/Error.h"
#include "panels/CostReadout.h"
#include "panels/EnumCombo.h"
#include "panels/FieldErrorMarks.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <limits>

namespace dpu::ui {
namespace {
/// Typing pauses this long before the path is read: a prefix of a path is mostly not a dataset.
constexpr int kProbeDelayMs = 300;

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
        return PlanPanel::tr("%L1 each").arg(lo->train);
    return PlanPanel::tr("fewest %L1 (%2), most %L3 (%4)")
        .arg(lo->train).arg(QString::fromStdString(lo->name)).arg(hi->train).arg(QString::fromStdString(hi->name));
}
} // namespace

void PlanPanel::addDatasetRows(QFormLayout* form, QWidget* box)
{
    datasetKind_ = new QComboBox(box);
    datasetKind_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // The first three keep their places: plans and settings of earlier versions name them by index.
    // Short names: the combo shares its row with the path; the item's tooltip says more.
    for (const dpu::DataFormat& f : dpu::dataFormats()) {
        datasetKind_->addItem(QString::fromStdString(f.label), comboData(f.kind));
        datasetKind_->setItemData(datasetKind_->count() - 1, QString::fromStdString(f.summary), Qt::ToolTipRole);
    }
    datasetKind_->setMinimumContentsLength(9);
    datasetKind_->setToolTip(tr("Detected when you pick or type a path; change it only to read the data another way"));
    datasetPath_ = new QLineEdit(box);
    datasetPath_->setMinimumWidth(80);
    datasetPath_->setToolTip(tr("A dataset folder (IDX, CIFAR, .npy files, image class folders) or file (.npz, "
                                ".safetensors): its kind is detected and what it holds shown below"));
    browse_ = new QPushButton(tr("Browse…"), box);
    browse_->setObjectName(QStringLiteral("datasetBrowse"));
    browse_->setToolTip(tr("Choose the dataset folder or file"));
    auto* menu = new QMenu(browse_);
    connect(menu->addAction(tr("Folder…")), &QAction::triggered, this, [this] { browseDataset(false); });
    connect(menu->addAction(tr("File (.npz, .safetensors)…")), &QAction::triggered, this, [this] { browseDataset(true); });
    browse_->setMenu(menu);
    // Kind, path and Browse on one row: the kind is mostly detected, and the form must fit 768 pixels.
    datasetKind_->setMinimumContentsLength(6);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(datasetKind_);
    pathRow->addWidget(datasetPath_, 1);
    pathRow->addWidget(browse_);
    auto* label = new QLabel(tr("&Dataset"), box);
    label->setBuddy(datasetPath_);
    form->addRow(label, pathRow);
    marks_->addRow(QStringLiteral("datasetKind"), {datasetKind_});
    dataInfo_ = new QLabel(box);
    dataInfo_->setObjectName(QStringLiteral("datasetInfo"));
    dataInfo_->setWordWrap(true);
    form->addRow(QString(), dataInfo_);
    marks_->addRow(QStringLiteral("datasetPath"), {datasetPath_});
    startProbeThread();
}

void PlanPanel::addPreprocessRow(QFormLayout* form, QWidget* box)
{
    normalise_ = new QComboBox(box);
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
    cropPadding_ = new QSpinBox(box);
    cropPadding_->setObjectName(QStringLiteral("cropPadding"));
    cropPadding_->setRange(0, 64);
    cropPadding_->setPrefix(tr("crop "));
    cropPadding_->setSpecialValueText(tr("no crop"));
    cropPadding_->setToolTip(tr("Seeded random crop of the original size from the image padded by this many zeros "
                                "(the paper's CIFAR runs: 4)"));
    flip_ = new QCheckBox(tr("Flip"), box);
    flip_->setObjectName(QStringLiteral("flip"));
    flip_->setToolTip(tr("Seeded random horizontal flip of training samples"));
    auto* row = new QHBoxLayout;
    row->addWidget(normalise_, 1);
    row->addWidget(cropPadding_);
    row->addWidget(flip_);
    auto* label = new QLabel(tr("Normalise"), box);
    label->setBuddy(normalise_);
    form->addRow(label, row);
    marks_->addRow(QStringLiteral("preprocess"), {normalise_, cropPadding_, flip_});
}

void PlanPanel::startProbeThread()
{
    probeThread_ = new QThread(this);
    probeThread_->setObjectName(QStringLiteral("dpu-probe"));
    probeWorker_ = new ProbeWorker; // no parent: it lives on the thread
    probeWorker_->moveToThread(probeThread_);
    connect(probeThread_, &QThread::finished, probeWorker_, &QObject::deleteLater);
    connect(probeWorker_, &ProbeWorker::probed, this, &PlanPanel::onProbed, Qt::QueuedConnection);
    probeThread_->start();
    probeTimer_ = new QTimer(this);
    probeTimer_->setSingleShot(true);
    probeTimer_->setInterval(kProbeDelayMs);
    connect(probeTimer_, &QTimer::timeout, this, &PlanPanel::sendProbe);
}

void PlanPanel::stopProbeThread()
{
    // A probe under way stops at its next image: a big folder does not hold the window open.
    probeWorker_->cancelBefore(std::numeric_limits<quint64>::max());
    probeThread_->quit();
    probeThread_->wait();
}

void PlanPanel::scheduleProbe(bool detect)
{
    detectNext_ = detect;
    probeWaiting_ = true;
    if (probeBusy_)
        probeWorker_->cancelBefore(probeSeq_ + 1); // its answer would be stale: stop reading now
    probeTimer_->start();
}

void PlanPanel::sendProbe()
{
    if (probeBusy_)
        return; // onProbed() sends it when the worker is free: one request at a time
    probeWaiting_ = false;
    ProbeRequest request;
    request.id = ++probeSeq_;
    const dpu::Plan p = plan();
    request.spec = p.dataset;
    request.detect = detectNext_;
    request.widthMultiplier = p.widthMultiplier;
    if (request.spec.path.empty()) {
        haveProbe_ = false;
        showProbe();
        validate();
        Q_EMIT dataProbed();
        return;
    }
    for (int i = 0; i < model_->count(); ++i)
        request.models.push_back(model_->itemText(i).toStdString());
    if (p.model.rfind("torchscript:", 0) == 0)
        request.models.push_back(p.model); // one forward pass says whether it fits
    probeBusy_ = true;
    ProbeWorker* worker = probeWorker_;
    QMetaObject::invokeMethod(worker, [worker, request] { worker->probe(request); }, Qt::QueuedConnection);
}

void PlanPanel::onProbed(const dpu::ui::ProbeResult& result)
{
    probeBusy_ = false;
    if (result.cancelled && !probeWaiting_)
        return; // the window is closing
    if (probeWaiting_) {
        // The fields changed meanwhile: this answer is stale; the newer request goes now unless
        // its pause is still running.
        if (!probeTimer_->isActive())
            sendProbe();
        return;
    }
    probe_ = result;
    haveProbe_ = true;
    if (result.detected && comboValue(datasetKind_, dpu::DataKind::Idx) != result.spec.kind) {
        {
            const QSignalBlocker block(datasetKind_);
            setComboValue(datasetKind_, result.spec.kind);
        }
        followName();
        onModelOrDatasetChanged();
        showProbe();
        validate();
        cost_->setPlan(plan()); // as for any edit: the readout follows the plan
        Q_EMIT planEdited();
    } else {
        onModelOrDatasetChanged();
        showProbe();
        validate();
    }
    Q_EMIT dataProbed();
}

const ProbeResult* PlanPanel::currentProbe() const
{
    if (!haveProbe_ || probePending())
        return nullptr;
    return probeKey(probe_.spec) == probeKey(plan().dataset) ? &probe_ : nullptr;
}

void PlanPanel::showProbe()
{
    const ProbeResult* r = currentProbe();
    auto* items = qobject_cast<QStandardItemModel*>(model_->model());
    // Every model is offered again until the data says otherwise.
    for (int i = 0; i < model_->count(); ++i) {
        QStandardItem* item = items->item(i);
        item->setEnabled(true);
        item->setToolTip(QString::fromStdString(dpu::modelDescription(model_->itemText(i).toStdString())));
    }
    if (!r || !r->error.empty()) {
        // A reader's error is shown at the path field itself.
        dataInfo_->setText(!r && probePending() && !datasetPath_->text().trimmed().isEmpty() ? tr("reading the data…")
                                                                                          : QString());
        dataInfo_->setToolTip(QString());
        return;
    }
    const dpu::DataProbe& d = r->probe;
    QString text = tr("%1: %L2 train / %L3 test%4 · %5 %6 · %7 classes: %8")
                       .arg(comboData(d.kind))
                       .arg(d.train).arg(d.test)
                       .arg(d.heldOut ? tr(" (held out)") : QString())
                       .arg(shapeText(d.shape), QString::fromStdString(d.dtype))
                       .arg(d.classes)
                       .arg(balanceText(d.perClass));
    dataInfo_->setText(text);
    QStringList rows{tr("class\ttrain\ttest")};
    for (const auto& c : d.perClass)
        rows << QStringLiteral("%1\t%L2\t%L3").arg(QString::fromStdString(c.name)).arg(c.train).arg(c.test);
    dataInfo_->setToolTip(QString::fromStdString(d.description) + QLatin1Char('\n') + rows.join(QLatin1Char('\n')));
    for (const ModelFit& fit : r->fits) {
        const int i = model_->findText(QString::fromStdString(fit.model));
        if (i < 0 || fit.problem.empty())
            continue;
        QStandardItem* item = items->item(i);
        item->setEnabled(false); // not offered; the tooltip says why
        item->setToolTip(tr("Does not fit this data: %1").arg(QString::fromStdString(fit.problem)));
    }
}

void PlanPanel::addProbeErrors(const dpu::Plan& p)
{
    const ProbeResult* r = currentProbe();
    if (!r)
        return; // not read yet: the run itself still checks every byte
    if (!r->error.empty()) {
        if (!errors_.contains(QStringLiteral("dataset.path")))
            errors_.insert(QStringLiteral("dataset.path"), QString::fromStdString(r->error));
        return;
    }
    if (!dpu::dataFormat(p.dataset.kind).sizedFromHeaders) {
        // The IDX and CIFAR sizes come from their headers as the user types; these from the probe.
        try {
            dpu::checkSplitFits(p, {r->probe.train, r->probe.test});
        } catch (const dpu::PlanError& e) {
            errors_.insert(QString::fromStdString(e.path()), FieldErrorMarks::reasonOf(e));
        }
    }
    for (const ModelFit& fit : r->fits)
        if (fit.model == p.model && !fit.problem.empty() && !errors_.contains(QStringLiteral("model")))
            errors_.insert(QStringLiteral("model"), QString::fromStdString(fit.problem));
}

void PlanPanel::pickDataset(const QString& path)
{
    datasetPath_->setText(path); // textChanged schedules the probe with detection
}

void PlanPanel::browseDataset(bool file)
{
    const QString current = datasetPath_->text();
    const QString picked = file ? QFileDialog::getOpenFileName(this, tr("Dataset file"), current,
                                                               tr("Datasets (*.npz *.safetensors);;All files (*)"))
                                : QFileDialog::getExistingDirectory(this, tr("Dataset folder"), current);
    if (!picked.isEmpty())
        pickDataset(picked);
}

} // namespace dpu::ui
