// SPDX-License-Identifier: MIT
// The budget planner's inputs: a link (a link model, with its SF for a LoRaWAN region), the budget as bytes, a time window or an energy, and the devices.
#pragma once
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "panels/FieldErrorMarks.h"
#include <QGroupBox>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLayout;
class QRadioButton;
class QSettings;
class QSpinBox;
class QToolButton;

namespace dpu::ui {

class BudgetInputs : public QGroupBox {
    Q_OBJECT
public:
    /// What the budget is stated in: bytes, a time window on the link, or joules per device.
    enum class Kind { Bytes, Window, Energy };

    explicit BudgetInputs(QWidget* parent = nullptr);

    /// Bits one round may send to one device: bytes x 8, or 8 x the largest bundle whose wall time
    /// (dpu::largestBytesForWallTime) or energy per device (dpu::largestBytesForEnergy) on the link
    /// model fits. 0 when nothing fits: budgetError() says why.
    double budgetBits() const { return bits_; }
    /// Why the window or energy allows no byte (shown under its field); empty otherwise.
    QString budgetError() const { return error_; }
    Kind kind() const;
    int devices() const;
    /// The link model the list names (region key with its SF or the deployment's mix, or a
    /// preset key of dpu::linkPresetKeysList()) with the EU868 sub-band, frame loss and delivery,
    /// and the rest of the deployment's link (loss spread, device class, leaving) as given to
    /// setDeployment(); nullopt only for a list without links.
    std::optional<dpu::DeploymentLink> linkSettings() const;
    /// The link it answers on: linkOf(linkSettings()) at the slowest SF of a mix (the pace of a
    /// multicast to the whole mix, as the plan form's per-device row). Throws LinkError.
    static dpu::Link answeringLink(const dpu::DeploymentLink& settings);

    /// Shows a plan's deployment (BudgetInputsDeployment.cpp): its link with the SF or mix,
    /// sub-band, loss, delivery and devices; the keys the tab has no row for (loss spread, device
    /// class, ping period, leaving, availability, period) are kept for deployment(). The budget,
    /// window, energy and target stay.
    void setDeployment(const dpu::Deployment& fleet);
    /// The deployment the rows state: the plan's keys given to setDeployment() with this tab's
    /// link, SF or mix, sub-band, loss, delivery and devices. nullopt only for a list without
    /// links; *whyNot then says so.
    std::optional<dpu::Deployment> deployment(QString* whyNot = nullptr) const;
    /// The completion target on a link model: the probability that one device (or every
    /// device) completes its round, as `dpu-cli budget --target P [--every-device]` states it.
    dpu::RoundTarget roundTarget() const;
    /// Unfolds (or folds) the link model's rows: sub-band, loss and delivery, target.
    void showLinkDetails(bool show);

    void setBudgetBytes(double bytes);
    /// Chooses a link model: "lorawan-eu868" or "lorawan-us915" with `spreadingFactor` (7..12),
    /// or a non-LoRaWAN key of dpu::linkPresetKeysList() or an alias of one (dpu::resolveLinkKey():
    /// "nb-iot", "ble"). Returns false (and changes nothing)
    /// for a key the list lacks. The kind of budget stays as it is.
    bool setLinkModel(const QString& key, int spreadingFactor = 7);
    /// The budget as a time window (s per round) on the chosen link.
    void setWindowBudget(double seconds);
    /// The budget as an energy per device and round (J) on the chosen link model.
    void setEnergyBudget(double joules);
    void setDevices(int devices);

    /// Under "budget/" in the settings; missing keys keep the defaults.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

Q_SIGNALS:
    void changed();

private:
    static constexpr int kModelRole = Qt::UserRole + 1; ///< the link model key (linkchoices::addLinkModels())
    static constexpr int kMixRole = Qt::UserRole + 2;   ///< the SF list's mix entry: its text

    void addLinkRow(QFormLayout* form);
    /// Sub-band, loss and delivery, and the target: rows shown for a link model only.
    void addLinkDetailRows(QFormLayout* form);
    void addBudgetRows(QFormLayout* form);
    void updateEnabled();
    /// Turns the inputs into bits (inverting the link model's round) and marks a field that allows none.
    void recompute();
    QString linkKey() const;
    /// Puts the SF list's mix entry (data 0, first) for `mix`, or takes it away for "".
    void showMix(const std::string& mix);

    QRadioButton* byBytes_;
    QRadioButton* byWindow_;
    QRadioButton* byEnergy_;
    QDoubleSpinBox* bytes_;
    QComboBox* link_;
    QComboBox* sf_;
    QToolButton* details_;
    QComboBox* duty_;
    QDoubleSpinBox* loss_;
    QComboBox* delivery_;
    QDoubleSpinBox* target_;
    QComboBox* targetScope_;
    QFormLayout* form_ = nullptr;
    QLayout* lossRow_ = nullptr;   ///< loss and delivery
    QLayout* targetRow_ = nullptr; ///< the target and its scope
    QDoubleSpinBox* window_;
    QDoubleSpinBox* energy_;
    QSpinBox* devices_;
    std::optional<FieldErrorMarks> marks_;
    dpu::Deployment deployment_; ///< the plan's keys as setDeployment() gave them
    double bits_ = 0;
    QString error_;
};

} // namespace dpu::ui
