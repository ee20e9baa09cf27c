// SPDX-License-Identifier: MIT
// Updated weights per layer for one round (bar chart, as in the paper's appendix figures).
#pragma once
#include "dpu/Events.h"
#include <QChartView>
#include <QHash>
#include <QStringList>

class QBarCategoryAxis;
class QBarSeries;
class QValueAxis;

namespace dpu::ui {

class LayerChart : public QChartView {
    Q_OBJECT
public:
    explicit LayerChart(QWidget* parent = nullptr);
    /// Shows the per-tensor share of updated weights of a round. On a hidden tab of a shown
    /// window the drawing waits until the tab is shown (or barCount() or an export asks).
    /// `key` names the record's series ("dpu · k=0.05") in the title; empty: its strategy.
    void showRecord(const dpu::RoundRecord& record, const QString& key = QString());
    /// Takes the round off and forgets every offered series.
    void clearRecord();
    /// Remembers the latest round of a series, which the context menu offers to show.
    void offerRecord(const QString& key, const dpu::RoundRecord& record);
    /// The series offered, in the order they first came.
    QStringList offeredKeys() const { return offeredOrder_; }
    /// Shows the latest round of an offered series; false when there is none.
    bool showKey(const QString& key);
    /// The chart's title: which series and round the bars are of.
    QString title() const;
    /// Bars drawn (one per partial tensor of the shown round).
    int barCount() const;
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportSvg(const QString& path, QString* error = nullptr);

protected:
    void showEvent(QShowEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void draw(const dpu::RoundRecord& record, const QString& key) const;
    void flush() const;

    mutable dpu::RoundRecord pending_;
    mutable bool hasPending_ = false;
    QString pendingKey_;
    QStringList offeredOrder_;
    QHash<QString, dpu::RoundRecord> offered_;
    QBarSeries* series_;
    QBarCategoryAxis* x_;
    QValueAxis* y_;
};

} // namespace dpu::ui
