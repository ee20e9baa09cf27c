// SPDX-License-Identifier: MIT
// PlanCostRows: k with its logarithmic slider, the cost readout under it, and the Deployment… button on the readout's link row.
#include "panels/PlanCostRows.h"
#include "dpu/DeploymentModel.h"
#include "panels/CostReadout.h"
#include "panels/FieldEnabling.h"
#include "panels/FieldErrorMarks.h"
#include "panels/RatioSpinBox.h"
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace dpu::ui {
namespace {
constexpr double kMinSliderK = 0.0005;
constexpr int kSliderSteps = 1000;
} // namespace

PlanCostRows::PlanCostRows(QFormLayout* form, FieldErrorMarks& marks, QObject* parent) : QObject(parent)
{
    QWidget* box = form->parentWidget();
    k_ = new RatioSpinBox(box); // reads 1e-7, keeps -0.5 for validation to mark
    k_->setObjectName(QStringLiteral("k"));
    k_->setToolTip(tr("Updating ratio k: the share of the partial weights a round may change (0 < k ≤ 1)"));
    kSlider_ = new QSlider(Qt::Horizontal, box);
    kSlider_->setObjectName(QStringLiteral("kSlider"));
    kSlider_->setRange(0, sliderPosForK(1.0));
    kSlider_->setToolTip(tr("Logarithmic: 0.0005 … 1"));
    kSlider_->setMinimumWidth(60);
    auto* kRow = new QHBoxLayout;
    kRow->addWidget(k_);
    kRow->addWidget(kSlider_, 1);
    auto* kLabel = new QLabel(tr("Updating ratio &k"), box);
    kLabel->setBuddy(k_);
    form->addRow(kLabel, kRow);
    marks.addRow(QStringLiteral("k"), {k_});
    cost_ = new CostReadout(box);
    form->addRow(QString(), cost_);
    // The deployment the plan is for (its fleet keys), beside the link: no room for rows of its
    // own in a form that must fit 1366x768.
    fleet_ = new QToolButton(box);
    fleet_->setText(tr("Deployment…"));
    fleet_->setObjectName(QStringLiteral("planFleet"));
    cost_->addToLinkRow(fleet_);
    connect(fleet_, &QToolButton::clicked, this, &PlanCostRows::fleetClicked);
    connect(k_, &QDoubleSpinBox::valueChanged, this, [this](double k) {
        onKSpinChanged(k);
        Q_EMIT kChanged(k_);
    });
    connect(kSlider_, &QSlider::valueChanged, this, &PlanCostRows::onKSliderMoved);
}

double PlanCostRows::k() const
{
    return k_->value();
}

void PlanCostRows::setK(double k)
{
    k_->setValue(k);
}

void PlanCostRows::showPlanK(double k)
{
    k_->setValue(k);
    onKSpinChanged(k);
}

void PlanCostRows::showFleet(const dpu::Deployment& fleet)
{
    QString link = QString::fromStdString(fleet.link.link);
    try {
        link = QString::fromStdString(dpu::linkOf(fleet.link).name);
    } catch (const std::exception&) { // validation names the key; the tooltip shows the key as given
    }
    fleet_->setToolTip(tr("The deployment the plan is for (its fleet keys): %L1 devices on %2, %3 % frame loss, "
                          "%4 % available per round, a round every %5 h. The one place the window edits it: the Fleet "
                          "and Budget tabs, the report and dpu-cli fleet start from it.")
                           .arg(fleet.devices)
                           .arg(link)
                           .arg(fleet.link.frameLoss * 100)
                           .arg(fleet.availability * 100)
                           .arg(fleet.roundPeriodHours));
}

void PlanCostRows::bindRules(FieldEnabling& enabling) const
{
    enabling.add("k", k_);
    enabling.add("k", kSlider_);
}

QHash<QString, QWidget*> PlanCostRows::fields() const
{
    return {{QStringLiteral("k"), k_}};
}

QWidget* PlanCostRows::fleetField() const
{
    return fleet_;
}

void PlanCostRows::onKSpinChanged(double k)
{
    const QSignalBlocker block(kSlider_);
    kSlider_->setValue(sliderPosForK(k));
    cost_->setK(k);
}

void PlanCostRows::onKSliderMoved(int pos)
{
    // The spin box is the source of truth; the slider only proposes a rounded value.
    const double k = kForSliderPos(pos);
    const double rounded = std::round(k * 1e5) / 1e5;
    k_->setValue(std::max(rounded, kMinSliderK));
}

int PlanCostRows::sliderPosForK(double k)
{
    if (!(k > kMinSliderK))
        return 0;
    if (k >= 1)
        return kSliderSteps;
    const double t = (std::log10(k) - std::log10(kMinSliderK)) / -std::log10(kMinSliderK);
    return static_cast<int>(std::lround(t * kSliderSteps));
}

double PlanCostRows::kForSliderPos(int pos)
{
    const double t = static_cast<double>(pos) / kSliderSteps;
    return std::pow(10.0, std::log10(kMinSliderK) * (1.0 - t));
}

} // namespace dpu::ui
