// SPDX-License-Identifier: MIT
// FleetPlanTargets: a check box and spin boxes per target, read back as dpu::FleetTargets.
#include "panels/FleetPlanTargets.h"
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace dpu::ui {
namespace {

QDoubleSpinBox* spin(double lo, double hi, int decimals, double value, const QString& suffix)
{
    auto* s = new QDoubleSpinBox;
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setValue(value);
    s->setSuffix(suffix);
    return s;
}

} // namespace

FleetPlanTargets::FleetPlanTargets(QWidget* parent)
    : QWidget(parent), freshOn_(new QCheckBox(tr("Fresh:"))), freshShare_(spin(1, 100, 1, 90, tr(" % of the fleet"))),
      freshDays_(spin(0, 3650, 1, 7, tr(" days"))), batteryOn_(new QCheckBox(tr("Battery:"))),
      battery_(spin(0.01, 100, 2, 5, tr(" % a year"))), airtimeOn_(new QCheckBox(tr("Airtime:"))),
      airtime_(spin(0.1, 86400, 1, 3600, tr(" s a day per gateway")))
{
    freshOn_->setToolTip(tr("fleet.targets.fresh_share and fresh_days: at every round's end, at least this share of "
                            "the fleet runs a version the server had as its latest at most this many days before"));
    batteryOn_->setToolTip(tr("fleet.targets.battery_per_year: the share of a device's battery its updates take in a year"));
    airtimeOn_->setToolTip(tr("fleet.targets.airtime_per_day_s: seconds a gateway transmits per day"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(freshOn_, 0, 0);
    grid->addWidget(freshShare_, 0, 1);
    grid->addWidget(new QLabel(tr("within")), 0, 2);
    grid->addWidget(freshDays_, 0, 3);
    grid->addWidget(batteryOn_, 1, 0);
    grid->addWidget(battery_, 1, 1);
    grid->addWidget(airtimeOn_, 2, 0);
    grid->addWidget(airtime_, 2, 1);
    grid->setColumnStretch(4, 1);
    for (QCheckBox* box : {freshOn_, batteryOn_, airtimeOn_})
        connect(box, &QCheckBox::toggled, this, [this] {
            enableFields();
            Q_EMIT changed();
        });
    for (QDoubleSpinBox* s : {freshShare_, freshDays_, battery_, airtime_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &FleetPlanTargets::changed);
    enableFields();
}

void FleetPlanTargets::setTargets(const dpu::FleetTargets& targets)
{
    base_ = targets;
    const QSignalBlocker b1(freshOn_), b2(freshShare_), b3(freshDays_), b4(batteryOn_), b5(battery_), b6(airtimeOn_), b7(airtime_);
    freshOn_->setChecked(targets.freshShare.has_value());
    if (targets.freshShare)
        freshShare_->setValue(*targets.freshShare * 100);
    if (targets.freshDays)
        freshDays_->setValue(*targets.freshDays);
    freshDays_->setToolTip(byGap() ? tr("The plan's freshness is within %1 points of the server's accuracy (kept)")
                                         .arg(*targets.accuracyGapPoints)
                                   : QString());
    batteryOn_->setChecked(targets.batteryPerYear.has_value());
    if (targets.batteryPerYear)
        battery_->setValue(*targets.batteryPerYear * 100);
    airtimeOn_->setChecked(targets.airtimePerDaySeconds.has_value());
    if (targets.airtimePerDaySeconds)
        airtime_->setValue(*targets.airtimePerDaySeconds);
    enableFields();
    Q_EMIT changed();
}

dpu::FleetTargets FleetPlanTargets::targets() const
{
    dpu::FleetTargets out = base_;
    out.freshShare.reset();
    if (freshOn_->isChecked()) {
        out.freshShare = freshShare_->value() / 100.0;
        if (!byGap()) {
            out.freshDays = freshDays_->value();
            out.accuracyGapPoints.reset();
        }
    } else {
        out.freshDays.reset();
        out.accuracyGapPoints.reset();
    }
    out.batteryPerYear.reset();
    if (batteryOn_->isChecked())
        out.batteryPerYear = battery_->value() / 100.0;
    out.airtimePerDaySeconds.reset();
    if (airtimeOn_->isChecked())
        out.airtimePerDaySeconds = airtime_->value();
    return out;
}

void FleetPlanTargets::enableFields()
{
    freshShare_->setEnabled(freshOn_->isChecked());
    freshDays_->setEnabled(freshOn_->isChecked() && !byGap());
    battery_->setEnabled(batteryOn_->isChecked());
    airtime_->setEnabled(airtimeOn_->isChecked());
}

} // namespace dpu::ui
