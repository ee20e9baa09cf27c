// SPDX-License-Identifier: MIT
// ResultsPanel: routes round and epoch events to the charts and the table.
#include "panels/ResultsPanel.h"
#include "AtomicFile.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/FrontierChart.h"
#include "charts/LayerChart.h"
#include "charts/LossChart.h"
#include "models/RoundsTableModel.h"
#include "panels/BudgetPanel.h"
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace dpu::ui {

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("resultsTabs"));
    accuracy_ = new AccuracyChart(tabs_);
    bytes_ = new BytesChart(tabs_);
    loss_ = new LossChart(tabs_);
    tabs_->addTab(accuracy_, tr("&Accuracy"));
    tabs_->addTab(bytes_, tr("Accuracy vs &bytes"));
    tabs_->addTab(loss_, tr("&Loss"));
    layers_ = new LayerChart(tabs_);
    tabs_->addTab(layers_, tr("La&yers"));

    rounds_ = new RoundsTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(rounds_);
    proxy_->setSortRole(RoundsTableModel::SortRole); // numbers sort as numbers, not text
    table_ = new QTableView(tabs_);
    table_->setObjectName(QStringLiteral("roundsTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder); // run order until the user clicks a header
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QTableView::customContextMenuRequested, this, &ResultsPanel::showTableMenu);
    auto* copy = new QAction(tr("&Copy rows"), table_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &ResultsPanel::copyRows);
    table_->addAction(copy);
    // The layer chart follows the row selected in the table (the latest round otherwise).
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ResultsPanel::showSelectedLayers);
    tabs_->addTab(table_, tr("R&ounds"));
    budget_ = new BudgetPanel(tabs_);
    tabs_->addTab(budget_, tr("Bud&get"));
    layout->addWidget(tabs_);
}

void ResultsPanel::showBudgetPanel()
{
    tabs_->setCurrentWidget(budget_);
}

void ResultsPanel::clear()
{
    accuracy_->clearSeries();
    accuracy_->expectRounds(0);
    bytes_->clearSeries();
    loss_->clearAll();
    layers_->clearRecord();
    rounds_->clear();
}

void ResultsPanel::addRecord(const QString& run, const QString& seriesKey, const dpu::RoundRecord& record, bool seedBand)
{
    accuracy_->addRecord(seriesKey, record, seedBand);
    bytes_->addRecord(seriesKey, record, seedBand);
    rounds_->append(run, record);
    if (!table_->selectionModel()->currentIndex().isValid())
        layers_->showRecord(record);
}

void ResultsPanel::showSelectedLayers()
{
    const QModelIndex current = table_->selectionModel()->currentIndex();
    if (current.isValid())
        layers_->showRecord(rounds_->record(proxy_->mapToSource(current).row()));
}

void ResultsPanel::addEpoch(const QString& seriesKey, const dpu::EpochEvent& epoch)
{
    loss_->addEpoch(seriesKey, epoch);
}

QChartView* ResultsPanel::currentChart() const
{
    if (tabs_->currentWidget() == budget_)
        return budget_->chart();
    return qobject_cast<QChartView*>(tabs_->currentWidget());
}

void ResultsPanel::copyRows() const
{
    QList<int> rows;
    const QModelIndexList selected = table_->selectionModel()->selectedRows();
    if (selected.isEmpty()) {
        for (int r = 0; r < proxy_->rowCount(); ++r)
            rows << proxy_->mapToSource(proxy_->index(r, 0)).row();
    } else {
        QList<int> viewRows;
        for (const QModelIndex& i : selected)
            viewRows << i.row();
        std::sort(viewRows.begin(), viewRows.end()); // in the order the user sees them
        for (int r : viewRows)
            rows << proxy_->mapToSource(proxy_->index(r, 0)).row();
    }
    QApplication::clipboard()->setText(rounds_->toTsv(rows));
}

bool ResultsPanel::exportTableCsv(const QString& path, QString* error) const
{
    return AtomicFile::write(path, rounds_->toCsv().toUtf8(), error);
}

void ResultsPanel::showTableMenu(const QPoint& pos)
{
    QMenu menu(this);
    menu.addAction(tr("&Copy rows"), this, &ResultsPanel::copyRows);
    menu.addAction(tr("&Export table as CSV…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export table"), QStringLiteral("rounds.csv"),
                                                          tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportTableCsv(path, &error))
            QMessageBox::warning(this, tr("Export table"), error);
    });
    menu.exec(table_->viewport()->mapToGlobal(pos));
}

} // namespace dpu::ui
