// SPDX-License-Identifier: MIT
// The fleet's mean accuracy over time (days) per strategy and run, beside the server's (dashed).
#pragma once
#include "charts/ChartView.h"
#include "dpu/Fleet.h"

class QValueAxis;

namespace dpu::ui {

class FleetAccuracyChart : public ChartView {
    Q_OBJECT
public:
    explicit FleetAccuracyChart(QWidget* parent = nullptr);

    /// The name of the server's series beside the fleet's series `key` ("server · dpu").
    static QString serverKey(const QString& key);
    /// Draws one strategy's simulation: the fleet's mean accuracy after each round (at the
    /// round's end, `period` seconds after its start) as series `key`, and the server's (the
    /// latest version's, from its release at the round's start) as serverKey(key), dashed.
    /// Days count from the first simulated round's start.
    void addResult(const QString& key, const dpu::FleetResult& result, double periodSeconds);

protected:
    void fitAxes(const QRectF& bounds) override;
    QString describePoint(const QString& key, const QPointF& point) const override;

private:
    QValueAxis* x_;
    QValueAxis* y_;
};

} // namespace dpu::ui
