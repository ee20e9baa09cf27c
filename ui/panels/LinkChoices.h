// SPDX-License-Identifier: MIT
// The link settings' shared widgets (the Fleet tab's, the plan form's and the Budget tab's): the one list of links, EU868 sub-bands, frame loss, delivery.
#pragma once
#include "dpu/DeploymentModel.h"
#include <QString>
#include <string>

class QComboBox;
class QDoubleSpinBox;
class QWidget;

namespace dpu::ui::linkchoices {

/// Appends the links a plan's fleet can name (its `fleet.link`), the window's one list of links:
/// the LoRaWAN regions EU868 and US915 (which take a spreading factor), then core's other link
/// model presets (NB-IoT, LTE-M, BLE SMP), each under its preset's name with its key as the
/// item's `keyRole` data.
void addLinkModels(QComboBox* box, int keyRole = Qt::UserRole);
/// A list of addLinkModels() (item data: the key), owned by `parent`; the Fleet tab's and the
/// plan form's lists are this one, the Budget tab's has the same items.
QComboBox* fleetLinkBox(QWidget* parent, const QString& objectName);
/// Selects the item of `key` or of the preset an older key stands for (dpu::resolveLinkKey():
/// "lora" is lorawan-eu868-sf7), case-insensitive; the first for a key the list lacks.
void selectLink(QComboBox* box, const QString& key);
/// True for the LoRaWAN regions, which take a spreading factor (core's DeploymentLinkChoice::region).
bool isRegion(const QString& key);
/// True for a link that takes one of EU868's sub-bands as its duty cycle (DeploymentLinkChoice::subBands).
bool hasSubBands(const QString& key);
/// The name lists show for `key` (core's deploymentLinkChoice()), or the key itself when core lacks it.
QString linkName(const std::string& key);
/// The EU868 sub-bands by their duty cycle (core's eu868SubBands(): 1 % (865-868.6 MHz, first),
/// 0.1 %, 10 %). Item data: the duty cycle as a fraction. Owned by `parent`.
QComboBox* dutyCycleBox(QWidget* parent, const QString& objectName);
/// Selects the sub-band of `dutyCycle` (the first for NaN or a value no sub-band has).
void selectDutyCycle(QComboBox* box, double dutyCycle);
/// As the link does (first), multicast, unicast. Item data: dpu::DeliveryChoice as int.
QComboBox* deliveryBox(QWidget* parent, const QString& objectName);
void selectDelivery(QComboBox* box, dpu::DeliveryChoice delivery);
dpu::DeliveryChoice deliveryOf(const QComboBox* box);
/// A percentage 0 .. max with one decimal and a " %" suffix.
QDoubleSpinBox* percentBox(QWidget* parent, const QString& objectName, double max);
/// The frame-loss box (0 .. 95 %), with its tooltip.
QDoubleSpinBox* frameLossBox(QWidget* parent, const QString& objectName);

} // namespace dpu::ui::linkchoices
