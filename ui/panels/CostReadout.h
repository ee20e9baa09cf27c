// SPDX-License-Identifier: MIT
// Live readout beside k: bytes per round (calibrated or nominal for the plan's coding), ratio to full updating, one device's session and energy on the plan's link.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Frontier.h"
#include "dpu/LinkModel.h"
#include "dpu/Models.h"
#include "dpu/Plan.h"
#include "dpu/RoundEstimate.h"
#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;

namespace dpu::ui {

class CostReadout : public QWidget {
    Q_OBJECT
public:
    explicit CostReadout(QWidget* parent = nullptr);

    /// The model on the form (`info.parameters`' shapes; an empty ModelInfo when the model is
    /// unknown): the cost model follows it and the plan's deployed form.
    void setModelInfo(const dpu::ModelInfo& info);
    /// The plan's model as deployed (dpu::deployedCostModel: its nonzeros when sparse, 8-bit
    /// values and its scales when INT8); zero sizes when the model is unknown.
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
    /// One full update of the dense FP32 model: every ratio's reference (the paper's).
    double fullBytesPerRound() const;
    /// One full update of the model as the plan deploys it (dpu::deployedFullRoundBits): what
    /// the devices would otherwise receive; fullBytesPerRound() for a dense FP32 model.
    double deployedFullBytes() const;
    /// Whether the plan's fleet names a link core can build (else the per-device row says why).
    bool hasLink() const { return hasLink_; }
    /// The plan's link (its fleet keys) at the slowest SF of its mix (dpu::slowestLinkOf).
    const dpu::Link& link() const { return link_; }
    /// One round of bytesPerRound() to the plan's devices on link() (dpu::linkRound).
    const dpu::LinkRound& linkRound() const { return round_; }
    /// Seconds of one device's session for one round (duty cycle and fixed costs included);
    /// 0 without a link or bytes.
    double transferSeconds() const { return round_.deviceSeconds; }
    /// The fleet link's key selected in the Link row (the plan's `fleet.link`).
    QString linkKey() const;
    /// Appends `widget` (owned by the caller's parent) to the end of the Link row.
    void addToLinkRow(QWidget* widget);
    QString bytesText() const;

    /// Units::bytes (charts/Units.h), for the panels' callers.
    static QString formatBytes(double bytes);

Q_SIGNALS:
    /// The cost model, k or the plan changed.
    void changed();
    /// The user chose another link in the Link row: the plan's `fleet.link` becomes `key`.
    void linkChosen(const QString& key);

private:
    void refresh();
    /// The per-device row: link_ and round_ from the plan's fleet and the bytes.
    void refreshLink(double bytes);

    std::vector<std::vector<int64_t>> partialShapes_; ///< the model's partial tensors
    int64_t denseWeights_ = 0;
    std::vector<int64_t> biasSizes_; ///< the 1-D parameters an INT8 model may hold as codes
    dpu::CostModel model_;
    double k_ = 0.01;
    dpu::Plan plan_;
    std::vector<dpu::FrontierGroup> groups_;
    dpu::RoundEstimate estimate_;
    QLabel* bytes_;
    QLabel* ratio_;
    QLabel* time_;
    QHBoxLayout* linkRow_ = nullptr; ///< the list and what addToLinkRow() adds
    QComboBox* linkBox_;
    bool hasLink_ = false;
    dpu::Link link_;
    dpu::LinkRound round_;
};

} // namespace dpu::ui
