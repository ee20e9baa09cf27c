// SPDX-License-Identifier: MIT
// LinkRoundReadout: the recommended bundle's round on the chosen link model, figure by figure, each with what it means.
#include "panels/LinkRoundReadout.h"
#include "panels/LinkFigures.h"
#include <QGridLayout>
#include <QLabel>

namespace dpu::ui {
namespace {

QLabel* figure(QWidget* parent, const char* name, const QString& tip)
{
    auto* l = new QLabel(QStringLiteral("–"), parent);
    l->setObjectName(QString::fromLatin1(name));
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setToolTip(tip);
    return l;
}

} // namespace

LinkRoundReadout::LinkRoundReadout(QWidget* parent) : QWidget(parent)
{
    // Two figures a line: the column beside the chart has room for four rows at most.
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    link_ = new QLabel(this);
    link_->setObjectName(QStringLiteral("budgetLinkRound"));
    link_->setWordWrap(true);
    link_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    link_->setToolTip(tr("The recommended bundle's round on the link model chosen above (docs/fleet.md \"One round\")"));
    airtime_ = figure(this, "budgetAirtime",
                      tr("Time on air of the round's frames (data fragments plus the redundancy for a 99 % chance that a "
                         "device completes): once for a multicast, once per device for unicast"));
    wallTime_ = figure(this, "budgetWallTime",
                       tr("Wall time until every device's session has ended: airtime stretched by the duty cycle (a 1 % "
                          "sub-band sends 1 s in every 100 s), plus the sessions' fixed set-up time; unicast sessions "
                          "sharing a gateway run one after another"));
    energy_ = figure(this, "budgetEnergyPerDevice",
                     tr("Energy one device spends on the round: receiving its frames, or listening for the whole session "
                        "where its class listens (LoRaWAN Class C), plus the session's fixed cost"));
    battery_ = figure(this, "budgetBatteryShare",
                      tr("The round's energy per device as a share of the link preset's battery (mAh x 3.6 x V)"));
    grid->addWidget(link_, 0, 0, 1, 4);
    const auto caption = [this](const QString& text, QLabel* value) {
        auto* l = new QLabel(text, this);
        value->setAccessibleName(text); // a screen reader names the figure
        l->setToolTip(value->toolTip());
        return l;
    };
    grid->addWidget(caption(tr("Airtime"), airtime_), 1, 0);
    grid->addWidget(airtime_, 1, 1);
    grid->addWidget(caption(tr("Wall time"), wallTime_), 1, 2);
    grid->addWidget(wallTime_, 1, 3);
    grid->addWidget(caption(tr("Energy"), energy_), 2, 0);
    grid->addWidget(energy_, 2, 1);
    grid->addWidget(caption(tr("Battery"), battery_), 2, 2);
    grid->addWidget(battery_, 2, 3);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
}

void LinkRoundReadout::showRound(const dpu::Link& link, int devices, const dpu::LinkRound& r)
{
    // Two lines at most in the column: the link's full name and sources are in the list.
    QString where = QString::fromStdString(link.name);
    where = where.left(where.indexOf(QLatin1String(" ("))); // "LoRaWAN EU868 SF9/125 kHz"
    if (link.dutyCycle < 1)
        where += tr(" at %1 %").arg(link.dutyCycle * 100);
    if (link.frameLoss > 0) // what the redundancy is for
        where += tr(", %1 % loss").arg(link.frameLoss * 100);
    link_->setText(tr("%L1 B in %L2 frames (%L3 redundant), %4 to %L5 on %6")
                       .arg(r.bytes)
                       .arg(r.frames)
                       .arg(r.redundancy)
                       .arg(link.delivery == dpu::LinkDelivery::Multicast ? tr("multicast") : tr("unicast"))
                       .arg(devices)
                       .arg(where));
    airtime_->setText(linkDurationText(r.airtime));
    wallTime_->setText(linkDurationText(r.wallTime));
    energy_->setText(tr("%1 per device").arg(linkEnergyText(r.energyPerDevice)));
    battery_->setText(batteryShareText(r.batteryShare));
}

void LinkRoundReadout::showNothing(const QString& why)
{
    link_->setText(why);
    for (QLabel* l : {airtime_, wallTime_, energy_, battery_})
        l->setText(QStringLiteral("–"));
}

} // namespace dpu::ui
