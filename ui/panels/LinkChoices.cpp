// SPDX-License-Identifier: MIT
// LinkChoices: the link settings' widgets, built once for the Fleet tab and the Budget tab.
#include "panels/LinkChoices.h"
#include "dpu/LinkModel.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace dpu::ui::linkchoices {

bool isRegion(const QString& key)
{
    return key == QLatin1String("lorawan-eu868") || key == QLatin1String("lorawan-us915");
}

void addLinkModels(QComboBox* box, int keyRole)
{
    const auto add = [box, keyRole](const QString& name, const QString& key) {
        box->addItem(name);
        box->setItemData(box->count() - 1, key, keyRole);
    };
    add(QObject::tr("LoRaWAN EU868"), QStringLiteral("lorawan-eu868"));
    add(QObject::tr("LoRaWAN US915"), QStringLiteral("lorawan-us915"));
    for (const std::string& key : dpu::linkPresetKeysList())
        if (key.rfind("lorawan-", 0) != 0) // the regions above take the SF
            add(QString::fromStdString(dpu::linkPreset(key).name), QString::fromStdString(key));
}

QComboBox* fleetLinkBox(QWidget* parent, const QString& objectName)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(objectName);
    addLinkModels(box);
    return box;
}

void selectLink(QComboBox* box, const QString& key)
{
    const QString resolved = QString::fromStdString(dpu::resolveLinkKey(key.toStdString()));
    int index = 0;
    for (int i = 0; i < box->count(); ++i)
        if (box->itemData(i).toString().compare(resolved, Qt::CaseInsensitive) == 0)
            index = i;
    box->setCurrentIndex(index);
}

QComboBox* dutyCycleBox(QWidget* parent, const QString& objectName)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->addItem(QObject::tr("1 % (865-868.6 MHz)"), 0.01);
    box->addItem(QObject::tr("0.1 % (863-865 MHz)"), 0.001);
    box->addItem(QObject::tr("10 % (869.4-869.65 MHz)"), 0.1);
    box->setToolTip(QObject::tr("The EU868 sub-band's duty cycle: the share of time the gateway may transmit"));
    return box;
}

void selectDutyCycle(QComboBox* box, double dutyCycle)
{
    int index = 0;
    for (int i = 0; i < box->count(); ++i)
        if (!std::isnan(dutyCycle) && std::abs(box->itemData(i).toDouble() - dutyCycle) < 1e-12)
            index = i;
    box->setCurrentIndex(index);
}

QComboBox* deliveryBox(QWidget* parent, const QString& objectName)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->addItem(QObject::tr("As the link does"), static_cast<int>(dpu::DeliveryChoice::Preset));
    box->addItem(QObject::tr("Multicast"), static_cast<int>(dpu::DeliveryChoice::Multicast));
    box->addItem(QObject::tr("Unicast"), static_cast<int>(dpu::DeliveryChoice::Unicast));
    box->setToolTip(QObject::tr("How a round's delta goes out (LoRaWAN: multicast; cellular and BLE: unicast)"));
    return box;
}

void selectDelivery(QComboBox* box, dpu::DeliveryChoice delivery)
{
    box->setCurrentIndex(std::max(0, box->findData(static_cast<int>(delivery))));
}

dpu::DeliveryChoice deliveryOf(const QComboBox* box)
{
    return static_cast<dpu::DeliveryChoice>(box->currentData().toInt());
}

QDoubleSpinBox* percentBox(QWidget* parent, const QString& objectName, double max)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(objectName);
    box->setRange(0, max);
    box->setDecimals(1);
    box->setSuffix(QStringLiteral(" %"));
    return box;
}

QDoubleSpinBox* frameLossBox(QWidget* parent, const QString& objectName)
{
    QDoubleSpinBox* box = percentBox(parent, objectName, 95);
    box->setToolTip(QObject::tr("Probability that a frame is lost; redundant fragments make up for it"));
    return box;
}

} // namespace dpu::ui::linkchoices
