// SPDX-License-Identifier: MIT
// LinkChoices: the link settings' widgets, built once for the Fleet tab and the Budget tab.
#include "panels/LinkChoices.h"
#include "dpu/DeploymentLink.h"
#include "dpu/LinkModel.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <optional>

namespace dpu::ui::linkchoices {

bool isRegion(const QString& key)
{
    const std::optional<dpu::DeploymentLinkChoice> choice = dpu::deploymentLinkChoice(key.toStdString());
    return choice && choice->region;
}

bool hasSubBands(const QString& key)
{
    const std::optional<dpu::DeploymentLinkChoice> choice = dpu::deploymentLinkChoice(key.toStdString());
    return choice && choice->subBands;
}

QString linkName(const std::string& key)
{
    const std::optional<dpu::DeploymentLinkChoice> choice = dpu::deploymentLinkChoice(key);
    return QString::fromStdString(choice ? choice->name : key); // a key core lacks: the plan check names it
}

void addLinkModels(QComboBox* box, int keyRole)
{
    for (const dpu::DeploymentLinkChoice& choice : dpu::deploymentLinkChoices()) {
        box->addItem(QString::fromStdString(choice.name));
        box->setItemData(box->count() - 1, QString::fromStdString(choice.key), keyRole);
    }
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
    const QLocale c = QLocale::c();
    for (const dpu::Eu868SubBand& band : dpu::eu868SubBands())
        box->addItem(QObject::tr("%1 % (%2-%3 MHz)")
                         .arg(c.toString(band.dutyCycle * 100, 'g', 3), c.toString(band.lowMHz, 'g', 6), c.toString(band.highMHz, 'g', 6)),
                     band.dutyCycle);
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
