// SPDX-License-Identifier: MIT
// Test accuracy against cumulative server-to-device bytes (logarithmic), per strategy.
#pragma once
#include "charts/ChartView.h"
#include "dpu/Events.h"

class QLogValueAxis;
class QValueAxis;

namespace dpu::ui {

class ByteAxis;

class BytesChart : public ChartView {
    Q_OBJECT
public:
    explicit BytesChart(QWidget* parent = nullptr);
    /// seedBand: the key collects several seeds, drawn as their mean (bytes and accuracy) with a
    /// +-std band of accuracy.
    void addRecord(const QString& key, const dpu::RoundRecord& record, bool seedBand = false);
    /// A record's x: the cumulative bytes of the update bundles really sent (a q4 run's 10 KB
    /// rounds, not the analytic fp32 figure); the analytic bytes only where a run has no bundles.
    static double sentBytes(const dpu::RoundRecord& record);

protected:
    void fitAxes(const QRectF& bounds) override;
    QString describePoint(const QString& key, const QPointF& point) const override;

public:
    /// The unit labels under the x axis ("1 KB", "10 KB", ...).
    ByteAxis* byteAxis() const { return bytesAxis_; }

private:
    ByteAxis* bytesAxis_;
    QLogValueAxis* x_;
    QValueAxis* y_;
};

} // namespace dpu::ui
