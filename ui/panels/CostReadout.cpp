// SPDX-License-Identifier: MIT
// CostReadout: one round's cost as the user edits k (DESIGN.md "Communication cost"), calibrated by finished runs where the plan's family ran.
#include "panels/CostReadout.h"
#include "charts/Units.h"
#include "dpu/Links.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

QList<CostReadout::LinkPreset> CostReadout::linkPresets()
{
    // Core's list (the command line takes the same links), then a rate of the user's own.
    QList<LinkPreset> out;
    for (const dpu::LinkPreset& p : dpu::linkPresets())
        out.append({QString::fromStdString(p.name), p.bitsPerSecond});
    out.append({QStringLiteral("Custom"), 0});
    return out;
}

CostReadout::CostReadout(QWidget* parent) : QWidget(parent)
{
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    bytes_ = new QLabel(this);
    bytes_->setObjectName(QStringLiteral("costBytes"));
    bytes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ratio_ = new QLabel(this);
    ratio_->setObjectName(QStringLiteral("costRatio"));
    time_ = new QLabel(this);
    time_->setObjectName(QStringLiteral("costTime"));
    link_ = new QComboBox(this);
    link_->setObjectName(QStringLiteral("linkPreset"));
    for (const LinkPreset& p : linkPresets())
        link_->addItem(p.name, p.bitsPerSecond);
    link_->setCurrentIndex(1);
    customKbps_ = new QDoubleSpinBox(this);
    customKbps_->setObjectName(QStringLiteral("linkCustomKbps"));
    customKbps_->setRange(0.01, 1e7);
    customKbps_->setDecimals(2);
    customKbps_->setValue(100);
    customKbps_->setSuffix(QStringLiteral(" kbit/s"));
    // Room for "10000.00 kbit/s", not for the range's widest value: the row keeps the form narrow.
    customKbps_->setFixedWidth(customKbps_->fontMetrics().horizontalAdvance(QStringLiteral("10000.00 kbit/s")) + 28);
    customKbps_->setEnabled(false);
    // The row also takes the plan's Fleet… button (addToLinkRow): the list gives up its natural
    // width (it stretches back over the free room), so the form is no wider than before and the
    // charts keep their width at 1366x768.
    link_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    link_->setMinimumContentsLength(10);
    linkRow_ = new QHBoxLayout;
    auto* linkRow = linkRow_;
    linkRow->addWidget(link_, 1);
    linkRow->addWidget(customKbps_);
    form->addRow(tr("Bytes per round"), bytes_);
    form->addRow(tr("Ratio to full"), ratio_);
    form->addRow(tr("Link"), linkRow);
    form->addRow(tr("Per device"), time_);
    connect(link_, &QComboBox::currentIndexChanged, this, [this] {
        customKbps_->setEnabled(link_->currentData().toDouble() == 0);
        refresh();
    });
    connect(customKbps_, &QDoubleSpinBox::valueChanged, this, &CostReadout::refresh);
    refresh();
}

void CostReadout::setCostModel(const dpu::CostModel& model)
{
    model_ = model;
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

void CostReadout::setLinkPreset(int index)
{
    link_->setCurrentIndex(index);
}

void CostReadout::addToLinkRow(QWidget* widget)
{
    linkRow_->addWidget(widget);
}

int CostReadout::linkPreset() const
{
    return link_->currentIndex();
}

void CostReadout::saveSettings(QSettings& s) const
{
    s.setValue(QStringLiteral("cost/link"), link_->currentIndex());
    s.setValue(QStringLiteral("cost/customKbps"), customKbps_->value());
}

void CostReadout::restoreSettings(const QSettings& s)
{
    if (s.contains(QStringLiteral("cost/customKbps")))
        customKbps_->setValue(s.value(QStringLiteral("cost/customKbps")).toDouble());
    if (s.contains(QStringLiteral("cost/link")))
        link_->setCurrentIndex(std::clamp(s.value(QStringLiteral("cost/link")).toInt(), 0, link_->count() - 1));
}

double CostReadout::fullBytesPerRound() const
{
    return dpu::fullRoundBits(model_) / 8.0;
}

double CostReadout::linkBitsPerSecond() const
{
    const double preset = link_->currentData().toDouble();
    return preset > 0 ? preset : customKbps_->value() * 1e3;
}

double CostReadout::transferSeconds() const
{
    return bytesPerRound() * 8.0 / linkBitsPerSecond();
}

QString CostReadout::bytesText() const
{
    return bytes_->text();
}

QString CostReadout::formatBytes(double bytes)
{
    return Units::bytes(bytes);
}

QString CostReadout::formatSeconds(double seconds)
{
    return Units::seconds(seconds);
}

void CostReadout::refresh()
{
    dpu::Plan plan = plan_;
    plan.k = k_;
    estimate_ = dpu::estimateRound(plan, model_, groups_);
    const QString why = QString::fromStdString(estimate_.why);
    for (QLabel* l : {bytes_, ratio_, time_})
        l->setToolTip(why);
    const double bytes = bytesPerRound();
    if (bytes <= 0) {
        bytes_->setText(QStringLiteral("–"));
        ratio_->setText(QStringLiteral("–"));
        time_->setText(QStringLiteral("–"));
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
    const double full = fullBytesPerRound();
    bytes_->setText(basis.isEmpty() ? formatBytes(bytes) : QStringLiteral("%1 · %2").arg(formatBytes(bytes), basis));
    ratio_->setText(QStringLiteral("%1 (full: %2)").arg(bytes / full, 0, 'g', 4).arg(formatBytes(full)));
    time_->setText(tr("%1 per round (full: %2)")
                       .arg(formatSeconds(transferSeconds()), formatSeconds(full * 8.0 / linkBitsPerSecond())));
    Q_EMIT changed();
}

} // namespace dpu::ui
