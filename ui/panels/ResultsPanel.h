// SPDX-License-Identifier: MIT
// Results of the runs on screen: the three live charts and the rounds table, as tabs.
#pragma once
#include "dpu/Events.h"
#include <QWidget>

class QChartView;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace dpu::ui {

class AccuracyChart;
class BudgetPanel;
class BytesChart;
class ChartView;
class FleetPanel;
class FleetPlanPanel;
class FrozenColumnsTable;
class LayerChart;
class LossChart;
class RoundsTableModel;
class RunBook;
struct BookRun;

class ResultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    /// Shows the book's runs and follows it from now on: series named by the book, one line
    /// style per run. The book must outlive the panel's use of it.
    void setRunBook(const RunBook* book);
    void clear();
    /// seedBand: seriesKey names a strategy of a plan with several seeds; the accuracy charts draw
    /// their mean with a +-std band (the table keeps every seed's row).
    /// coding: the run's bundle.values, for the table's Coding column.
    void addRecord(const QString& run, const QString& seriesKey, const dpu::RoundRecord& record, bool seedBand = false,
                   const QString& coding = QStringLiteral("fp32"));
    void addEpoch(const QString& seriesKey, const dpu::EpochEvent& epoch);

    AccuracyChart* accuracyChart() const { return accuracy_; }
    BytesChart* bytesChart() const { return bytes_; }
    LossChart* lossChart() const { return loss_; }
    LayerChart* layerChart() const { return layers_; }
    /// The budget planner's tab; clear() leaves it alone (its frontier spans batches).
    BudgetPanel* budgetPanel() const { return budget_; }
    void showBudgetPanel();
    /// The fleet simulation's tab; it follows the run book setRunBook() gives.
    FleetPanel* fleetPanel() const { return fleet_; }
    void showFleetPanel();
    /// The fleet planner's tab (issue 42): it follows the same run book.
    FleetPlanPanel* fleetPlanPanel() const { return fleetPlan_; }
    RoundsTableModel* roundsModel() const { return rounds_; }
    QSortFilterProxyModel* roundsProxy() const { return proxy_; }
    /// The rounds table; its Run, Round and Strategy columns (Coding too when it fits) stay on
    /// the left while the others scroll (FrozenColumnsTable).
    QTableView* roundsView() const;
    QTabWidget* tabs() const { return tabs_; }
    /// The chart on the current tab (the frontier on the budget tab, the fleet's accuracy on the
    /// fleet tab; nullptr on the table tab).
    QChartView* currentChart() const;

    /// Copies the selected rows (all rows when none is selected) in view order as TSV.
    void copyRows() const;
    bool exportTableCsv(const QString& path, QString* error = nullptr) const;

private:
    /// Draws every run of the book again (runs came or went, or their names changed).
    void redraw();
    /// What the runs on screen share, for the charts' titles.
    QString sharedContext() const;
    void drawRecord(const BookRun& run, const dpu::RoundRecord& record);
    void drawEpoch(const BookRun& run, const dpu::EpochEvent& epoch);
    void showTableMenu(const QPoint& pos);
    void showSelectedLayers();

    QTabWidget* tabs_;
    AccuracyChart* accuracy_;
    BytesChart* bytes_;
    LossChart* loss_;
    LayerChart* layers_;
    BudgetPanel* budget_;
    FleetPanel* fleet_;
    FleetPlanPanel* fleetPlan_;
    RoundsTableModel* rounds_;
    QSortFilterProxyModel* proxy_;
    FrozenColumnsTable* table_;
    const RunBook* book_ = nullptr;
};

} // namespace dpu::ui
