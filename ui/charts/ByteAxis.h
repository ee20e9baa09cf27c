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
    /// `shortTitle` replaces `title` where the plot is too narrow for it (empty: never).
    explicit ByteAxis(const QString& title, const QString& shortTitle = QString(), QObject* parent = nullptr);

    /// Follows `chart`'s plot area: where the decades are too close for their labels, only
    /// every second (third, ...) decade is labelled, and the short title replaces a title wider
    /// than the plot (Qt elides both to "1 ..." otherwise). The grid keeps every decade.
    void attach(QChart* chart);
    /// Relabels for a plot `plotWidth` pixels wide (what attach() calls; below 50: not laid out,
    /// every decade labelled).
    void fitWidth(qreal plotWidth);

    /// The axis series attach to; add it to the chart before labelAxis().
    QLogValueAxis* logAxis() const { return log_; }
    /// The axis with the unit labels; add it to the chart at the bottom, after logAxis().
    QCategoryAxis* labelAxis() const { return labels_; }
    /// Both axes to [lo, hi] bytes, widened to whole decades.
    void setRange(double lo, double hi);
    /// Every how many decades a label is shown (1: each).
    int labelStep() const { return step_; }
    /// The decade labels shown, left to right.
    QStringList labels() const;
    /// "1 B", "100 B", "1 KB", "10 KB", "1 MB", "1 GB" for powers of ten of bytes.
    static QString label(double bytes);

private:
    void relabel();

    QLogValueAxis* log_;
    QCategoryAxis* labels_;
    QString title_;
    QString shortTitle_;
    int first_ = 3; // decades shown: 10^first_ .. 10^last_
    int last_ = 7;
    int step_ = 1;
};

} // namespace dpu::ui
