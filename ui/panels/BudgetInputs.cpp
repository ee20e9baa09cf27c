// SPDX-License-Identifier: MIT
// BudgetInputs: a byte budget stated directly, as what a link moves in a time window, or as an energy per device; a link model inverts its round.
#include "panels/BudgetInputs.h"
#include "dpu/LinkModel.h"
#include "panels/LinkChoices.h"
#include "panels/LinkFigures.h"
#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QRadioButton>
#include <QSpinBox>
#include <QToolButton>
#include <cmath>

namespace dpu::ui {

using linkchoices::isRegion;

BudgetInputs::BudgetInputs(QWidget* parent) : QGroupBox(tr("Budget per update round and device"), parent)
{
    auto* form = new QFormLayout(this);
    form_ = form;
    marks_.emplace(form);
    addLinkRow(form);
    addLinkDetailRows(form);
    addBudgetRows(form);
    devices_ = new QSpinBox(this);
    devices_->setObjectName(QStringLiteral("budgetDevices"));
    devices_->setRange(1, 1000000000);
    devices_->setValue(1000);
    devices_->setGroupSeparatorShown(true);
    devices_->setToolTip(tr("Devices one round goes to: the bytes in all, and on a link model the wall time of "
                            "unicast sessions, which a gateway sends one after another"));
    form->addRow(tr("Devi&ces"), devices_);

    updateEnabled();
    recompute();
    for (QComboBox* c : {link_, sf_, duty_, delivery_, targetScope_})
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            updateEnabled();
            recompute();
        });
    connect(byBytes_, &QRadioButton::toggled, this, [this] {
        updateEnabled();
        recompute();
    });
    connect(byEnergy_, &QRadioButton::toggled, this, [this] {
        updateEnabled();
        recompute();
    });
    for (QDoubleSpinBox* b : {bytes_, window_, energy_, loss_, target_})
        connect(b, &QDoubleSpinBox::valueChanged, this, &BudgetInputs::recompute);
    connect(devices_, &QSpinBox::valueChanged, this, &BudgetInputs::recompute);
}

void BudgetInputs::addLinkRow(QFormLayout* form)
{
    link_ = new QComboBox(this);
    link_->setObjectName(QStringLiteral("budgetLink"));
    link_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    link_->setMinimumContentsLength(10);
    // The window's one list of links, the Fleet tab's: the LoRaWAN regions take the SF beside them.
    linkchoices::addLinkModels(link_, kModelRole);
    link_->setToolTip(tr("The link one round travels on: a link model (frames, time on air, duty cycle, loss, session "
                         "costs, radio power: docs/fleet.md) that answers in airtime, wall time and energy per device, "
                         "and inverts them into a budget"));
    sf_ = new QComboBox(this);
    sf_->setObjectName(QStringLiteral("budgetSf"));
    for (int sf = 7; sf <= 12; ++sf)
        sf_->addItem(tr("SF%1").arg(sf), sf);
    sf_->setToolTip(tr("LoRa spreading factor: SF7 is the fastest, SF12 reaches farthest; it sets the frame's payload "
                       "and time on air (a multicast runs at the slowest SF among its devices)"));
    // The model's sub-band, loss, delivery and target fold out under the link: folded, the
    // column keeps every budget and sweep control in view at 1366x768, and the round's readout
    // says what they are.
    details_ = new QToolButton(this);
    details_->setObjectName(QStringLiteral("budgetLinkDetails"));
    details_->setCheckable(true);
    details_->setArrowType(Qt::RightArrow);
    details_->setToolTip(tr("Sub-band, frame loss, delivery and the completion target of the link model"));
    connect(details_, &QToolButton::toggled, this, [this](bool open) {
        details_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        updateEnabled();
    });
    auto* row = new QHBoxLayout;
    row->addWidget(link_, 1);
    row->addWidget(sf_);
    row->addWidget(details_);
    form->addRow(tr("Link"), row);
    link_->setCurrentIndex(0);
}

void BudgetInputs::addLinkDetailRows(QFormLayout* form)
{
    duty_ = linkchoices::dutyCycleBox(this, QStringLiteral("budgetDutyCycle"));
    form->addRow(tr("Sub-band"), duty_);
    loss_ = linkchoices::frameLossBox(this, QStringLiteral("budgetLoss"));
    delivery_ = linkchoices::deliveryBox(this, QStringLiteral("budgetDelivery"));
    auto* lossRow = new QHBoxLayout;
    lossRow->addWidget(loss_);
    lossRow->addWidget(delivery_, 1);
    form->addRow(tr("Loss"), lossRow);
    lossRow_ = lossRow;
    target_ = new QDoubleSpinBox(this);
    target_->setObjectName(QStringLiteral("budgetTarget"));
    target_->setRange(50, 99.9999);
    target_->setDecimals(4);
    target_->setValue(99);
    target_->setSuffix(QStringLiteral(" %"));
    target_->setToolTip(tr("The probability that a round completes despite the frame loss: redundant fragments (or "
                           "retransmissions) are added until it is reached"));
    targetScope_ = new QComboBox(this);
    targetScope_->setObjectName(QStringLiteral("budgetTargetScope"));
    targetScope_->addItem(tr("per device"), false);
    targetScope_->addItem(tr("every device"), true);
    targetScope_->setToolTip(tr("Per device: each device completes with this probability. Every device: all of them "
                                "do (each then needs the probability's N-th root)"));
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(target_);
    targetRow->addWidget(targetScope_, 1);
    form->addRow(tr("Target"), targetRow);
    targetRow_ = targetRow;
}

void BudgetInputs::addBudgetRows(QFormLayout* form)
{
    byBytes_ = new QRadioButton(tr("Fi&xed bytes"), this);
    byBytes_->setObjectName(QStringLiteral("budgetByBytes"));
    byBytes_->setChecked(true);
    bytes_ = new QDoubleSpinBox(this);
    bytes_->setObjectName(QStringLiteral("budgetBytes"));
    bytes_->setRange(1, 1e12);
    bytes_->setDecimals(0);
    bytes_->setGroupSeparatorShown(true);
    bytes_->setSuffix(QStringLiteral(" B"));
    bytes_->setValue(40000);
    bytes_->setToolTip(tr("Bytes one round may send to one device"));
    form->addRow(byBytes_, bytes_);
    // No new Alt letters: the window's are all taken (test_ui_use); "T&ime" keeps the letter
    // the former "L&ink for" had, and the arrow keys move between the three choices.
    byWindow_ = new QRadioButton(tr("T&ime window"), this);
    byWindow_->setObjectName(QStringLiteral("budgetByLink"));
    window_ = new QDoubleSpinBox(this);
    window_->setObjectName(QStringLiteral("budgetWindow"));
    window_->setRange(0.001, 1e7);
    window_->setDecimals(3);
    window_->setValue(60);
    window_->setSuffix(QStringLiteral(" s"));
    window_->setToolTip(tr("Seconds within which one round must reach the devices: the budget is the largest bundle "
                           "whose wall time on the link (duty cycle and session set-up included) fits"));
    form->addRow(byWindow_, window_);
    marks_->addRow(QStringLiteral("budgetWindow"), {window_});
    byEnergy_ = new QRadioButton(tr("Energy"), this);
    byEnergy_->setObjectName(QStringLiteral("budgetByEnergy"));
    energy_ = new QDoubleSpinBox(this);
    energy_->setObjectName(QStringLiteral("budgetEnergy"));
    energy_->setRange(0.0001, 1e9);
    energy_->setDecimals(4);
    energy_->setValue(1);
    energy_->setSuffix(QStringLiteral(" J per device"));
    energy_->setToolTip(tr("Joules one device may spend on one round (receiving or listening, plus the session's fixed "
                           "cost): the largest bundle within it, on a link model"));
    form->addRow(byEnergy_, energy_);
    marks_->addRow(QStringLiteral("budgetEnergy"), {energy_});
    auto* group = new QButtonGroup(this);
    for (QRadioButton* b : {byBytes_, byWindow_, byEnergy_})
        group->addButton(b);
}

QString BudgetInputs::linkKey() const
{
    return link_->currentData(kModelRole).toString();
}

void BudgetInputs::updateEnabled()
{
    // The link always answers (airtime, wall time, energy); the budget's own field follows the choice.
    const QString key = linkKey();
    sf_->setVisible(isRegion(key));
    // The link model's rows, unfolded.
    const bool open = details_->isChecked();
    form_->setRowVisible(duty_, open && linkchoices::hasSubBands(key));
    form_->setRowVisible(lossRow_, open);
    form_->setRowVisible(targetRow_, open);
    bytes_->setEnabled(byBytes_->isChecked());
    window_->setEnabled(byWindow_->isChecked());
    energy_->setEnabled(byEnergy_->isChecked());
}

BudgetInputs::Kind BudgetInputs::kind() const
{
    return byBytes_->isChecked() ? Kind::Bytes : byWindow_->isChecked() ? Kind::Window : Kind::Energy;
}

int BudgetInputs::devices() const
{
    return devices_->value();
}

std::optional<dpu::DeploymentLink> BudgetInputs::linkSettings() const
{
    const std::optional<dpu::Deployment> fleet = deployment();
    if (!fleet)
        return std::nullopt;
    return fleet->link;
}

dpu::Link BudgetInputs::answeringLink(const dpu::DeploymentLink& settings)
{
    return dpu::slowestLinkOf(settings);
}

void BudgetInputs::showLinkDetails(bool show)
{
    details_->setChecked(show);
}

dpu::RoundTarget BudgetInputs::roundTarget() const
{
    return {target_->value() / 100.0, targetScope_->currentData().toBool()};
}

void BudgetInputs::recompute()
{
    bits_ = 0;
    error_.clear();
    QWidget* field = kind() == Kind::Window ? static_cast<QWidget*>(window_) : energy_;
    const std::optional<dpu::DeploymentLink> model = linkSettings();
    try {
        if (kind() == Kind::Bytes) {
            bits_ = bytes_->value() * 8.0;
        } else if (!model) { // every item is a link model: only an empty list leaves none
            error_ = tr("expected a link (LoRaWAN, NB-IoT, LTE-M or BLE SMP), found none");
        } else {
            // The inversion is core's, as dpu-cli budget --link MODEL --window S / --energy J does it.
            const dpu::Link link = answeringLink(*model);
            const int n = devices();
            const bool window = kind() == Kind::Window;
            const dpu::RoundTarget target = roundTarget();
            const int64_t bytes = window ? dpu::largestBytesForWallTime(link, window_->value(), n, target)
                                         : dpu::largestBytesForEnergy(link, energy_->value(), n, target);
            bits_ = 8.0 * static_cast<double>(bytes);
            if (bytes <= 0) {
                const dpu::LinkRound one = dpu::linkRound(link, 1, n, target);
                error_ = window ? tr("expected at least %1 (a round of one byte to %L2 device(s) on %3, its session's fixed time "
                                     "and duty cycle included), found %4: not even one byte fits")
                                      .arg(linkDurationText(one.wallTime)).arg(n).arg(QString::fromStdString(link.name),
                                                                                        linkDurationText(window_->value()))
                                : tr("expected at least %1 per device (a round of one byte on %2, its session's fixed energy "
                                     "included), found %3: not even one byte fits")
                                      .arg(linkEnergyText(one.energyPerDevice), QString::fromStdString(link.name),
                                           linkEnergyText(energy_->value()));
            }
        }
    } catch (const std::exception& e) { // a link the model refuses: said at the field, never a crash
        bits_ = 0;
        error_ = QString::fromStdString(e.what());
    }
    if (!error_.isEmpty()) // the message names its field wherever it is read
        error_ = (kind() == Kind::Window ? tr("Time window: %1") : tr("Energy: %1")).arg(error_);
    marks_->mark(error_.isEmpty() ? QList<QPair<QWidget*, QString>>{} : QList<QPair<QWidget*, QString>>{{field, error_}});
    Q_EMIT changed();
}

void BudgetInputs::setBudgetBytes(double bytes)
{
    byBytes_->setChecked(true);
    bytes_->setValue(bytes);
}

bool BudgetInputs::setLinkModel(const QString& key, int spreadingFactor)
{
    // An older key ("lora") chooses the preset it stands for.
    const int index = link_->findData(QString::fromStdString(dpu::resolveLinkKey(key.toStdString())), kModelRole);
    if (key.isEmpty() || index < 0)
        return false;
    const int sf = sf_->findData(spreadingFactor);
    if (sf >= 0)
        sf_->setCurrentIndex(sf);
    link_->setCurrentIndex(index);
    return true;
}

void BudgetInputs::setWindowBudget(double seconds)
{
    byWindow_->setChecked(true);
    window_->setValue(seconds);
}

void BudgetInputs::setEnergyBudget(double joules)
{
    byEnergy_->setChecked(true);
    energy_->setValue(joules);
}

void BudgetInputs::setDevices(int devices)
{
    devices_->setValue(devices);
}

} // namespace dpu::ui
