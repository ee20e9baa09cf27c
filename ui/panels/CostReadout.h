// SPDX-License-Identifier: MIT
// Live readout beside k: bytes per round (calibrated or nominal for the plan's coding), ratio to full updating, transfer time per device.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Frontier.h"
#include "dpu/Plan.h"
#include "dpu/RoundEstimate.h"
#include <QList>
#include <QString>
#include <QWidget>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QSettings;
class QDoubleSpinBox;
class QLabel;

namespace dpu::ui {

class CostReadout : public QWidget {
    Q_OBJECT
public:
    /// A link preset: its label and application-layer rate (0 for "Custom").
    struct LinkPreset {
        QString name;
        double bitsPerSecond;
    };
    /// LoRa, NB-IoT, LTE-M, BLE, custom: shared with the budget planner.
    static QList<LinkPreset> linkPresets();

    explicit CostReadout(QWidget* parent = nullptr);

    void setCostModel(const dpu::CostModel& model);
    /// The model sizes of the plan on the form (zero when the model is unknown).
    const dpu::CostModel& costModel() const { return model_; }
    double k() const { return k_; }
    void setK(double k);
    /// The plan on the form: its coding, always-shipped tensors, strategies and budget shape the
    /// estimate (its k is the one setK() gave).
    void setPlan(const dpu::Plan& plan);
    /// The frontier of the finished runs the window knows: a family of the plan's that ran
    /// calibrates the estimate with its real bytes.
    void setFrontierGroups(std::vector<dpu::FrontierGroup> groups);

    /// Bytes of one deployed partial round (dpu::estimateRound: calibrated on finished runs of
    /// the plan's family, else nominal for its coding; the paper's formula for exact fp32).
    double bytesPerRound() const { return estimate_.bytes; }
    const dpu::RoundEstimate& estimate() const { return estimate_; }
    double fullBytesPerRound() const;
    /// Link rate in bit/s of the selected preset (or the custom value).
    double linkBitsPerSecond() const;
    /// Seconds to send one round to one device at the link rate.
    double transferSeconds() const;
    /// Selects a preset by its index in the combo (LoRa, NB-IoT, LTE-M, BLE, custom).
    void setLinkPreset(int index);
    int linkPreset() const;
    /// Appends `widget` (owned by the caller's parent) to the end of the Link row.
    void addToLinkRow(QWidget* widget);
    /// The link choice (preset and custom rate) survives a restart.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);
    QString bytesText() const;

    /// Units::bytes and Units::seconds (charts/Units.h), for the panels' callers.
    static QString formatBytes(double bytes);
    static QString formatSeconds(double seconds);

Q_SIGNALS:
    /// The cost model, k or the link changed.
    void changed();

private:
    void refresh();

    dpu::CostModel model_;
    double k_ = 0.01;
    dpu::Plan plan_;
    std::vector<dpu::FrontierGroup> groups_;
    dpu::RoundEstimate estimate_;
    QLabel* bytes_;
    QLabel* ratio_;
    QLabel* time_;
    QHBoxLayout* linkRow_ = nullptr; ///< the list, the custom rate and what addToLinkRow() adds
    QComboBox* link_;
    QDoubleSpinBox* customKbps_;
};

} // namespace dpu::ui
