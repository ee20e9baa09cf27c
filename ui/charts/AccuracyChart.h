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
    /// Widens the round axis to at least 1..rounds (a run's plan), so early rounds are not
    /// stretched over the whole width; 0 lets the axis follow the data alone.
    void expectRounds(int rounds);
    int expectedRounds() const { return rounds_; }

protected:
    void fitAxes(const QRectF& bounds) override;
    QString describePoint(const QString& key, const QPointF& point) const override;

private:
    QValueAxis* x_;
    QValueAxis* y_;
    int rounds_ = 0;
};

} // namespace dpu::ui
