// SPDX-License-Identifier: MIT
// FleetPlanPanel: the targets, Plan and Cancel, progress, the frontier chart, the recommendation in words, Use this configuration, re-plans.
#include "panels/FleetPlanPanel.h"
#include "charts/FleetPlanChart.h"
#include "models/RunBook.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetPlanCells.h"
#include "panels/FleetPlanReplan.h"
#include "panels/FleetPlanTargets.h"
#include "panels/FleetPlanUse.h"
#include "panels/FleetPlanWords.h"
#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QThread>
#include <QVBoxLayout>

namespace dpu::ui {
namespace {

bool sameTargets(const dpu::FleetTargets& a, const dpu::FleetTargets& b)
{
    return a.freshShare == b.freshShare && a.freshDays == b.freshDays && a.accuracyGapPoints == b.accuracyGapPoints
        && a.batteryPerYear == b.batteryPerYear && a.airtimePerDaySeconds == b.airtimePerDaySeconds;
}

} // namespace

FleetPlanPanel::FleetPlanPanel(QWidget* parent)
    : QWidget(parent), targets_(new FleetPlanTargets), plan_(new QPushButton(tr("Plan"))), cancel_(new QPushButton(tr("Cancel"))),
      progress_(new QProgressBar), status_(new QLabel), chart_(new FleetPlanChart), words_(new QLabel),
      use_(new QPushButton(tr("Use this configuration"))), cells_(new FleetPlanCells(this)),
      replan_(new FleetPlanReplan([this] { return FleetPlanReplan::dirsOf(book_); }, this)),
      thread_(new QThread(this)), worker_(new FleetPlanWorker)
{
    // No Alt letter free in the window (test_ui_use): Plan has Ctrl+Return.
    plan_->setToolTip(tr("Search the finished runs on screen and the deployment's settings for the most accurate "
                         "fleet that meets the targets (Ctrl+Return)"));
    use_->setToolTip(tr("Make the recommended configuration the plan: its run's plan (data, model, training, seeds, its k "
                        "and bundle coding) with only the recommended strategy (and fu beside it when the run had it), "
                        "the recommended deployment (fleet.*) and these targets. The form's other fields are replaced"));
    auto* planAct = new QAction(this);
    planAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    // The whole window while the tab shows: a click on the tab leaves the focus on the tab bar.
    planAct->setShortcutContext(Qt::WindowShortcut);
    addAction(planAct);
    connect(planAct, &QAction::triggered, this, [this] {
        if (isVisible())
            plan();
    });
    connect(plan_, &QPushButton::clicked, this, &FleetPlanPanel::plan);
    connect(cancel_, &QPushButton::clicked, this, &FleetPlanPanel::cancel);
    use_->setEnabled(false); // until a plan recommends a candidate (onPlanned)
    connect(use_, &QPushButton::clicked, this, &FleetPlanPanel::useRecommended);
    connect(cells_, &FleetPlanCells::triggered, this, &FleetPlanPanel::requestCells);
    connect(replan_, &FleetPlanReplan::request, this, &FleetPlanPanel::replanNow);
    progress_->setTextVisible(true);
    status_->setWordWrap(true);
    status_->setText(tr("Set the targets and press Plan: the planner searches the finished runs on screen."));
    words_->setWordWrap(true);
    words_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    words_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layOut();
    worker_->moveToThread(thread_);
    thread_->setObjectName(QStringLiteral("dpu-fleet-plan"));
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &FleetPlanWorker::progress, this, &FleetPlanPanel::onProgress, Qt::QueuedConnection);
    connect(worker_, &FleetPlanWorker::planned, this, &FleetPlanPanel::onPlanned, Qt::QueuedConnection);
    thread_->start();
    setBusy(false);
}

void FleetPlanPanel::layOut()
{
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(plan_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(words_);
    auto* under = new QWidget;
    auto* underLayout = new QVBoxLayout(under);
    underLayout->setContentsMargins(0, 0, 0, 0);
    underLayout->addWidget(scroll, 1);
    auto* actions = new QHBoxLayout;
    actions->addWidget(use_);
    actions->addWidget(cells_->button());
    actions->addStretch(1);
    underLayout->addLayout(actions);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(chart_);
    split->addWidget(under);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(targets_);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addWidget(split, 1);
}

FleetPlanPanel::~FleetPlanPanel()
{
    if (control_)
        control_->requestCancel();
    thread_->quit();
    thread_->wait();
}

void FleetPlanPanel::setRunBook(const RunBook* book)
{
    if (book_)
        disconnect(book_, nullptr, this, nullptr);
    book_ = book;
    if (!book_)
        return;
    // A queued run comes on screen too (runAdded): replanNow() plans only when the finished
    // runs differ from the last search's.
    auto changed = [this](const QString& why) {
        if (!replan_->changed(why) && !busy_ && answered_)
            status_->setText(tr("The runs on screen changed since this plan: press Plan to plan again."));
    };
    connect(book_, &RunBook::runAdded, this, [changed] { changed(tr("runs were opened")); });
    connect(book_, &RunBook::runEnded, this, [changed] { changed(tr("a run finished")); });
    connect(book_, &RunBook::runRemoved, this, [changed] { changed(tr("runs were closed")); });
    connect(book_, &RunBook::cleared, this, [changed] { changed(tr("runs were closed")); });
}

void FleetPlanPanel::setPlanDeployment(const dpu::Deployment& fleet)
{
    if (planDeployment_ && deploymentcompare::same(fleet, *planDeployment_) && sameTargets(fleet.targets, planDeployment_->targets))
        return;
    planDeployment_ = fleet;
    targets_->setTargets(fleet.targets);
}

dpu::Deployment FleetPlanPanel::requestedDeployment() const
{
    dpu::Deployment d = planDeployment_.value_or(dpu::Deployment{});
    d.targets = targets_->targets();
    return d;
}

void FleetPlanPanel::plan()
{
    if (!busy_)
        start({});
}

void FleetPlanPanel::start(const QString& why)
{
    FleetPlanRequest request;
    request.deployment = requestedDeployment();
    request.runs = FleetPlanWorker::finishedRuns(book_);
    replan_->started(FleetPlanReplan::dirsOf(request.runs), why);
    control_ = request.control;
    answerTargets_ = request.deployment.targets;
    progress_->setRange(0, 0);
    status_->setText(why.isEmpty() ? tr("Planning over %n run(s)…", nullptr, int(request.runs.size()))
                                   : tr("Planning again over %n run(s): %1…", nullptr, int(request.runs.size())).arg(why));
    setBusy(true);
    FleetPlanWorker* worker = worker_;
    QMetaObject::invokeMethod(worker, [worker, request] { worker->plan(request); }, Qt::QueuedConnection);
}

void FleetPlanPanel::replanSoon(const QString& why, bool force)
{
    replan_->changed(why, force);
}

void FleetPlanPanel::setReplanDelay(int ms)
{
    replan_->setDelay(ms);
}

void FleetPlanPanel::replanNow(const QString& why)
{
    if (!busy_)
        return start(why);
    // Its answer would be over the old runs: cancel it, start again when it answers (onPlanned).
    restart_ = true;
    restartWhy_ = why;
    control_->requestCancel();
}

void FleetPlanPanel::setCellsSweep(const QString& dir)
{
    cells_->setSentSweep(dir);
}

void FleetPlanPanel::sweepEnded(const QString& dir)
{
    if (cells_->isSentSweep(dir))
        replanSoon(tr("the sweep of the cells to run ended"), true);
}

QPushButton* FleetPlanPanel::cellsButton() const
{
    return cells_->button();
}

void FleetPlanPanel::cancel()
{
    if (busy_ && control_) {
        control_->requestCancel();
        status_->setText(tr("Cancelling…"));
        replan_->stop(); // the user stopped it: the book's changes no longer start another
        restart_ = false;
    }
}

void FleetPlanPanel::onProgress(qulonglong done, qulonglong toSimulate)
{
    if (!busy_)
        return;
    progress_->setRange(0, int(toSimulate));
    progress_->setValue(int(done));
    progress_->setFormat(tr("%v of %m candidates"));
}

void FleetPlanPanel::onPlanned(const dpu::ui::FleetPlanAnswer& answer)
{
    if (restart_) { // cancelled to plan over the runs on screen now: that answer is the one shown
        restart_ = false;
        return start(restartWhy_);
    }
    answer_ = answer;
    answered_ = true;
    setBusy(false);
    const dpu::FleetPlan& p = answer_.plan;
    chart_->setPlan(answer_.error.empty() ? p : dpu::FleetPlan{});
    words_->setText(FleetPlanWords::of(answer_));
    status_->setText(FleetPlanWords::status(answer_, replan_->runningWhy()));
    use_->setEnabled(answer_.error.empty() && p.recommended.has_value() && !p.cancelled);
    cells_->show(answer_, false);
    Q_EMIT planned();
}

void FleetPlanPanel::useRecommended()
{
    const dpu::FleetPlan& p = answer_.plan;
    if (!p.recommended)
        return;
    try {
        const FleetPlanUse use = FleetPlanUse::of(answer_, *p.recommended, targets_->targets());
        Q_EMIT useConfiguration(use.plan, use.summary);
    } catch (const std::exception& e) { // a run closed since is still in the answer: only a bug gets here
        status_->setText(tr("Not used: %1").arg(QString::fromUtf8(e.what())));
    }
}

void FleetPlanPanel::requestCells()
{
    try {
        Q_EMIT runCellsRequested(FleetPlanCells::sweepOf(answer_));
    } catch (const std::exception& e) {
        status_->setText(tr("The cells cannot be run: %1").arg(QString::fromUtf8(e.what())));
    }
}

void FleetPlanPanel::setBusy(bool busy)
{
    busy_ = busy;
    plan_->setEnabled(!busy);
    cancel_->setEnabled(busy);
    targets_->setEnabled(!busy);
    if (busy) {
        use_->setEnabled(false);
        cells_->show(answer_, true);
    }
    progress_->setVisible(busy);
    if (!busy)
        progress_->setRange(0, 1);
}

ReportFleetPlan FleetPlanPanel::reportFleetPlan() const
{
    if (busy_ || !answer_.error.empty() || answer_.plan.cancelled)
        return {};
    return {answer_.plan, answerTargets_, answer_.notes};
}

QString FleetPlanPanel::recommendationText() const
{
    return words_->text();
}

QString FleetPlanPanel::statusText() const
{
    return status_->text();
}

} // namespace dpu::ui
