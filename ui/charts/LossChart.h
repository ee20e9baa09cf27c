// SPDX-License-Identifier: MIT
// Training loss per epoch, epochs numbered consecutively over the rounds of each strategy.
#pragma once
#include "charts/ChartView.h"
#include "dpu/Events.h"
#include <QHash>

class QValueAxis;

namespace dpu::ui {

class LossChart : public ChartView {
    Q_OBJECT
public:
    explicit LossChart(QWidget* parent = nullptr);
    void addEpoch(const QString& key, const dpu::EpochEvent& epoch);
    void clearAll();

protected:
    void fitAxes(const QRectF& bounds) override;
    QString describePoint(const QString& key, const QPointF& point) const override;

private:
    QValueAxis* x_;
    QValueAxis* y_;
    // Which round and phase each plotted epoch belongs to, for the hover read-out.
    QHash<QString, QList<dpu::EpochEvent>> epochs_;
};

} // namespace dpu::ui
