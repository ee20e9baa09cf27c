// SPDX-License-Identifier: MIT
// Test accuracy of the deployed model per round, one series per strategy (and seed/run).
#pragma once
#include "charts/ChartView.h"
#include "dpu/Events.h"

class QValueAxis;

namespace dpu::ui {

class AccuracyChart : public ChartView {
    Q_OBJECT
public:
    explicit AccuracyChart(QWidget* parent = nullptr);
    /// seedBand: the key collects several seeds, drawn as their mean with a +-std band.
    void addRecord(const QString& key, const dpu::RoundRecord& record, bool seedBand = false);

protected:
    void fitAxes(const QRectF& bounds) override;
    QString describePoint(const QString& key, const QPointF& point) const override;

private:
    QValueAxis* x_;
    QValueAxis* y_;
};

} // namespace dpu::ui
