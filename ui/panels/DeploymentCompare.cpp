// SPDX-License-Identifier: MIT
// DeploymentCompare: two sets of a plan's fleet keys compared key by key, in words.
#include "panels/DeploymentCompare.h"
#include "dpu/FleetMetrics.h"
#include "dpu/LinkModel.h"
#include "panels/LinkChoices.h"
#include <QCoreApplication>
#include <QLocale>

namespace dpu::ui::deploymentcompare {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("DeploymentCompare", text);
}

bool sameSf(const dpu::PlanFleet& a, const dpu::PlanFleet& b)
{
    return a.spreadingFactor == b.spreadingFactor && a.sfMix == b.sfMix;
}

bool isRegion(const dpu::PlanFleet& f)
{
    return linkchoices::isRegion(QString::fromStdString(f.link));
}

QString percentText(double fraction)
{
    return QLocale().toString(100.0 * fraction, 'g', 3) + QStringLiteral(" %");
}

QString sfText(const dpu::PlanFleet& f)
{
    const QString mix = QString::fromStdString(f.sfMix).trimmed();
    if (mix.compare(QLatin1String("fuotasim"), Qt::CaseInsensitive) == 0)
        return tr("FUOTASim mix");
    if (!mix.isEmpty())
        return tr("mix %1").arg(mix);
    return QStringLiteral("SF%1").arg(f.spreadingFactor > 0 ? f.spreadingFactor : 7); // 0: the link's SF7
}

QString subBandText(const dpu::PlanFleet& f)
{
    // 0 in a plan: the preset's, which is EU868's 1 % sub-band.
    return tr("%1 sub-band").arg(percentText(f.dutyCycle > 0 ? f.dutyCycle : 0.01));
}

QString deliveryText(dpu::DeliveryChoice d)
{
    return d == dpu::DeliveryChoice::Multicast ? tr("multicast")
           : d == dpu::DeliveryChoice::Unicast ? tr("unicast")
                                               : tr("the link's own delivery");
}

QString classText(dpu::DeviceClassChoice c)
{
    return c == dpu::DeviceClassChoice::B   ? tr("Class B")
           : c == dpu::DeviceClassChoice::C ? tr("Class C")
                                            : tr("the link's own device class");
}

QString periodText(double hours)
{
    return tr("a round every %1").arg(QString::fromStdString(dpu::cadenceText(hours * 3600.0)));
}

/// "X instead of the plan's Y".
QString instead(const QString& explored, const QString& plan)
{
    return tr("%1 instead of the plan's %2").arg(explored, plan);
}

} // namespace

bool same(const dpu::PlanFleet& a, const dpu::PlanFleet& b)
{
    return a.link == b.link && sameSf(a, b) && a.dutyCycle == b.dutyCycle && a.frameLoss == b.frameLoss
           && a.frameLossSpread == b.frameLossSpread && a.delivery == b.delivery && a.deviceClass == b.deviceClass
           && a.pingPeriodicity == b.pingPeriodicity && a.leaveWhenDecoded == b.leaveWhenDecoded && a.devices == b.devices
           && a.availability == b.availability && a.roundPeriodHours == b.roundPeriodHours;
}

dpu::PlanFleet kept(const dpu::PlanFleet& original, const dpu::PlanFleet& shown, const dpu::PlanFleet& now)
{
    dpu::PlanFleet f = original;
    const auto take = [](auto& out, const auto& shownValue, const auto& nowValue) {
        if (!(shownValue == nowValue))
            out = nowValue;
    };
    take(f.link, shown.link, now.link);
    if (!sameSf(shown, now)) {
        f.spreadingFactor = now.spreadingFactor;
        f.sfMix = now.sfMix;
    }
    take(f.dutyCycle, shown.dutyCycle, now.dutyCycle);
    take(f.frameLoss, shown.frameLoss, now.frameLoss);
    take(f.frameLossSpread, shown.frameLossSpread, now.frameLossSpread);
    take(f.delivery, shown.delivery, now.delivery);
    take(f.deviceClass, shown.deviceClass, now.deviceClass);
    take(f.pingPeriodicity, shown.pingPeriodicity, now.pingPeriodicity);
    take(f.leaveWhenDecoded, shown.leaveWhenDecoded, now.leaveWhenDecoded);
    take(f.devices, shown.devices, now.devices);
    take(f.availability, shown.availability, now.availability);
    take(f.roundPeriodHours, shown.roundPeriodHours, now.roundPeriodHours);
    return f;
}

QStringList differences(const dpu::PlanFleet& plan, const dpu::PlanFleet& e)
{
    QStringList out;
    if (e.link != plan.link) {
        out << instead(linkName(e.link), linkName(plan.link));
    } else {
        if (isRegion(e) && !sameSf(e, plan))
            out << instead(sfText(e), sfText(plan));
        if (e.link == "lorawan-eu868" && e.dutyCycle != plan.dutyCycle)
            out << instead(subBandText(e), subBandText(plan));
    }
    if (e.frameLoss != plan.frameLoss)
        out << tr("%1 loss instead of the plan's %2").arg(percentText(e.frameLoss), percentText(plan.frameLoss));
    if (e.frameLossSpread != plan.frameLossSpread)
        out << tr("a loss spread of ± %1 instead of the plan's ± %2")
                   .arg(percentText(e.frameLossSpread), percentText(plan.frameLossSpread));
    if (e.delivery != plan.delivery)
        out << instead(deliveryText(e.delivery), deliveryText(plan.delivery));
    if (e.deviceClass != plan.deviceClass)
        out << instead(classText(e.deviceClass), classText(plan.deviceClass));
    if (e.pingPeriodicity != plan.pingPeriodicity)
        out << tr("ping periodicity %1 instead of the plan's %2").arg(e.pingPeriodicity).arg(plan.pingPeriodicity);
    if (e.leaveWhenDecoded != plan.leaveWhenDecoded)
        out << (e.leaveWhenDecoded ? tr("devices leaving a session once decoded instead of listening to its end")
                                   : tr("devices listening to a session's end instead of leaving once decoded"));
    if (e.devices != plan.devices)
        out << tr("%L1 devices instead of the plan's %L2").arg(e.devices).arg(plan.devices);
    if (e.availability != plan.availability)
        out << tr("%1 available instead of the plan's %2").arg(percentText(e.availability), percentText(plan.availability));
    if (e.roundPeriodHours != plan.roundPeriodHours)
        out << tr("a round every %1 instead of the plan's %2")
                   .arg(QString::fromStdString(dpu::cadenceText(e.roundPeriodHours * 3600.0)),
                        QString::fromStdString(dpu::cadenceText(plan.roundPeriodHours * 3600.0)));
    return out;
}

QString summary(const dpu::PlanFleet& f)
{
    QStringList parts{tr("%L1 devices on %2").arg(f.devices).arg(linkName(f.link))};
    if (isRegion(f))
        parts << sfText(f);
    if (f.link == "lorawan-eu868")
        parts << subBandText(f);
    parts << tr("%1 loss").arg(percentText(f.frameLoss));
    if (f.deviceClass != dpu::DeviceClassChoice::Preset)
        parts << classText(f.deviceClass);
    parts << tr("%1 available").arg(percentText(f.availability)) << periodText(f.roundPeriodHours);
    return parts.join(QStringLiteral(", "));
}

QString linkName(const std::string& key)
{
    if (key == "lorawan-eu868")
        return tr("LoRaWAN EU868");
    if (key == "lorawan-us915")
        return tr("LoRaWAN US915");
    try {
        return QString::fromStdString(dpu::linkPreset(key).name);
    } catch (const std::exception&) { // a key core lacks: the plan check names it
        return QString::fromStdString(key);
    }
}

} // namespace dpu::ui::deploymentcompare
