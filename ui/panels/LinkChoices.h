// SPDX-License-Identifier: MIT
// The link settings' shared widgets (the Fleet tab's and the Budget tab's): EU868 sub-bands, frame loss, delivery.
#pragma once
#include "dpu/FleetSettings.h"
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QWidget;

namespace dpu::ui::linkchoices {

/// True for the LoRaWAN regions, which take a spreading factor ("lorawan-eu868", "lorawan-us915").
bool isRegion(const QString& key);
/// The EU868 sub-bands by their duty cycle: 1 % (865-868.6 MHz, first), 0.1 %, 10 %. Item data:
/// the duty cycle as a fraction. Owned by `parent`.
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
