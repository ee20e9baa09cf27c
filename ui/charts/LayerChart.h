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
    /// Shows the per-tensor share of updated weights of a round.
    void showRecord(const dpu::RoundRecord& record);
    void clearRecord();
    /// Bars drawn (one per partial tensor of the shown round).
    int barCount() const;
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportSvg(const QString& path, QString* error = nullptr);

private:
    QBarSeries* series_;
    QBarCategoryAxis* x_;
    QValueAxis* y_;
};

} // namespace dpu::ui
