// SPDX-License-Identifier: MIT
// FleetInputs: the widgets of a dpu::Deployment, saved under "fleet/" in the settings.
#include "panels/FleetInputs.h"
#include "dpu/LinkModel.h"
#include "dpu/Plan.h"
#include "panels/LinkChoices.h"
#include "panels/LinkDeviceRows.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <algorithm>
#include <cmath>
#include <optional>

namespace dpu::ui {

namespace {
constexpr int kOwnMix = -1;                 ///< the SF list's entry for a mix of the plan's own
constexpr int kMixTextRole = Qt::UserRole + 1; ///< that entry's mix text
} // namespace

using linkchoices::isRegion;
using linkchoices::percentBox;

FleetInputs::FleetInputs(QWidget* parent) : QGroupBox(tr("Fleet"), parent)
{
    // No mnemonics here: the window's Alt letters are all taken (test_ui_use checks); Tab
    // walks the fields in order.
    auto* form = new QFormLayout(this);
    form_ = form;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    addLinkRows(form);
    addFleetRows(form);
    addServerRows(form);
    addProcessorRows(form);
    // Long entries (preset names, sub-bands) must not widen the column: the results beside
    // the plan form fit a 1366-pixel screen.
    for (QComboBox* c : findChildren<QComboBox*>()) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(8);
    }
    // The table's rules; the SF list also needs a region (a preset's own SF is its key's).
    for (const char* path : {"fleet.sf", "fleet.sf_mix"}) // one list states both
        enabling_.add(path, sf_, [this] { return isRegion(link_->currentData().toString()); });
    enabling_.add("fleet.availability", availability_);
    // A preset's class is its own (settings() states none there), as its SF.
    enabling_.add("fleet.device_class", deviceRows_->widgetFor("fleet.device_class"),
                  [this] { return isRegion(link_->currentData().toString()); });
    enabling_.add("fleet.ping_periodicity", deviceRows_->widgetFor("fleet.ping_periodicity"));
    enabling_.add("fleet.clock_mhz", clockMhz_);
    setSettings(flagship());
    for (QComboBox* c : {link_, cpu_})
        connect(c, &QComboBox::currentIndexChanged, this, &FleetInputs::updateEnabled);
    for (QComboBox* c : {link_, sf_, duty_, delivery_, catchUp_, order_, cpu_})
        connect(c, &QComboBox::currentIndexChanged, this, &FleetInputs::changed);
    for (QDoubleSpinBox* b : {loss_, availability_, periodHours_, clockMhz_})
        connect(b, &QDoubleSpinBox::valueChanged, this, &FleetInputs::changed);
    for (QSpinBox* b : {devices_, drain_, maxStaleness_})
        connect(b, &QSpinBox::valueChanged, this, &FleetInputs::changed);
    connect(realCatchUps_, &QCheckBox::toggled, this, &FleetInputs::changed);
    // A path is read when the user is done with it, not at every keystroke.
    connect(trace_, &QLineEdit::editingFinished, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
}

void FleetInputs::addLinkRows(QFormLayout* form)
{
    link_ = linkchoices::fleetLinkBox(this, QStringLiteral("fleetLink"));
    form->addRow(tr("Link"), link_);
    sf_ = new QComboBox(this);
    sf_->setObjectName(QStringLiteral("fleetSf"));
    sf_->addItem(tr("FUOTASim mix (45 % SF7 … 6 % SF12)"), 0);
    for (int sf = 7; sf <= 12; ++sf)
        sf_->addItem(tr("SF%1 for every device").arg(sf), sf);
    sf_->setToolTip(tr("Spreading factor: one for every device, or FUOTASim's mix (a multicast runs at the slowest SF among its devices)"));
    form->addRow(tr("Spreading factor"), sf_);
    duty_ = linkchoices::dutyCycleBox(this, QStringLiteral("fleetDutyCycle"));
    form->addRow(tr("Duty cycle"), duty_);
    loss_ = linkchoices::frameLossBox(this, QStringLiteral("fleetLoss"));
    form->addRow(tr("Frame loss"), loss_);
    delivery_ = linkchoices::deliveryBox(this, QStringLiteral("fleetDelivery"));
    form->addRow(tr("Delivery"), delivery_);
    deviceRows_ = new LinkDeviceRows(this, form);
    connect(deviceRows_, &LinkDeviceRows::changed, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
    connect(loss_, &QDoubleSpinBox::valueChanged, this, &FleetInputs::updateEnabled);
}

void FleetInputs::addFleetRows(QFormLayout* form)
{
    devices_ = new QSpinBox(this);
    devices_->setObjectName(QStringLiteral("fleetDevices"));
    devices_->setRange(1, 1000000);
    devices_->setGroupSeparatorShown(true);
    form->addRow(tr("Devices"), devices_);
    availability_ = percentBox(this, QStringLiteral("fleetAvailability"), 100);
    availability_->setToolTip(tr("Probability that a device is on in a round; one that slept needs a catch-up"));
    form->addRow(tr("Available per round"), availability_);
    periodHours_ = new QDoubleSpinBox(this);
    periodHours_->setObjectName(QStringLiteral("fleetPeriod"));
    periodHours_->setRange(0.01, 8760);
    periodHours_->setDecimals(2);
    periodHours_->setSuffix(QStringLiteral(" h"));
    periodHours_->setToolTip(tr("Time between rounds: a round's sessions must start within it"));
    form->addRow(tr("A round every"), periodHours_);
    drain_ = new QSpinBox(this);
    drain_->setObjectName(QStringLiteral("fleetDrain"));
    drain_->setRange(0, 1000);
    drain_->setToolTip(tr("Rounds after the run's last in which the server only catches devices up: the table's "
                          "catch-up after the last release; no other figure changes with them"));
    form->addRow(tr("Rounds to drain"), drain_);
}

void FleetInputs::addServerRows(QFormLayout* form)
{
    trace_ = new QLineEdit(this);
    trace_->setObjectName(QStringLiteral("fleetTrace"));
    trace_->setPlaceholderText(tr("none"));
    trace_->setToolTip(tr("A file of which device is on in which round: CSV lines device,round, or FedScale's "
                          "availability trace as JSON. It replaces the share available per round."));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("fleetTraceBrowse"));
    connect(browse, &QPushButton::clicked, this, &FleetInputs::chooseTrace);
    auto* traceRow = new QHBoxLayout;
    traceRow->setContentsMargins(0, 0, 0, 0);
    traceRow->addWidget(trace_, 1);
    traceRow->addWidget(browse);
    form->addRow(tr("Availability trace"), traceRow);
    traceRow_ = traceRow;
    catchUp_ = new QComboBox(this);
    catchUp_->setObjectName(QStringLiteral("fleetCatchUp"));
    catchUp_->addItem(tr("A bundle each (unicast)"), static_cast<int>(dpu::CatchUpDelivery::Unicast));
    catchUp_->addItem(tr("One multicast per version"), static_cast<int>(dpu::CatchUpDelivery::MulticastPerVersion));
    catchUp_->setToolTip(tr("Devices more than one version behind: a catch-up bundle each, or one multicast "
                            "for all devices on the same version (needs a multicast link)"));
    form->addRow(tr("Catch-up"), catchUp_);
    order_ = new QComboBox(this);
    order_->setObjectName(QStringLiteral("fleetOrder"));
    order_->addItem(tr("Most stale first"), static_cast<int>(dpu::CatchUpOrder::MostStaleFirst));
    order_->addItem(tr("Smallest first"), static_cast<int>(dpu::CatchUpOrder::SmallestFirst));
    order_->setToolTip(tr("Which stale devices the round's time serves first"));
    form->addRow(tr("Catch-up order"), order_);
    maxStaleness_ = new QSpinBox(this);
    maxStaleness_->setObjectName(QStringLiteral("fleetMaxStaleness"));
    maxStaleness_->setRange(0, 1000);
    maxStaleness_->setSpecialValueText(tr("never"));
    maxStaleness_->setSuffix(tr(" versions behind"));
    maxStaleness_->setToolTip(tr("A device further behind gets the whole model instead of a catch-up bundle"));
    form->addRow(tr("Whole model after"), maxStaleness_);
    realCatchUps_ = new QCheckBox(tr("Build real catch-up bundles"), this);
    realCatchUps_->setObjectName(QStringLiteral("fleetRealCatchUps"));
    realCatchUps_->setToolTip(tr("Size each catch-up as the real bundle built from the runs' files (its cheapest route: "
                                 "catch-up, chain or full model), about a second per pair of versions the first time; "
                                 "otherwise estimated as the cheaper of the missed bundles and the full model"));
    form->addRow(QString(), realCatchUps_);
}

void FleetInputs::addProcessorRows(QFormLayout* form)
{
    cpu_ = new QComboBox(this);
    cpu_->setObjectName(QStringLiteral("fleetCpu"));
    cpu_->addItem(tr("Not counted"), static_cast<int>(dpu::CpuChoice::None));
    cpu_->addItem(tr("Cortex-M4 (measured)"), static_cast<int>(dpu::CpuChoice::CortexM4));
    cpu_->addItem(tr("Cortex-M0 (measured)"), static_cast<int>(dpu::CpuChoice::CortexM0));
    cpu_->setToolTip(tr("The devices' processor: the time and energy of applying each bundle, from the "
                        "instruction counts measured in QEMU (docs/benchmarks.md, section 17)"));
    form->addRow(tr("Processor"), cpu_);
    clockMhz_ = new QDoubleSpinBox(this);
    clockMhz_->setObjectName(QStringLiteral("fleetClock"));
    clockMhz_->setRange(1, 1000);
    clockMhz_->setDecimals(0);
    clockMhz_->setSuffix(QStringLiteral(" MHz"));
    clockMhz_->setToolTip(tr("The processor's clock"));
    form->addRow(tr("Clock"), clockMhz_);
}

QWidget* FleetInputs::widgetFor(const std::string& path) const
{
    // The SF and the mix are one list; the link's device rows are LinkDeviceRows'.
    const std::pair<const char*, QWidget*> widgets[] = {
        {"fleet.link", link_},          {"fleet.sf", sf_},           {"fleet.sf_mix", sf_},
        {"fleet.duty_cycle", duty_},    {"fleet.loss", loss_},       {"fleet.delivery", delivery_},
        {"fleet.devices", devices_},    {"fleet.availability", availability_},
        {"fleet.availability_trace", trace_}, {"fleet.round_period_h", periodHours_},
        {"fleet.cpu", cpu_},            {"fleet.clock_mhz", clockMhz_}, {"fleet.catch_up", catchUp_},
        {"fleet.order", order_},        {"fleet.max_staleness", maxStaleness_},
        {"fleet.catch_up_bytes", realCatchUps_}, {"fleet.drain_rounds", drain_}};
    for (const auto& [key, widget] : widgets)
        if (path == key)
            return widget;
    return deviceRows_->widgetFor(path);
}

void FleetInputs::chooseTrace()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Availability trace"), trace_->text(),
                                                      tr("Traces (*.csv *.json);;All files (*)"));
    if (file.isEmpty())
        return;
    trace_->setText(file);
    updateEnabled();
    Q_EMIT changed();
}

dpu::Deployment FleetInputs::flagship()
{
    dpu::Deployment s;
    s.link.link = "lorawan-eu868";
    s.link.sfMix = "fuotasim";
    s.link.dutyCycle = 0.01;
    s.link.frameLoss = 0.1;
    s.devices = 200;
    s.availability = 0.8;
    s.drainRounds = 10;
    return s;
}

void FleetInputs::selectSpreadingFactor(int spreadingFactor, const std::string& mix)
{
    const int own = sf_->findData(kOwnMix);
    if (own >= 0)
        sf_->removeItem(own);
    const QString text = QString::fromStdString(mix).trimmed();
    if (!text.isEmpty() && text.compare(QLatin1String("fuotasim"), Qt::CaseInsensitive) != 0) {
        // A plan's (or the settings') own mix: shown as written, kept as written.
        sf_->insertItem(1, tr("Mix %1").arg(text), kOwnMix);
        sf_->setItemData(1, text, kMixTextRole);
        sf_->setCurrentIndex(1);
        return;
    }
    // SF 0 without a mix is the link's own SF7 (linkOf), not the mix entry (data 0).
    const int sf = sf_->findData(text.isEmpty() ? (spreadingFactor > 0 ? spreadingFactor : 7) : 0);
    sf_->setCurrentIndex(sf < 0 ? 0 : sf);
}

void FleetInputs::updateEnabled()
{
    // The sub-bands listed are EU868's; other links take the preset's duty cycle.
    const QString key = link_->currentData().toString();
    duty_->setEnabled(linkchoices::hasSubBands(key));
    deviceRows_->limitSpread(loss_->value());
    // The rules the plan field table gives the fleet.* keys (the processor's figures).
    dpu::Plan plan;
    plan.fleet = settings();
    enabling_.apply(plan);
}

dpu::Deployment FleetInputs::settings() const
{
    dpu::Deployment s;
    s.link.link = link_->currentData().toString().toStdString();
    const bool region = isRegion(link_->currentData().toString());
    const int sf = sf_->currentData().toInt();
    s.link.spreadingFactor = region && sf > 0 ? sf : 0;
    s.link.sfMix = !region || sf > 0 ? ""
                   : sf == kOwnMix ? sf_->currentData(kMixTextRole).toString().toStdString()
                                   : "fuotasim";
    s.link.dutyCycle = linkchoices::hasSubBands(link_->currentData().toString()) ? std::optional<double>(duty_->currentData().toDouble())
                                                                                   : std::nullopt;
    s.link.frameLoss = loss_->value() / 100.0;
    s.link.delivery = linkchoices::deliveryOf(delivery_);
    deviceRows_->apply(s.link);
    if (!region) // a preset has no LoRaWAN class (linkOf() would refuse one)
        s.link.deviceClass = dpu::DeviceClassChoice::Preset;
    s.devices = devices_->value();
    s.availability = availability_->value() / 100.0;
    s.roundPeriodHours = periodHours_->value();
    s.drainRounds = drain_->value();
    s.availabilityTrace = trace_->text().trimmed().toStdString();
    s.policy.catchUp = static_cast<dpu::CatchUpDelivery>(catchUp_->currentData().toInt());
    s.policy.order = static_cast<dpu::CatchUpOrder>(order_->currentData().toInt());
    s.policy.maxStaleness = maxStaleness_->value();
    s.catchUpSizes = realCatchUps_->isChecked() ? dpu::CatchUpSizing::Real : dpu::CatchUpSizing::Estimate;
    s.cpu.cpu = static_cast<dpu::CpuChoice>(cpu_->currentData().toInt());
    s.cpu.clockMhz = clockMhz_->value();
    return s;
}

void FleetInputs::setSettings(const dpu::Deployment& s)
{
    linkchoices::selectLink(link_, QString::fromStdString(s.link.link));
    selectSpreadingFactor(s.link.spreadingFactor, s.link.sfMix);
    linkchoices::selectDutyCycle(duty_, s.link.dutyCycle.value_or(NAN));
    loss_->setValue(100.0 * s.link.frameLoss);
    linkchoices::selectDelivery(delivery_, s.link.delivery);
    updateEnabled(); // the spread's maximum follows the loss just set
    deviceRows_->show(s.link);
    devices_->setValue(s.devices);
    availability_->setValue(100.0 * s.availability);
    periodHours_->setValue(s.roundPeriodHours);
    drain_->setValue(s.drainRounds);
    trace_->setText(QString::fromStdString(s.availabilityTrace));
    catchUp_->setCurrentIndex(std::max(0, catchUp_->findData(static_cast<int>(s.policy.catchUp))));
    order_->setCurrentIndex(std::max(0, order_->findData(static_cast<int>(s.policy.order))));
    maxStaleness_->setValue(s.policy.maxStaleness);
    realCatchUps_->setChecked(s.catchUpSizes == dpu::CatchUpSizing::Real);
    cpu_->setCurrentIndex(std::max(0, cpu_->findData(static_cast<int>(s.cpu.cpu))));
    clockMhz_->setValue(s.cpu.clockMhz);
    updateEnabled();
}

} // namespace dpu::ui
