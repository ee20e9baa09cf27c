// SPDX-License-Identifier: MIT
// ResultsPanel: routes round and epoch events to the charts and the table.
#include "panels/ResultsPanel.h"
#include "charts/SeriesPalette.h"
#include "AtomicFile.h"
#include "charts/AccuracyChart.h"
#include "charts/FleetAccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/FrontierChart.h"
#include "charts/LayerChart.h"
#include "charts/LossChart.h"
#include "models/RoundsTableModel.h"
#include "models/RunBook.h"
#include "dpu/PlanEnums.h"
#include "panels/BudgetPanel.h"
#include "panels/FleetPanel.h"
#include "panels/FleetPlanPanel.h"
#include "panels/FrozenColumnsTable.h"
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
    table_ = new FrozenColumnsTable(tabs_);
    table_->setObjectName(QStringLiteral("roundsTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder); // run order until the user clicks a header
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    // Which row is which must survive scrolling right through the figures (1366 px wide screens).
    table_->setFrozenColumns(RoundsTableModel::Strategy + 1, RoundsTableModel::Coding + 1);
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
    fleet_ = new FleetPanel(tabs_);
    tabs_->addTab(fleet_, tr("Fleet")); // no Alt letter free: Tools › Fleet Simulation, Ctrl+Shift+F
    fleetPlan_ = new FleetPlanPanel(tabs_);
    tabs_->addTab(fleetPlan_, tr("Fleet plan"));
    layout->addWidget(tabs_);
}

QTableView* ResultsPanel::roundsView() const
{
    return table_;
}

void ResultsPanel::showBudgetPanel()
{
    tabs_->setCurrentWidget(budget_);
}

void ResultsPanel::showFleetPanel()
{
    tabs_->setCurrentWidget(fleet_);
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

void ResultsPanel::setRunBook(const RunBook* book)
{
    if (book_)
        disconnect(book_, nullptr, this, nullptr);
    book_ = book;
    fleet_->setRunBook(book);
    fleetPlan_->setRunBook(book);
    if (!book_)
        return;
    // Runs that come or go can change every run's name ("dpu" becomes "dpu · k=0.05"): redraw
    // all of them, which costs little next to a round; a record or an epoch only adds a point.
    connect(book_, &RunBook::runAdded, this, &ResultsPanel::redraw);
    connect(book_, &RunBook::runRemoved, this, &ResultsPanel::redraw);
    connect(book_, &RunBook::cleared, this, &ResultsPanel::redraw);
    connect(book_, &RunBook::namesChanged, this, &ResultsPanel::redraw);
    connect(book_, &RunBook::recordAdded, this, [this](int id, const dpu::RoundRecord& r) {
        if (const BookRun* run = book_->find(id))
            drawRecord(*run, r);
    });
    connect(book_, &RunBook::epochAdded, this, [this](int id, const dpu::EpochEvent& e) {
        if (const BookRun* run = book_->find(id))
            drawEpoch(*run, e);
    });
    redraw();
}

void ResultsPanel::redraw()
{
    clear();
    // The round axis spans the longest plan on screen, so a run's first rounds do not fill it.
    accuracy_->expectRounds(book_->plannedRounds());
    const QString context = sharedContext();
    for (ChartView* chart : {static_cast<ChartView*>(accuracy_), static_cast<ChartView*>(bytes_), static_cast<ChartView*>(loss_)})
        chart->setContext(context);
    for (const BookRun& run : book_->runs()) {
        for (const dpu::RoundRecord& r : run.records)
            drawRecord(run, r);
        for (const dpu::EpochEvent& e : run.epochs)
            drawEpoch(run, e);
    }
}

QString ResultsPanel::sharedContext() const
{
    std::vector<dpu::Plan> plans;
    for (const BookRun& r : book_->runs())
        plans.push_back(r.plan);
    return ChartView::sharedContext(plans);
}

void ResultsPanel::drawRecord(const BookRun& run, const dpu::RoundRecord& record)
{
    const bool band = run.seedBand();
    const QString key = book_->seriesKey(run.id, record.strategy, record.seed, !band);
    addRecord(run.label, key, record, band, QString::fromStdString(dpu::nameOf(run.plan.bundle.values)));
    const int index = static_cast<int>(std::distance(book_->runs().begin(), std::find_if(book_->runs().begin(), book_->runs().end(),
                                                     [&](const BookRun& r) { return r.id == run.id; })));
    accuracy_->setSeriesDash(key, SeriesPalette::runDash(index));
    bytes_->setSeriesDash(key, SeriesPalette::runDash(index));
}

void ResultsPanel::drawEpoch(const BookRun& run, const dpu::EpochEvent& epoch)
{
    addEpoch(book_->seriesKey(run.id, epoch.strategy, epoch.seed, true), epoch);
}

void ResultsPanel::addRecord(const QString& run, const QString& seriesKey, const dpu::RoundRecord& record, bool seedBand,
                             const QString& coding)
{
    accuracy_->addRecord(seriesKey, record, seedBand);
    bytes_->addRecord(seriesKey, record, seedBand);
    rounds_->append(run, record, coding);
    layers_->offerRecord(seriesKey, record); // its context menu shows any series' latest round
    if (!table_->selectionModel()->currentIndex().isValid())
        layers_->showRecord(record, seriesKey);
}

void ResultsPanel::showSelectedLayers()
{
    const QModelIndex current = table_->selectionModel()->currentIndex();
    if (current.isValid()) {
        const int row = proxy_->mapToSource(current).row();
        const dpu::RoundRecord& r = rounds_->record(row);
        layers_->showRecord(r, tr("run %1 %2").arg(rounds_->run(row), QString::fromStdString(r.strategy)));
    }
}

void ResultsPanel::addEpoch(const QString& seriesKey, const dpu::EpochEvent& epoch)
{
    loss_->addEpoch(seriesKey, epoch);
}

QChartView* ResultsPanel::currentChart() const
{
    if (tabs_->currentWidget() == budget_)
        return budget_->chart();
    if (tabs_->currentWidget() == fleet_)
        return fleet_->accuracyChart();
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
