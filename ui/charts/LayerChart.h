// SPDX-License-Identifier: MIT
// Updated weights per layer for one round (bar chart, as in the paper's appendix figures).
#pragma once
#include "dpu/Events.h"
#include <QChartView>

class QBarCategoryAxis;
class QBarSeries;
class QValueAxis;

namespace dpu::ui {

class LayerChart : public QChartView {
    Q_OBJECT
public:
    explicit LayerChart(QWidget* parent = nullptr);
    /// Shows the per-tensor share of updated weights of a round. On a hidden tab of a shown
    /// window the drawing waits until the tab is shown (or barCount() or an export asks).
    void showRecord(const dpu::RoundRecord& record);
    void clearRecord();
    /// Bars drawn (one per partial tensor of the shown round).
    int barCount() const;
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportSvg(const QString& path, QString* error = nullptr);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void draw(const dpu::RoundRecord& record) const;
    void flush() const;

    mutable dpu::RoundRecord pending_;
    mutable bool hasPending_ = false;
    QBarSeries* series_;
    QBarCategoryAxis* x_;
    QValueAxis* y_;
};

} // namespace dpu::ui
