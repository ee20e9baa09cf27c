// SPDX-License-Identifier: MIT
// FleetPlanPanel: the targets, Plan and Cancel, progress, the frontier chart, the recommendation in words and Use this configuration.
#include "panels/FleetPlanPanel.h"
#include "charts/FleetPlanChart.h"
#include "models/RunBook.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetPlanTargets.h"
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

QString lines(const std::vector<std::string>& items, const QString& head)
{
    if (items.empty())
        return {};
    QString out = head;
    for (const std::string& item : items)
        out += QStringLiteral("\n  • ") + QString::fromStdString(item);
    return out + QLatin1Char('\n');
}

/// The answer in words: the plan's why, the binding target and its moves, the cells to run.
QString wordsOf(const FleetPlanAnswer& a)
{
    if (!a.error.empty())
        return QObject::tr("No plan: %1").arg(QString::fromStdString(a.error));
    const dpu::FleetPlan& p = a.plan;
    QString out = QString::fromStdString(p.why) + QLatin1Char('\n');
    if (!p.recommended && p.nearest) // the why names the nearest and the target that binds
        out += lines(p.moves, QObject::tr("What would move %1:").arg(QString::fromStdString(p.binding)));
    std::vector<std::string> cells;
    for (const dpu::FleetPlanCell& cell : p.cellsToRun) {
        std::string keys;
        for (const auto& [path, json] : cell.keys)
            keys += (keys.empty() ? "" : ", ") + path + " = " + json;
        cells.push_back(cell.run + " with " + keys + ": " + cell.why);
    }
    out += lines(cells, QObject::tr("Cells nobody ran that would do better (estimated; run them to know):"));
    out += lines(a.notes, QObject::tr("Notes:"));
    return out.trimmed();
}

} // namespace

FleetPlanPanel::FleetPlanPanel(QWidget* parent)
    : QWidget(parent), targets_(new FleetPlanTargets), plan_(new QPushButton(tr("Plan"))), cancel_(new QPushButton(tr("Cancel"))),
      progress_(new QProgressBar), status_(new QLabel), chart_(new FleetPlanChart), words_(new QLabel),
      use_(new QPushButton(tr("Use this configuration"))), thread_(new QThread(this)), worker_(new FleetPlanWorker)
{
    // No Alt letter free in the window (test_ui_use): Plan has Ctrl+Return.
    plan_->setToolTip(tr("Search the finished runs on screen and the deployment's settings for the most accurate "
                         "fleet that meets the targets (Ctrl+Return)"));
    use_->setToolTip(tr("Write the recommended configuration into the plan's deployment (fleet.*), with these targets"));
    auto* planAct = new QAction(this);
    planAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    planAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(planAct);
    connect(planAct, &QAction::triggered, this, &FleetPlanPanel::plan);
    connect(plan_, &QPushButton::clicked, this, &FleetPlanPanel::plan);
    connect(cancel_, &QPushButton::clicked, this, &FleetPlanPanel::cancel);
    connect(use_, &QPushButton::clicked, this, &FleetPlanPanel::useRecommended);
    progress_->setTextVisible(true);
    status_->setWordWrap(true);
    status_->setText(tr("Set the targets and press Plan: the planner searches the finished runs on screen."));
    words_->setWordWrap(true);
    words_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    words_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
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
    underLayout->addWidget(use_, 0, Qt::AlignLeft);
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
    worker_->moveToThread(thread_);
    thread_->setObjectName(QStringLiteral("dpu-fleet-plan"));
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &FleetPlanWorker::progress, this, &FleetPlanPanel::onProgress, Qt::QueuedConnection);
    connect(worker_, &FleetPlanWorker::planned, this, &FleetPlanPanel::onPlanned, Qt::QueuedConnection);
    thread_->start();
    setBusy(false);
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
    auto changed = [this] {
        if (!busy_ && (!answer_.plan.candidates.empty() || !answer_.error.empty()))
            status_->setText(tr("The runs on screen changed since this plan: press Plan to plan again."));
    };
    for (auto signal : {&RunBook::runAdded, &RunBook::runEnded, &RunBook::runRemoved})
        connect(book_, signal, this, changed);
    connect(book_, &RunBook::cleared, this, changed);
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
    if (busy_)
        return;
    FleetPlanRequest request;
    request.deployment = requestedDeployment();
    if (book_)
        for (const BookRun& run : book_->runs()) {
            // Finished and stopped runs, as the Fleet tab takes them: their versions are final.
            if (!run.over() || run.state == BookRun::State::Failed || run.records.empty() || run.plan.seeds.empty())
                continue;
            dpu::RunFolder folder;
            folder.dir = run.dir.toStdString();
            folder.plan = run.plan;
            folder.records = run.records;
            request.runs.push_back(std::move(folder));
        }
    control_ = request.control;
    answerTargets_ = request.deployment.targets;
    progress_->setRange(0, 0);
    status_->setText(tr("Planning over %n run(s)…", nullptr, int(request.runs.size())));
    setBusy(true);
    FleetPlanWorker* worker = worker_;
    QMetaObject::invokeMethod(worker, [worker, request] { worker->plan(request); }, Qt::QueuedConnection);
}

void FleetPlanPanel::cancel()
{
    if (busy_ && control_) {
        control_->requestCancel();
        status_->setText(tr("Cancelling…"));
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
    answer_ = answer;
    setBusy(false);
    const dpu::FleetPlan& p = answer_.plan;
    chart_->setPlan(answer_.error.empty() ? p : dpu::FleetPlan{});
    words_->setText(wordsOf(answer_));
    if (!answer_.error.empty())
        status_->setText(tr("The plan failed: %1").arg(QString::fromStdString(answer_.error)));
    else
        status_->setText(tr("%1%2 candidates simulated of %3 in the space (%4 pruned), %5 s.")
                             .arg(p.cancelled ? tr("Cancelled: ") : QString())
                             .arg(p.simulated)
                             .arg(p.space)
                             .arg(p.pruned)
                             .arg(p.seconds, 0, 'f', 1));
    use_->setEnabled(answer_.error.empty() && p.recommended.has_value() && !p.cancelled);
    Q_EMIT planned();
}

void FleetPlanPanel::useRecommended()
{
    const dpu::FleetPlan& p = answer_.plan;
    if (!p.recommended || *p.recommended >= p.candidates.size())
        return;
    Q_EMIT useConfiguration(p.candidates[*p.recommended].deployment);
}

void FleetPlanPanel::setBusy(bool busy)
{
    busy_ = busy;
    plan_->setEnabled(!busy);
    cancel_->setEnabled(busy);
    targets_->setEnabled(!busy);
    if (busy)
        use_->setEnabled(false);
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
