// SPDX-License-Identifier: MIT
// Budget planner: largest k for a byte budget, total over devices, expected accuracy, frontier, k sweep.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "models/FrontierModel.h"
#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;

namespace dpu::ui {

class BudgetInputs;
class FrontierChart;

class BudgetPanel : public QWidget {
    Q_OBJECT
public:
    explicit BudgetPanel(QWidget* parent = nullptr);

    /// Model sizes of the plan on the form (what one round costs at a k).
    void setCostModel(const dpu::CostModel& model);
    /// Only finished runs of this model and dataset kind feed the frontier (they share its cost).
    void setRunFilter(const QString& model, const QString& datasetKind);

    /// Budget as bytes per round per device.
    void setBudgetBytes(double bytes);
    /// Budget as what a link preset (CostReadout::linkPresets() index) moves in a time window.
    void setLinkBudget(int presetIndex, double windowSeconds, double customKbps = 100);
    void setDevices(int devices);

    double budgetBits() const;
    /// The answer: largest k that fits (0: not even the dense weights fit, or no model).
    double largestK() const { return k_; }
    /// Analytic bytes of one round at largestK() for one device, and for all devices.
    double bytesPerDevice() const { return bytesPerDevice_; }
    double totalBytes() const { return bytesPerDevice_ * devices(); }
    int devices() const;
    /// The accuracy finished runs of a strategy suggest at largestK().
    Expectation expectation(const QString& strategy) const;

    /// The sweep's ratios; empty with *error set when the list does not parse or a ratio is
    /// outside (0, 1].
    QList<double> sweepRatios(QString* error = nullptr) const;
    void setSweepRatios(const QString& text);

    /// The inputs (budget, link, window, devices, sweep ratios) under "budget/" in the settings.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

    // Events of the run queue (the frontier keeps finished runs across batches).
    void runQueued(int runId, const dpu::Plan& plan);
    void roundDone(int runId, const dpu::RoundRecord& record);
    void runEnded(int runId, bool finished);
    const FrontierModel& frontier() const { return frontier_; }
    FrontierChart* chart() const { return chart_; }

public Q_SLOTS:
    /// Recomputes the answer and redraws the chart.
    void refresh();
    /// Validates the ratios and emits sweepRequested().
    void requestSweep();

Q_SIGNALS:
    /// Queue one run per ratio, the plan otherwise unchanged.
    void sweepRequested(const QList<double>& ratios);
    /// Put this k into the plan.
    void useKRequested(double k);

private:
    QWidget* buildControls();
    QString expectationText(const std::vector<FrontierPoint>& points) const;

    dpu::CostModel model_;
    QString modelFilter_;
    QString kindFilter_;
    FrontierModel frontier_;
    double k_ = 0;
    double bytesPerDevice_ = 0;

    BudgetInputs* inputs_;
    QLabel* kLabel_;
    QLabel* perDevice_;
    QLabel* total_;
    QLabel* accuracy_;
    QPushButton* useK_;
    QLineEdit* ratios_;
    QLabel* ratiosError_;
    QPushButton* sweep_;
    FrontierChart* chart_;
};

} // namespace dpu::ui
