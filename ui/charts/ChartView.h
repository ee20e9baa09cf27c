// SPDX-License-Identifier: MIT
// Base of the live charts: one line series per key, legend toggles, hover read-outs, export.
#pragma once
#include <QChartView>
#include <QHash>
#include <QPointF>
#include <QString>
#include <QStringList>
#include "dpu/Plan.h"
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

class QAbstractAxis;
class QAreaSeries;
class QLineSeries;

namespace dpu::ui {

class SeedBand;

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(const QString& title, QWidget* parent = nullptr);
    ~ChartView() override;

    /// Removes every series (a new batch of runs starts).
    void clearSeries();
    /// What every series on the chart shares, after the title ("fashion-mlp-k0.05 · q4"): an
    /// exported picture then names its run and coding. Empty: the title alone.
    void setContext(const QString& context);
    /// The context of charts showing runs of `plans` (the window's and the report's): the plan's
    /// name of a run alone, and the coding when every run has the same one; empty for none.
    static QString sharedContext(const std::vector<dpu::Plan>& plans);
    QString title() const;
    QStringList seriesKeys() const { return order_; }
    /// Points in the series of key (0 when there is none).
    int pointCount(const QString& key) const;
    QLineSeries* series(const QString& key) const { return series_.value(key); }
    /// The +-std band of a key drawn as a mean over seeds (nullptr for a plain line): its upper
    /// and lower boundaries and the area between them.
    QLineSeries* upperSeries(const QString& key) const;
    QLineSeries* lowerSeries(const QString& key) const;
    QAreaSeries* bandSeries(const QString& key) const;
    /// Shows or hides a series (and its band), as clicking its legend marker does.
    void setSeriesVisible(const QString& key, bool visible);
    /// Draws the key's line solid, dashed or dotted (runs side by side: one style per run, the
    /// colour staying its strategy's). No effect before the key has a series.
    void setSeriesDash(const QString& key, Qt::PenStyle style);

    /// Writes the chart with its axes, labels and legend (scale: device pixels per point).
    bool exportPng(const QString& path, QString* error = nullptr, qreal scale = 2.0);
    bool exportSvg(const QString& path, QString* error = nullptr);
    /// Asks for a file name and exports; reports failures in a message box.
    void exportWithDialog(bool svg);

    /// The fixed colour of the key's strategy (SeriesPalette): "dpu" is one colour everywhere,
    /// run after run.
    static QColor colorFor(const QString& key);

protected:
    /// Appends a point to the key's series (created on first use) and refits the axes.
    void addPoint(const QString& key, const QPointF& point);
    /// Adds one seed's point at an index (a round) to the key's mean +- std band: the key's
    /// series becomes the mean over the seeds so far, rewritten at that index.
    void addBandPoint(const QString& key, int index, uint64_t seed, const QPointF& point);
    void setAxes(QAbstractAxis* x, QAbstractAxis* y);
    /// Fits the axes to the data bounds (called after every point).
    virtual void fitAxes(const QRectF& bounds) = 0;
    /// Text of the hover read-out for a data point.
    virtual QString describePoint(const QString& key, const QPointF& point) const = 0;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    /// Places the legend for the view's width (LegendFit): after series come or go.
    void fitLegend();
    /// Fits the axes now if points arrived while the chart was hidden.
    void refitIfStale();
    /// Fits the axes to the points again, e.g. after a setting of the subclass that changes the
    /// axes' span; false (nothing done) when there is no point yet.
    bool refit();
    /// The key's series, created (with its colour, legend toggle and hover) on first use.
    QLineSeries* ensureSeries(const QString& key);
    QAbstractAxis* axisX() const { return x_; }
    QAbstractAxis* axisY() const { return y_; }

private:
    void onHovered(QLineSeries* series, const QPointF& point, bool state);
    void extendBounds(const QPointF& point);
    /// Colours every series by its strategy, with shades for several keys of one strategy.
    void recolor();

    QAbstractAxis* x_ = nullptr;
    QAbstractAxis* y_ = nullptr;
    QString baseTitle_;
    QHash<QString, QLineSeries*> series_;
    std::map<QString, std::unique_ptr<SeedBand>> bands_;
    QStringList order_;
    QRectF bounds_;
    bool hasBounds_ = false;
    bool axesStale_ = false; // points arrived while hidden; refit when shown
};

} // namespace dpu::ui
