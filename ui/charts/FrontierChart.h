// SPDX-License-Identifier: MIT
// The budget planner's chart: mean accuracy against real bundle bytes per round, one line per family across k.
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
    /// The byte axis (decade labels and title follow the plot's width).
    ByteAxis* byteAxis() const { return bytesAxis_; }
    explicit FrontierChart(QWidget* parent = nullptr);

    /// Redraws everything: one series per family (keyed by its label, "dpu q8") through its
    /// points in order of k at (real bytes of a deployed round, accuracy in %), in its
    /// strategy's colour with its value coding's line style and marker; a vertical line at the
    /// budget (bytes per round; none when <= 0) and the recommended points (x: bytes, y: %).
    void setFrontier(const std::vector<FrontierPoint>& points, double budgetBytes, const QList<QPointF>& expected);
    /// Name of the budget line's series.
    static QString budgetKey();
    QScatterSeries* expectedSeries() const { return expected_; }

    /// The value coding of a point ("fp32" when its family names none).
    static QString codingOf(const FrontierPoint& point);
    /// How a coding's line is drawn: fp32 solid, fp16 dashed, q8 dotted, q4 dash-dot, ternary
    /// dash-dot-dot; any other coding dashed.
    static Qt::PenStyle codingStyle(const QString& coding);

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
