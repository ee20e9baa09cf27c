// SPDX-License-Identifier: MIT
// LinkDeviceRows: loss spread, device class, ping period and leaving, as widgets of a fleet form and keys of the settings.
#include "panels/LinkDeviceRows.h"
#include "panels/LinkChoices.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <algorithm>

namespace dpu::ui {

LinkDeviceRows::LinkDeviceRows(QWidget* parent, QFormLayout* form) : QObject(parent)
{
    spread_ = linkchoices::percentBox(parent, QStringLiteral("fleetLossSpread"), 95);
    spread_->setPrefix(QStringLiteral("± "));
    spread_->setToolTip(tr("Devices differ: each device's own frame loss lies evenly within the loss ± this (near and far "
                           "nodes). Sessions are planned for the mean loss, so the lossier devices are left behind."));
    form->addRow(tr("Loss spread"), spread_);
    deviceClass_ = new QComboBox(parent);
    deviceClass_->setObjectName(QStringLiteral("fleetDeviceClass"));
    deviceClass_->addItem(tr("As the link does (Class C)"), static_cast<int>(dpu::DeviceClassChoice::Preset));
    deviceClass_->addItem(tr("Class C (listens all through)"), static_cast<int>(dpu::DeviceClassChoice::C));
    deviceClass_->addItem(tr("Class B (ping slots, beacons)"), static_cast<int>(dpu::DeviceClassChoice::B));
    deviceClass_->setToolTip(tr("LoRaWAN: Class C devices listen through a whole session; Class B devices listen at their "
                                "group's ping slots and to the beacons, and each frame waits for a ping slot"));
    form->addRow(tr("Device class"), deviceClass_);
    pingPeriod_ = new QComboBox(parent);
    pingPeriod_->setObjectName(QStringLiteral("fleetPingPeriod"));
    for (int p = 0; p <= 7; ++p)
        pingPeriod_->addItem(tr("Every %1 s (periodicity %2)").arg(0.96 * (1 << p), 0, 'g', 4).arg(p), p);
    pingPeriod_->setToolTip(tr("Class B: the multicast group's ping slots, 0.96 × 2^p s apart"));
    form->addRow(tr("Ping period"), pingPeriod_);
    // Short, and across the form's two columns: in the field column its width made the Fleet
    // tab's fixed 250-pixel column wider than the screen allows, cutting every field at the right.
    leave_ = new QCheckBox(tr("Leave a session once decoded"), parent);
    leave_->setObjectName(QStringLiteral("fleetLeaveWhenDecoded"));
    leave_->setToolTip(tr("A device stops listening at the frame that lets it decode the bundle (TS004 lets it); "
                          "unchecked, it listens to the session's end"));
    form->addRow(leave_);
    connect(spread_, &QDoubleSpinBox::valueChanged, this, &LinkDeviceRows::changed);
    for (QComboBox* c : {deviceClass_, pingPeriod_})
        connect(c, &QComboBox::currentIndexChanged, this, &LinkDeviceRows::changed);
    connect(leave_, &QCheckBox::toggled, this, &LinkDeviceRows::changed);
    show(dpu::DeploymentLink{});
}

void LinkDeviceRows::apply(dpu::DeploymentLink& link) const
{
    link.frameLossSpread = spread_->value() / 100.0;
    link.deviceClass = static_cast<dpu::DeviceClassChoice>(deviceClass_->currentData().toInt());
    link.pingPeriodicity = pingPeriod_->currentData().toInt();
    link.leaveWhenDecoded = leave_->isChecked();
}

void LinkDeviceRows::show(const dpu::DeploymentLink& link)
{
    spread_->setValue(100.0 * link.frameLossSpread);
    deviceClass_->setCurrentIndex(std::max(0, deviceClass_->findData(static_cast<int>(link.deviceClass))));
    pingPeriod_->setCurrentIndex(std::max(0, pingPeriod_->findData(link.pingPeriodicity)));
    leave_->setChecked(link.leaveWhenDecoded);
}

void LinkDeviceRows::limitSpread(double frameLossPercent)
{
    // validateLink() refuses a spread above the loss: the box cannot go there.
    spread_->setMaximum(std::min(frameLossPercent, 100.0 - frameLossPercent));
}

QWidget* LinkDeviceRows::widgetFor(const std::string& path) const
{
    if (path == "fleet.loss_spread")
        return spread_;
    if (path == "fleet.device_class")
        return deviceClass_;
    if (path == "fleet.ping_periodicity")
        return pingPeriod_;
    if (path == "fleet.leave_when_decoded")
        return leave_;
    return nullptr;
}

} // namespace dpu::ui
