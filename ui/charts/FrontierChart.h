// SPDX-License-Identifier: MIT
// The budget planner's chart: mean accuracy against bytes per round of finished runs, per strategy.
#pragma once
#include "charts/ChartView.h"
#include "models/FrontierModel.h"
#include <QList>
#include <vector>

class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace dpu::ui {

class ByteAxis;

class FrontierChart : public ChartView {
    Q_OBJECT
public:
    explicit FrontierChart(QWidget* parent = nullptr);

    /// Redraws everything: one series per strategy through its points in order of bytes, a
    /// vertical line at the budget (bytes per round; none when <= 0) and the expected points
    /// (x: bytes per round at the budget's k, y: accuracy in %).
    void setFrontier(const std::vector<FrontierPoint>& points, double budgetBytes, const QList<QPointF>& expected);
    /// Name of the budget line's series.
    static QString budgetKey();
    QScatterSeries* expectedSeries() const { return expected_; }

protected:
    void fitAxes(const QRectF& bounds) override;
    QString describePoint(const QString& key, const QPointF& point) const override;

private:
    ByteAxis* bytesAxis_;
    QLogValueAxis* x_;
    QValueAxis* y_;
    QScatterSeries* expected_ = nullptr;
    std::vector<FrontierPoint> points_;
};

} // namespace dpu::ui
