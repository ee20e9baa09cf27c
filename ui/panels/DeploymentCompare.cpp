// SPDX-License-Identifier: MIT
// DeploymentCompare: two sets of a plan's fleet keys compared key by key, in words.
#include "panels/DeploymentCompare.h"
#include "dpu/DeploymentFields.h"
#include "dpu/FleetMetrics.h"
#include "dpu/LinkModel.h"
#include "panels/LinkChoices.h"
#include <QCoreApplication>
#include <QLocale>
#include <algorithm>

namespace dpu::ui::deploymentcompare {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("DeploymentCompare", text);
}

bool sameSf(const dpu::Deployment& a, const dpu::Deployment& b)
{
    return a.link.spreadingFactor == b.link.spreadingFactor && a.link.sfMix == b.link.sfMix;
}

bool isRegion(const dpu::Deployment& f)
{
    return linkchoices::isRegion(QString::fromStdString(f.link.link));
}

bool hasSubBands(const dpu::Deployment& f)
{
    return linkchoices::hasSubBands(QString::fromStdString(f.link.link));
}

QString percentText(double fraction)
{
    return QLocale().toString(100.0 * fraction, 'g', 3) + QStringLiteral(" %");
}

QString sfText(const dpu::Deployment& f)
{
    const QString mix = QString::fromStdString(f.link.sfMix).trimmed();
    if (mix.compare(QLatin1String("fuotasim"), Qt::CaseInsensitive) == 0)
        return tr("FUOTASim mix");
    if (!mix.isEmpty())
        return tr("mix %1").arg(mix);
    return QStringLiteral("SF%1").arg(f.link.spreadingFactor > 0 ? f.link.spreadingFactor : 7); // 0: the link's SF7
}

QString subBandText(const dpu::Deployment& f)
{
    // Unset: the preset's, which is EU868's 1 % sub-band.
    return tr("%1 sub-band").arg(percentText(f.link.dutyCycle.value_or(0.01)));
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

bool same(const dpu::Deployment& a, const dpu::Deployment& b)
{
    return dpu::deploymentDifferences(a, b).empty();
}

dpu::Deployment kept(const dpu::Deployment& original, const dpu::Deployment& shown, const dpu::Deployment& now)
{
    dpu::Deployment f = original;
    std::vector<std::string> changed = dpu::deploymentDifferences(shown, now);
    // The SF and the mix are one choice: a form that changed one states both.
    for (const char* path : {"fleet.sf", "fleet.sf_mix"})
        if (!sameSf(shown, now) && std::find(changed.begin(), changed.end(), path) == changed.end())
            changed.push_back(path);
    for (const std::string& path : changed)
        dpu::copyDeploymentField(f, now, path);
    return f;
}

QStringList differences(const dpu::Deployment& plan, const dpu::Deployment& e)
{
    QStringList out;
    if (e.link.link != plan.link.link) {
        out << instead(linkName(e.link.link), linkName(plan.link.link));
    } else {
        if (isRegion(e) && !sameSf(e, plan))
            out << instead(sfText(e), sfText(plan));
        if (hasSubBands(e) && e.link.dutyCycle != plan.link.dutyCycle)
            out << instead(subBandText(e), subBandText(plan));
    }
    if (e.link.frameLoss != plan.link.frameLoss)
        out << tr("%1 loss instead of the plan's %2").arg(percentText(e.link.frameLoss), percentText(plan.link.frameLoss));
    if (e.link.frameLossSpread != plan.link.frameLossSpread)
        out << tr("a loss spread of ± %1 instead of the plan's ± %2")
                   .arg(percentText(e.link.frameLossSpread), percentText(plan.link.frameLossSpread));
    if (e.link.delivery != plan.link.delivery)
        out << instead(deliveryText(e.link.delivery), deliveryText(plan.link.delivery));
    if (e.link.deviceClass != plan.link.deviceClass)
        out << instead(classText(e.link.deviceClass), classText(plan.link.deviceClass));
    if (e.link.pingPeriodicity != plan.link.pingPeriodicity)
        out << tr("ping periodicity %1 instead of the plan's %2").arg(e.link.pingPeriodicity).arg(plan.link.pingPeriodicity);
    if (e.link.leaveWhenDecoded != plan.link.leaveWhenDecoded)
        out << (e.link.leaveWhenDecoded ? tr("devices leaving a session once decoded instead of listening to its end")
                                   : tr("devices listening to a session's end instead of leaving once decoded"));
    if (e.devices != plan.devices)
        out << tr("%L1 devices instead of the plan's %L2").arg(e.devices).arg(plan.devices);
    if (e.availability != plan.availability)
        out << tr("%1 available instead of the plan's %2").arg(percentText(e.availability), percentText(plan.availability));
    if (e.roundPeriodHours != plan.roundPeriodHours)
        out << tr("a round every %1 instead of the plan's %2")
                   .arg(QString::fromStdString(dpu::cadenceText(e.roundPeriodHours * 3600.0)),
                        QString::fromStdString(dpu::cadenceText(plan.roundPeriodHours * 3600.0)));
    // The fields without a phrase of their own (the trace, processor, server policy, simulation):
    // the plan file's words.
    static const std::vector<std::string> phrased{
        "fleet.link", "fleet.sf", "fleet.sf_mix", "fleet.duty_cycle", "fleet.loss", "fleet.loss_spread",
        "fleet.delivery", "fleet.device_class", "fleet.ping_periodicity", "fleet.leave_when_decoded",
        "fleet.devices", "fleet.availability", "fleet.round_period_h"};
    for (const std::string& path : dpu::deploymentDifferences(plan, e))
        if (std::find(phrased.begin(), phrased.end(), path) == phrased.end())
            out << tr("%1 %2 instead of the plan's %3")
                       .arg(QString::fromStdString(path), QString::fromStdString(dpu::deploymentFieldText(e, path)),
                            QString::fromStdString(dpu::deploymentFieldText(plan, path)));
    return out;
}

QString summary(const dpu::Deployment& f)
{
    QStringList parts{tr("%L1 devices on %2").arg(f.devices).arg(linkName(f.link.link))};
    if (isRegion(f))
        parts << sfText(f);
    if (hasSubBands(f))
        parts << subBandText(f);
    parts << tr("%1 loss").arg(percentText(f.link.frameLoss));
    if (f.link.deviceClass != dpu::DeviceClassChoice::Preset)
        parts << classText(f.link.deviceClass);
    parts << tr("%1 available").arg(percentText(f.availability)) << periodText(f.roundPeriodHours);
    return parts.join(QStringLiteral(", "));
}

QString linkName(const std::string& key)
{
    return linkchoices::linkName(key);
}

} // namespace dpu::ui::deploymentcompare
