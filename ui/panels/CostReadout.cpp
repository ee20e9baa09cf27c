// SPDX-License-Identifier: MIT
// CostReadout: one round's cost as the user edits k (DESIGN.md "Communication cost"), calibrated by finished runs where the plan's family ran.
#include "panels/CostReadout.h"
#include "dpu/DeployedForms.h"
#include "dpu/Cost.h"
#include "charts/Units.h"
#include "dpu/DeploymentModel.h"
#include "panels/LinkChoices.h"
#include "panels/LinkFigures.h"
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

CostReadout::CostReadout(QWidget* parent) : QWidget(parent)
{
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    bytes_ = new QLabel(this);
    bytes_->setObjectName(QStringLiteral("costBytes"));
    bytes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ratio_ = new QLabel(this);
    ratio_->setObjectName(QStringLiteral("costRatio"));
    // Two ratios for an INT8 or sparse plan ("0.0041 of FP32's 2.68 MB · 0.0163 of INT8's 676.9 KB")
    // are longer than the form at 1366x768: the row wraps instead of cutting the second one.
    ratio_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    ratio_->setWordWrap(true);
    time_ = new QLabel(this);
    time_->setObjectName(QStringLiteral("costTime"));
    // Time and energy on a slow link read long ("107.6 min, 98.00 J (full: 5.2 d)"): the row
    // takes the room the form has rather than widening it (the tooltip holds every figure).
    time_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // The plan's own link (its fleet.link), the list the Fleet tab has: one link notion in the
    // window. Its SF, sub-band, loss, delivery and devices are the Deployment… dialog's.
    linkBox_ = linkchoices::fleetLinkBox(this, QStringLiteral("planLink"));
    linkBox_->setToolTip(tr("The link the plan is for (its fleet.link): the per-device time and energy below are "
                            "on it. Deployment… beside it sets the spreading factor, sub-band, loss, delivery and devices."));
    // The row also takes the plan's Deployment… button (addToLinkRow). The list's width is set, not
    // its longest name's: this row sets the form's narrowest width, which must keep the model
    // and data summaries to two lines so the form fits 1366x768 without scrolling, and no wider
    // so the charts keep their width.
    linkBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    linkBox_->setMinimumContentsLength(26);
    linkRow_ = new QHBoxLayout;
    linkRow_->addWidget(linkBox_, 1);
    form->addRow(tr("Bytes per round"), bytes_);
    form->addRow(tr("Ratio to full"), ratio_);
    auto* linkLabel = new QLabel(tr("Link"), this);
    linkLabel->setBuddy(linkBox_);
    form->addRow(linkLabel, linkRow_);
    form->addRow(tr("Per device"), time_);
    connect(linkBox_, &QComboBox::activated, this, [this] { Q_EMIT linkChosen(linkKey()); });
    refresh();
}

void CostReadout::setModelInfo(const dpu::ModelInfo& info)
{
    partialShapes_ = dpu::partialShapesOf(info);
    denseWeights_ = partialShapes_.empty() ? 0 : info.denseWeights;
    biasSizes_ = partialShapes_.empty() ? std::vector<int64_t>{} : dpu::biasSizesOf(info);
    refresh();
}

void CostReadout::setK(double k)
{
    k_ = k;
    refresh();
}

void CostReadout::setPlan(const dpu::Plan& plan)
{
    plan_ = plan;
    refresh();
}

void CostReadout::setFrontierGroups(std::vector<dpu::FrontierGroup> groups)
{
    groups_ = std::move(groups);
    refresh();
}

QString CostReadout::linkKey() const
{
    return linkBox_->currentData().toString();
}

void CostReadout::addToLinkRow(QWidget* widget)
{
    linkRow_->addWidget(widget);
}

double CostReadout::fullBytesPerRound() const
{
    return dpu::fullRoundBits(model_) / 8.0;
}

double CostReadout::deployedFullBytes() const
{
    return dpu::deployedFullRoundBits(model_) / 8.0;
}

QString CostReadout::bytesText() const
{
    return bytes_->text();
}

QString CostReadout::formatBytes(double bytes)
{
    return Units::bytes(bytes);
}

void CostReadout::refresh()
{
    model_ = dpu::deployedCostModel(partialShapes_, denseWeights_, plan_.deployed, plan_.deployedSparsity,
                                    plan_.int8Biases, biasSizes_);
    dpu::Plan plan = plan_;
    plan.k = k_;
    estimate_ = dpu::estimateRound(plan, model_, groups_);
    const QString why = QString::fromStdString(estimate_.why);
    for (QLabel* l : {bytes_, ratio_})
        l->setToolTip(why);
    const double bytes = bytesPerRound();
    if (!(k_ > 0 && k_ <= 1)) { // the field says what is wrong; no figure, and no "calibrated" beside none
        bytes_->setText(QStringLiteral("–"));
        ratio_->setText(QStringLiteral("–"));
        bytes_->setToolTip(tr("k must be a ratio in (0, 1]"));
        refreshLink(0);
        Q_EMIT changed();
        return;
    }
    if (bytes <= 0) {
        bytes_->setText(QStringLiteral("–"));
        ratio_->setText(QStringLiteral("–"));
        refreshLink(0);
        Q_EMIT changed();
        return;
    }
    // Say what the figure rests on: measured bundles of this family, or the coding's nominal bits.
    QString basis;
    switch (estimate_.basis) {
    case dpu::RoundEstimate::Basis::Calibrated:
        basis = tr("calibrated");
        break;
    case dpu::RoundEstimate::Basis::Nominal:
        basis = tr("nominal %1").arg(QString::fromStdString(dpu::nameOf(plan.bundle.values)));
        break;
    default:
        break;
    }
    if (estimate_.cappedByBudget)
        basis = tr("budget");
    else if (model_.partialWeights > 0 && dpu::updatedCount(model_.partialWeights, k_) == 0)
        // k x I rounds to no weight at all: a round of DPU would ship its biases and nothing else.
        basis = tr("no weight changes: k × %L1 weights rounds to 0").arg(model_.partialWeights);
    const double full = fullBytesPerRound();
    bytes_->setText(basis.isEmpty() ? formatBytes(bytes) : QStringLiteral("%1 · %2").arg(formatBytes(bytes), basis));
    const dpu::DeployedFormInfo& deployedForm = dpu::deployedFormInfo(plan_.deployed);
    if (deployedForm.reference) {
        ratio_->setText(QStringLiteral("%1 (full: %2)").arg(bytes / full, 0, 'g', 4).arg(formatBytes(full)));
    } else {
        // The paper's ratios are to a full FP32 update; the devices' own full update is the
        // deployed model's (its INT8 codes and scales, or its nonzeros and their bitmap).
        const double deployed = deployedFullBytes();
        const QString form = QString::fromStdString(deployedForm.shortName);
        ratio_->setText(tr("%1 of FP32's %2 · %3 of %4's %5")
                            .arg(bytes / full, 0, 'g', 4).arg(Units::roundedBytes(full))
                            .arg(bytes / deployed, 0, 'g', 4).arg(form, Units::roundedBytes(deployed)));
        ratio_->setToolTip(tr("%1\nA full update of the dense FP32 model: %2. A full update of the model as deployed "
                              "(%3): %4.").arg(why, formatBytes(full), form, formatBytes(deployed)));
    }
    refreshLink(bytes);
    Q_EMIT changed();
}

void CostReadout::refreshLink(double bytes)
{
    const dpu::Deployment fleet = plan_.fleet;
    {
        const QSignalBlocker quiet(linkBox_); // the plan's key shown, not chosen
        linkchoices::selectLink(linkBox_, QString::fromStdString(plan_.fleet.link.link));
    }
    hasLink_ = false;
    round_ = {};
    try {
        link_ = dpu::slowestLinkOf(fleet.link);
        dpu::validateLink(link_);
        hasLink_ = true;
        if (bytes > 0) {
            const auto devices = std::max(1, fleet.devices);
            round_ = dpu::linkRound(link_, static_cast<int64_t>(std::ceil(bytes)), devices);
            // A full update as the devices would receive it: the deployed model's form.
            const dpu::LinkRound full = dpu::linkRound(link_, static_cast<int64_t>(std::ceil(deployedFullBytes())), devices);
            const dpu::DeployedFormInfo& form = dpu::deployedFormInfo(plan_.deployed);
            const QString fullWord = form.reference ? tr("full") : tr("full %1").arg(QString::fromStdString(form.shortName));
            time_->setText(tr("%1, %2 (%3: %4)")
                               .arg(linkDurationText(round_.deviceSeconds), linkEnergyText(round_.energyPerDevice), fullWord,
                                    linkDurationText(full.deviceSeconds)));
            time_->setToolTip(tr("One device's session for one round on %1: %L2 frames (%L3 redundant), %4 under the "
                                 "duty cycle, %5 of its battery. All %L6 devices (%7): %8 of wall time, %9 on air. "
                                 "A full model: %10 per device. This is one device at the link's slowest spreading "
                                 "factor, the longest session of the fleet, not the fleet's mean (the Fleet tab's "
                                 "energy per update round).")
                                  .arg(QString::fromStdString(link_.name))
                                  .arg(round_.frames)
                                  .arg(round_.redundancy)
                                  .arg(linkDurationText(round_.deviceSeconds), batteryShareText(round_.batteryShare))
                                  .arg(devices)
                                  .arg(link_.delivery == dpu::LinkDelivery::Multicast ? tr("multicast") : tr("unicast"),
                                       linkDurationText(round_.wallTime), linkDurationText(round_.airtime),
                                       linkDurationText(full.deviceSeconds)));
            return;
        }
        time_->setText(QStringLiteral("–"));
        time_->setToolTip(QString());
    } catch (const std::exception& e) { // the plan check names the fleet key; the row says why too
        time_->setText(tr("no link: see Deployment…"));
        time_->setToolTip(QString::fromUtf8(e.what()));
    }
}

} // namespace dpu::ui
