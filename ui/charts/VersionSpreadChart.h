// SPDX-License-Identifier: MIT
// The spread of versions in the fleet over time: the share of devices on each version, stacked.
#pragma once
#include "dpu/Fleet.h"
#include <QChartView>
#include <QString>
#include <QStringList>

class QAreaSeries;
class QValueAxis;

namespace dpu::ui {

class VersionSpreadChart : public QChartView {
    Q_OBJECT
public:
    explicit VersionSpreadChart(QWidget* parent = nullptr);

    /// Shows one strategy's simulation (`key` names it in the title): one area per version,
    /// stacked from version 0 at the bottom, its height the share of the fleet running it after
    /// each round (x: days since the first simulated round, at the round's end).
    void showResult(const QString& key, const dpu::FleetResult& result, const std::vector<dpu::FleetVersion>& versions,
                    double periodSeconds);
    /// Removes every area (no strategy to show).
    void clearResult();

    /// The areas' names, bottom first ("v1 · round 2").
    QStringList versionNames() const;
    /// The area of version `v` (nullptr when there is none).
    QAreaSeries* area(int v) const;

protected:
    /// The legend below while its names fit one row, else a column beside the plot (LegendFit).
    void resizeEvent(QResizeEvent* event) override;

private:
    QValueAxis* x_;
    QValueAxis* y_;
    QList<QAreaSeries*> areas_;
};

} // namespace dpu::ui
