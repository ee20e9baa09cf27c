// SPDX-License-Identifier: MIT
// Mean over seeds with a +-std band: the mean line, an upper and a lower line and the area between.
#pragma once
#include <QPointF>
#include <QString>
#include <cstdint>
#include <map>

class QAreaSeries;
class QChart;
class QColor;
class QLineSeries;

namespace dpu::ui {

/// Keeps every seed's point per index (round) and rewrites the mean, upper and lower series at
/// that index only; every index gets a point (no down-sampling). The series belong to the chart.
class SeedBand {
public:
    /// `mean` is already in the chart; the band is added behind it, attached to the same axes.
    SeedBand(QChart* chart, QLineSeries* mean, const QColor& color);

    struct Stats {
        QPointF mean;   ///< mean x and mean y over the seeds so far
        double std = 0; ///< population standard deviation of y (numpy's default, ddof = 0)
        int seeds = 0;
    };
    /// Adds (or replaces) one seed's point at an index and updates the three series there.
    Stats add(int index, uint64_t seed, const QPointF& point);
    /// Stats at the index whose mean point is `meanPoint` (seeds = 0 when none is).
    Stats statsAt(const QPointF& meanPoint) const;

    QLineSeries* upper() const { return upper_; }
    QLineSeries* lower() const { return lower_; }
    QAreaSeries* area() const { return area_; }
    void setVisible(bool visible);
    /// The band in the (translucent) colour of its mean line.
    void setColor(const QColor& color);

private:
    Stats stats(const std::map<uint64_t, QPointF>& seeds) const;

    QLineSeries* mean_;
    QLineSeries* upper_;
    QLineSeries* lower_;
    QAreaSeries* area_;
    std::map<int, std::map<uint64_t, QPointF>> values_; // index -> seed -> point
};

} // namespace dpu::ui
