// SPDX-License-Identifier: MIT
// A logarithmic byte axis labelled "1 KB", "10 KB", "1 MB" instead of "1e+04".
#pragma once
#include <QObject>
#include <QString>

class QCategoryAxis;
class QChart;
class QLogValueAxis;

namespace dpu::ui {

/// QLogValueAxis can only printf its labels. This keeps it for the series and the grid (labels
/// hidden) and lays a category axis under it, on the same log10 scale, that carries the decade
/// labels with units; the series keep their values in bytes.
class ByteAxis : public QObject {
    Q_OBJECT
public:
    ByteAxis(const QString& title, QObject* parent = nullptr);

    /// The axis series attach to; add it to the chart before labelAxis().
    QLogValueAxis* logAxis() const { return log_; }
    /// The axis with the unit labels; add it to the chart at the bottom, after logAxis().
    QCategoryAxis* labelAxis() const { return labels_; }
    /// Both axes to [lo, hi] bytes, widened to whole decades.
    void setRange(double lo, double hi);
    /// The decade labels shown, left to right.
    QStringList labels() const;
    /// "1 B", "100 B", "1 KB", "10 KB", "1 MB", "1 GB" for powers of ten of bytes.
    static QString label(double bytes);

private:
    QLogValueAxis* log_;
    QCategoryAxis* labels_;
};

} // namespace dpu::ui
