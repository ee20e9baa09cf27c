// SPDX-License-Identifier: MIT
// FleetPanel: the inputs, the fleet's accuracy over time, the spread of versions and the headline table, fed by a FleetWorker.
#include "panels/FleetPanel.h"
#include "charts/FleetAccuracyChart.h"
#include "charts/FleetFigureText.h"
#include "charts/Units.h"
#include "charts/VersionSpreadChart.h"
#include "models/RunBook.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetInputs.h"
#include "panels/PlanDeploymentBar.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace dpu::ui {
namespace {

constexpr int kDelayMs = 150; // coalesces a burst of edits or opened runs into one simulation

} // namespace

FleetPanel::FleetPanel(QWidget* parent) : QWidget(parent)
{
    inputs_ = new FleetInputs(this);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("fleetStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(inputs_);
    leftLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Narrow enough that the results fit a 1366-pixel screen beside the plan form.
    scroll->setFixedWidth(250);
    // Over the results, not in the narrow column: the differences read in a line or two.
    deployment_ = new PlanDeploymentBar(QStringLiteral("fleet"), this);
    connect(deployment_, &PlanDeploymentBar::resetToPlan, this, &FleetPanel::resetToPlan);
    auto* right = new QVBoxLayout;
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(deployment_);
    right->addWidget(buildOutputs(), 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    layout->addLayout(right, 1);
    startWorker();
    connect(inputs_, &FleetInputs::changed, this, [this] {
        deployment_->compare(inputs_->settings());
        schedule();
    });
    connect(spreadChoice_, &QComboBox::currentIndexChanged, this, &FleetPanel::showSpread);
    show(FleetAnswer{});
}

QWidget* FleetPanel::buildOutputs()
{
    accuracy_ = new FleetAccuracyChart(this);
    accuracy_->setObjectName(QStringLiteral("fleetAccuracyChart"));
    accuracy_->setMinimumSize(220, 180);
    spread_ = new VersionSpreadChart(this);
    spread_->setObjectName(QStringLiteral("fleetSpreadChart"));
    spread_->setMinimumSize(220, 180);
    spreadChoice_ = new QComboBox(this);
    spreadChoice_->setObjectName(QStringLiteral("fleetSpreadChoice"));
    spreadChoice_->setToolTip(tr("The strategy whose versions the chart spreads"));
    spreadChoice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto* spreadBox = new QWidget(this);
    auto* spreadLayout = new QVBoxLayout(spreadBox);
    spreadLayout->setContentsMargins(0, 0, 0, 0);
    spreadLayout->addWidget(spreadChoice_);
    spreadLayout->addWidget(spread_, 1);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("fleetTable"));
    setHeaders();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMinimumHeight(90);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(accuracy_);
    charts->addWidget(spreadBox);
    charts->setStretchFactor(0, 3); // the accuracy chart carries a legend of every series
    charts->setStretchFactor(1, 2);
    charts->setSizes({600, 400});
    // What the tab says (no runs yet, why it cannot simulate, how many series) above the table,
    // in sight: below the inputs it was scrolled out of view at 1366x768.
    auto* below = new QWidget(this);
    auto* belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(4, 2, 0, 0);
    belowLayout->addWidget(status_);
    belowLayout->addWidget(table_, 1);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(charts);
    right->addWidget(below);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    return right;
}

void FleetPanel::startWorker()
{
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("dpu-fleet"));
    worker_ = new FleetWorker; // no parent: it lives on the thread
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &FleetWorker::simulated, this, &FleetPanel::onSimulated, Qt::QueuedConnection);
    thread_->start();
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    timer_->setInterval(kDelayMs);
    connect(timer_, &QTimer::timeout, this, &FleetPanel::send);
}

FleetPanel::~FleetPanel()
{
    // A simulation under way stops before its next strategy: closing does not wait for it.
    worker_->cancelBefore(std::numeric_limits<quint64>::max());
    thread_->quit();
    thread_->wait();
}

void FleetPanel::setRunBook(const RunBook* book)
{
    if (book_)
        disconnect(book_, nullptr, this, nullptr);
    book_ = book;
    if (!book_)
        return;
    // A run that ends, comes or goes changes what is simulated; a name change only the labels,
    // but a simulation costs little next to keeping two paths.
    for (auto signal : {&RunBook::runAdded, &RunBook::runEnded, &RunBook::runRemoved})
        connect(book_, signal, this, &FleetPanel::schedule);
    connect(book_, &RunBook::cleared, this, &FleetPanel::schedule);
    connect(book_, &RunBook::namesChanged, this, &FleetPanel::schedule);
    schedule();
}

void FleetPanel::schedule()
{
    waiting_ = true;
    if (busy_)
        worker_->cancelBefore(seq_ + 1); // its answer would be stale: stop at the next strategy
    timer_->start();
}

void FleetPanel::send()
{
    if (busy_)
        return; // onSimulated() sends it when the worker is free: one request at a time
    waiting_ = false;
    FleetRequest request;
    request.id = ++seq_;
    request.settings = inputs_->settings();
    if (book_)
        for (const BookRun& run : book_->runs())
            if (run.versionsFinal())
                request.runs.push_back({run.id, run.folder(), run.plan.seeds.front()});
    busy_ = true;
    FleetWorker* worker = worker_;
    QMetaObject::invokeMethod(worker, [worker, request] { worker->simulate(request); }, Qt::QueuedConnection);
}

void FleetPanel::onSimulated(const dpu::ui::FleetAnswer& answer)
{
    busy_ = false;
    if (waiting_) {
        // The inputs or runs changed meanwhile: this answer is stale; the newer request goes
        // now unless its pause is still running.
        if (!timer_->isActive())
            send();
        return;
    }
    if (!answer.cancelled)
        show(answer);
}

QString FleetPanel::keyOf(const FleetSeries& series) const
{
    const BookRun* run = book_ ? book_->find(series.runId) : nullptr;
    if (!run)
        return QString::fromStdString(series.strategy);
    return book_->seriesKey(series.runId, series.strategy, run->plan.seeds.front(), false);
}

QString FleetPanel::noRunsHint()
{
    return tr("No finished run on screen. Open finished runs (File › Open Run…) or queue one: each strategy "
              "appears here when its run ends.");
}

void FleetPanel::show(const FleetAnswer& answer)
{
    shown_ = answer;
    keys_.clear();
    for (const FleetSeries& s : shown_.series)
        keys_ << keyOf(s);
    accuracy_->clearSeries();
    for (int i = 0; i < keys_.size(); ++i)
        accuracy_->addResult(keys_[i], shown_.series[static_cast<size_t>(i)].result, shown_.roundPeriodSeconds);
    // The spread keeps the series the user chose while it is still there.
    const QString chosen = spreadChoice_->currentText();
    {
        const QSignalBlocker block(spreadChoice_);
        spreadChoice_->clear();
        spreadChoice_->addItems(keys_);
        spreadChoice_->setCurrentIndex(std::max(0, static_cast<int>(keys_.indexOf(chosen))));
    }
    spreadChoice_->setEnabled(!keys_.isEmpty());
    showSpread();
    fillTable();
    if (!answer.error.empty()) {
        status_->setText(tr("<b>The fleet cannot be simulated:</b> %1").arg(QString::fromStdString(answer.error).toHtmlEscaped()));
    } else if (keys_.isEmpty()) {
        status_->setText(noRunsHint());
    } else {
        QString text = tr("%n series on %1 devices, a round every %2.", nullptr, static_cast<int>(keys_.size()))
                           .arg(inputs_->settings().devices)
                           .arg(Units::span(shown_.roundPeriodSeconds));
        text += QLatin1Char(' ') + (inputs_->settings().catchUpSizes == dpu::CatchUpSizing::Real
                                        ? tr("Catch-ups are sized as the real bundles built from the runs' files.")
                                        : tr("Catch-up bundles are estimated as the cheaper of the missed bundles and the full model."));
        text += QStringLiteral("<br>") + QString::fromStdString(dpu::fleetFiguresText(shown_.roundPeriodSeconds)).toHtmlEscaped();
        for (const std::string& note : shown_.notes)
            text += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped();
        status_->setText(text);
    }
    Q_EMIT updated();
}

void FleetPanel::setHeaders()
{
    // Long names on two lines: the columns stay narrow enough for the tab at 1366x768.
    const QString cadence = tr("(one round every %1)").arg(QString::fromStdString(dpu::cadenceText(shown_.roundPeriodSeconds)));
    table_->setHorizontalHeaderLabels({tr("Series"), tr("Versions"), tr("Last version\nto 90 %"), tr("Initial\ndeployment"),
                                       tr("Bytes per\nupdate round"), tr("Airtime per\nupdate round"), tr("Energy per\nupdate round"),
                                       tr("Energy per year\n%1").arg(cadence), tr("Battery per year\n%1").arg(cadence),
                                       tr("Catch-up after\nthe last release"), tr("Fleet\naccuracy"), tr("Server\naccuracy")});
    table_->horizontalHeaderItem(CatchUp)->setToolTip(
        tr("The rounds to drain after the run's last: their energy and bytes per device, in no other figure"));
}

void FleetPanel::fillTable()
{
    setHeaders();
    table_->setRowCount(static_cast<int>(keys_.size()));
    const auto orDash = [](double v, QString (*unit)(double)) { return std::isnan(v) ? QStringLiteral("–") : unit(v); };
    for (int row = 0; row < keys_.size(); ++row) {
        const dpu::FleetResult& r = shown_.series[static_cast<size_t>(row)].result;
        const dpu::FleetMetrics& m = shown_.series[static_cast<size_t>(row)].metrics;
        const QString rounds = m.catchUpRounds == 1 ? tr("1 round") : tr("%1 rounds").arg(m.catchUpRounds);
        const QString catchUp = m.catchUpRounds == 0                              ? tr("none")
                                : m.catchUpEnergy == 0 && m.catchUpBytes == 0 ? tr("%1: nothing to send").arg(rounds)
                                                                              : tr("%1: %2, %3").arg(rounds, Units::joules(m.catchUpEnergy),
                                                                                                     Units::roundedBytes(m.catchUpBytes));
        const QString cells[ColumnCount] = {keys_[row],
                                            QString::number(r.timeToShare.size()),
                                            Units::span(r.latestTimeToShare[1]),
                                            initialDeploymentText(m),
                                            orDash(m.bytesPerUpdateRound, &Units::roundedBytes),
                                            orDash(m.airtimePerUpdateRound, &Units::span),
                                            orDash(m.energyPerUpdateRound, &Units::joules),
                                            Units::joules(m.energyPerYear),
                                            Units::percent(m.batteryPerYear),
                                            catchUp,
                                            Units::percent(m.meanFleetAccuracy),
                                            Units::percent(m.meanServerAccuracy)};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c != Series)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(row, c, item);
        }
    }
    table_->setToolTip(QString::fromStdString(dpu::fleetFiguresText(shown_.roundPeriodSeconds)) + QLatin1Char(' ')
                       + tr("Last version to 90 %: from its release until 90 % of the fleet run it."));
}

void FleetPanel::showSpread()
{
    const int i = spreadChoice_->currentIndex();
    if (i < 0 || i >= static_cast<int>(shown_.series.size())) {
        spread_->clearResult();
        return;
    }
    const FleetSeries& s = shown_.series[static_cast<size_t>(i)];
    spread_->showResult(keys_[i], s.result, s.versions, shown_.roundPeriodSeconds);
}

ReportFleet FleetPanel::reportFleet() const
{
    ReportFleet fleet;
    if (busy() || !shown_.error.empty())
        return fleet;
    fleet.config = shown_.config;
    for (int i = 0; i < keys_.size(); ++i) {
        const FleetSeries& s = shown_.series[static_cast<size_t>(i)];
        fleet.series.push_back({keys_[i], s.versions, s.result, s.metrics});
    }
    for (const std::string& note : shown_.notes)
        fleet.notes << QString::fromStdString(note);
    // The page describes the fleet it ran on; a variation of the plan's says it is one.
    if (deployment_->differs())
        fleet.notes.prepend(tr("Simulated on a variation of the plan's deployment explored in the Fleet tab: %1.")
                                .arg(deployment_->differences().join(QStringLiteral("; "))));
    return fleet;
}

QString FleetPanel::statusText() const
{
    return status_->text();
}

void FleetPanel::setPlanDeployment(const dpu::Deployment& fleet)
{
    // Another edit of the plan (k, the data, ...) leaves a variation being explored alone.
    if (deployment_->hasPlan() && deploymentcompare::same(fleet, deployment_->plan()))
        return;
    inputs_->setSettings(fleet);
    deployment_->setPlan(fleet, inputs_->settings());
}

void FleetPanel::resetToPlan()
{
    if (!deployment_->hasPlan())
        return;
    const dpu::Deployment plan = deployment_->plan();
    inputs_->setSettings(plan);
    deployment_->setPlan(plan, inputs_->settings());
}

} // namespace dpu::ui
