// SPDX-License-Identifier: MIT
// BudgetPanel: inverts the analytic cost (dpu::largestKForBudget) and reads the frontier of finished runs.
#include "panels/BudgetPanel.h"
#include "dpu/RoundEstimate.h"
#include "charts/FrontierChart.h"
#include "panels/BudgetInputs.h"
#include "panels/CostReadout.h"
#include "panels/LinkRoundReadout.h"
#include "panels/PlanDeploymentBar.h"
#include "panels/SweepTargetBox.h"
#include "dpu/StrategyId.h"
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <set>

namespace dpu::ui {
namespace {
QLabel* answerLabel(QWidget* parent, const char* name)
{
    auto* l = new QLabel(QStringLiteral("–"), parent);
    l->setObjectName(QString::fromLatin1(name));
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}
} // namespace

BudgetPanel::BudgetPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("budgetPanel"));
    auto* layout = new QHBoxLayout(this);
    // The answers wrap to several lines: at 1366x768 the column is taller than the tab, so it
    // scrolls instead of squeezing (and clipping) the wrapped answers.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("budgetControlsScroll"));
    QWidget* controls = buildControls();
    controls->setMaximumWidth(420);
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Room for the widest control and the vertical scroll bar, nothing cut at the right, as the
    // column grows (a link model's SF and round beside the link): fitControlsColumn().
    scroll->setMaximumWidth(420 + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4);
    controlsScroll_ = scroll;
    controls->installEventFilter(this);
    fitControlsColumn();
    layout->addWidget(scroll);
    auto* right = new QVBoxLayout;
    // The deployment the answers are on, or the variation explored: over the results, so the
    // inputs' column keeps its height.
    deployment_ = new PlanDeploymentBar(QStringLiteral("budget"), this);
    connect(deployment_, &PlanDeploymentBar::resetToPlan, this, &BudgetPanel::resetToPlan);
    right->addWidget(deployment_);
    auto* groupRow = new QHBoxLayout;
    group_ = new QComboBox(this);
    group_->setObjectName(QStringLiteral("frontierGroup"));
    group_->setToolTip(tr("Runs join one frontier only when their plans agree on everything but k, the strategies and the bundle settings"));
    group_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto* groupLabel = new QLabel(tr("Sho&w runs of:"), this);
    groupLabel->setBuddy(group_);
    groupRow->addWidget(groupLabel);
    groupRow->addWidget(group_, 1);
    right->addLayout(groupRow);
    chart_ = new FrontierChart(this);
    right->addWidget(chart_, 1);
    leftOut_ = new QLabel(this);
    leftOut_->setObjectName(QStringLiteral("frontierLeftOut"));
    leftOut_->setWordWrap(true);
    leftOut_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(leftOut_);
    layout->addLayout(right, 1);
    connect(group_, &QComboBox::activated, this, &BudgetPanel::showGroup);
    refresh();
}

QWidget* BudgetPanel::buildControls()
{
    auto* box = new QWidget(this);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    inputs_ = new BudgetInputs(box);
    connect(inputs_, &BudgetInputs::changed, this, &BudgetPanel::refresh);
    connect(inputs_, &BudgetInputs::changed, this, &BudgetPanel::compareDeployment);
    v->addWidget(inputs_);
    v->addWidget(buildRecommendedBox(box));
    v->addWidget(buildAnswerBox(box));
    v->addWidget(buildSweepBox(box));
    v->addStretch(1);
    return box;
}

QWidget* BudgetPanel::buildRecommendedBox(QWidget* parent)
{
    auto* best = new QGroupBox(tr("Recommended (finished runs' real bytes)"), parent);
    auto* bv = new QVBoxLayout(best);
    recommended_ = answerLabel(best, "budgetRecommendation");
    bv->addWidget(recommended_);
    linkReadout_ = new LinkRoundReadout(best);
    bv->addWidget(linkReadout_);
    useRecommended_ = new QPushButton(tr("Ad&just the plan to this configuration"), best);
    useRecommended_->setObjectName(QStringLiteral("budgetUseRecommendation"));
    useRecommended_->setToolTip(tr("Set the plan's strategy, value coding and k to the recommendation"));
    connect(useRecommended_, &QPushButton::clicked, this, [this] {
        try {
            Q_EMIT configurationRequested(dpu::planWithRecommendation(plan_, recommendation_));
        } catch (const std::exception& e) {
            recommended_->setText(QString::fromStdString(e.what()));
        }
    });
    bv->addWidget(useRecommended_);
    return best;
}

QWidget* BudgetPanel::buildAnswerBox(QWidget* parent)
{
    auto* answer = new QGroupBox(tr("Answer of the cost model for the plan"), parent);
    auto* af = new QFormLayout(answer);
    kLabel_ = answerLabel(answer, "budgetK");
    perDevice_ = answerLabel(answer, "budgetBytesPerDevice");
    total_ = answerLabel(answer, "budgetTotal");
    accuracy_ = answerLabel(answer, "budgetAccuracy");
    af->addRow(tr("Largest k"), kLabel_);
    af->addRow(tr("Per device"), perDevice_);
    af->addRow(tr("All devices"), total_);
    af->addRow(tr("Expected accuracy"), accuracy_);
    useK_ = new QPushButton(tr("&Use this k in the plan"), answer);
    useK_->setObjectName(QStringLiteral("budgetUseK"));
    connect(useK_, &QPushButton::clicked, this, [this] { Q_EMIT useKRequested(k_); });
    af->addRow(useK_);
    return answer;
}

QWidget* BudgetPanel::buildSweepBox(QWidget* parent)
{
    auto* sweep = new QGroupBox(tr("k sweep"), parent);
    auto* sv = new QVBoxLayout(sweep);
    ratios_ = new QLineEdit(QStringLiteral("0.001, 0.005, 0.01, 0.05, 0.1"), sweep);
    ratios_->setObjectName(QStringLiteral("budgetSweepRatios"));
    ratios_->setToolTip(tr("Ratios k in (0, 1], separated by commas or spaces"));
    ratiosError_ = new QLabel(sweep);
    ratiosError_->setObjectName(QStringLiteral("budgetSweepError"));
    ratiosError_->setStyleSheet(QStringLiteral("color: #b00020;"));
    ratiosError_->setWordWrap(true);
    ratiosError_->hide();
    sweep_ = new QPushButton(tr("&Queue k sweep"), sweep);
    sweep_->setObjectName(QStringLiteral("budgetSweep"));
    sweep_->setToolTip(tr("Queue one run of the plan per ratio (Ctrl+Shift+K)"));
    connect(sweep_, &QPushButton::clicked, this, &BudgetPanel::requestSweep);
    target_ = new SweepTargetBox(sweep);
    target_->setObjectName(QStringLiteral("budgetSweepTarget"));
    connect(target_, &SweepTargetBox::changed, this, [this] {
        // The label stays (every Alt+letter of the window is taken, and "queue" fits Slurm too);
        // the tooltip says where the runs go.
        const bool queue = target_->target().where == SweepTarget::Where::Queue;
        sweep_->setToolTip(queue ? tr("Queue one run of the plan per ratio (Ctrl+Shift+K)")
                                 : tr("Run one cell per ratio in a sweep folder; its cells show in the Sweeps tab (Ctrl+Shift+K)"));
    });
    // The button beside the ratios: with the link model's answers the column is one line taller,
    // and every input must stay in a 1366x768 window (test_ui_layout).
    auto* ratiosRow = new QHBoxLayout;
    ratiosRow->addWidget(ratios_, 1);
    ratiosRow->addWidget(sweep_);
    sv->addLayout(ratiosRow);
    sv->addWidget(ratiosError_);
    sv->addWidget(target_);
    connect(ratios_, &QLineEdit::textChanged, this, [this] {
        QString error;
        sweepRatios(&error);
        ratiosError_->setText(error);
        ratiosError_->setVisible(!error.isEmpty());
        ratios_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 2px solid #d32f2f; }"));
        sweep_->setEnabled(error.isEmpty());
    });
    return sweep;
}

void BudgetPanel::setCostModel(const dpu::CostModel& model)
{
    if (model == model_) // every field: an INT8 plan's biases as codes or float price differently
        return;
    model_ = model;
    refresh();
}

void BudgetPanel::setReferencePlan(const dpu::Plan& plan)
{
    if (dpu::planToJson(plan) == dpu::planToJson(plan_))
        return;
    plan_ = plan;
    refresh();
}

void BudgetPanel::setRunName(int runId, const QString& name)
{
    runNames_.insert(runId, name);
}

QString BudgetPanel::runName(const std::string& id) const
{
    const int n = std::stoi(id);
    return runNames_.value(n, tr("run %1").arg(n));
}

void BudgetPanel::addRun(int runId, const dpu::Plan& plan, const std::vector<dpu::RoundRecord>& records, bool finished)
{
    frontier_.addRun(runId, plan, records, finished);
    refresh();
    Q_EMIT frontierChanged();
}

void BudgetPanel::showGroup(int index)
{
    if (index < 0 || index >= static_cast<int>(groups_.size()))
        return;
    pinnedRun_ = groups_[static_cast<size_t>(index)].runIds.front();
    refresh();
}

std::vector<FrontierPoint> BudgetPanel::shownPoints() const
{
    return shownGroup_ < 0 ? std::vector<FrontierPoint>{} : groups_[static_cast<size_t>(shownGroup_)].points;
}

bool BudgetPanel::shownGroupMatchesPlan() const
{
    if (shownGroup_ < 0)
        return false;
    const dpu::Plan& p = groups_[static_cast<size_t>(shownGroup_)].plan;
    return p.model == plan_.model && p.dataset.kind == plan_.dataset.kind;
}

QString BudgetPanel::groupLabel(const dpu::FrontierGroup& g) const
{
    const dpu::Plan& p = g.plan;
    QStringList ks;
    for (const FrontierPoint& pt : g.points)
        if (!dpu::isBaseline(pt.strategy) && !ks.contains(QString::number(pt.k)))
            ks << QString::number(pt.k);
    const int runs = static_cast<int>(g.runIds.size());
    return tr("%1 on %2, %3 rounds, k = %4 (%5)")
        .arg(QString::fromStdString(p.model), QString::fromStdString(dpu::nameOf(p.dataset.kind)))
        .arg(p.split.rounds)
        .arg(ks.join(QStringLiteral(", ")), runs == 1 ? tr("1 run") : tr("%1 runs").arg(runs));
}

QString BudgetPanel::leftOutText() const
{
    if (shownGroup_ < 0)
        return {};
    const dpu::FrontierGroup& shown = groups_[static_cast<size_t>(shownGroup_)];
    QStringList lines;
    for (size_t g = 0; g < groups_.size(); ++g) {
        if (static_cast<int>(g) == shownGroup_)
            continue;
        QStringList names;
        for (const std::string& id : groups_[g].runIds)
            names << runName(id);
        QStringList why;
        for (const std::string& d : dpu::planDifferences(groups_[g].plan, shown.plan, dpu::frontierFreeKeys()))
            why << QString::fromStdString(d);
        const int more = why.size() - 3; // the first few keys say enough
        while (why.size() > 3)
            why.removeLast();
        lines << tr("Left out: %1 — plan differs in %2%3")
                     .arg(names.join(QStringLiteral(", ")), why.join(QStringLiteral("; ")))
                     .arg(more > 0 ? tr(" and %n more key(s)", nullptr, more) : QString());
    }
    return lines.join(QLatin1Char('\n'));
}

void BudgetPanel::setBudgetBytes(double bytes)
{
    inputs_->setBudgetBytes(bytes);
}

void BudgetPanel::saveSettings(QSettings& s) const
{
    inputs_->saveSettings(s);
    s.setValue(QStringLiteral("budget/ratios"), ratios_->text());
    target_->saveSettings(s);
}

void BudgetPanel::restoreSettings(const QSettings& s)
{
    inputs_->restoreSettings(s);
    if (s.contains(QStringLiteral("budget/ratios")))
        ratios_->setText(s.value(QStringLiteral("budget/ratios")).toString());
    target_->restoreSettings(s);
}

void BudgetPanel::setDevices(int devices)
{
    inputs_->setDevices(devices);
}

int BudgetPanel::devices() const
{
    return inputs_->devices();
}

double BudgetPanel::budgetBits() const
{
    return inputs_->budgetBits();
}

Expectation BudgetPanel::expectation(const QString& strategy) const
{
    if (!shownGroupMatchesPlan())
        return {}; // bytes of another model: the budget's k says nothing about them
    // Looked up as the frontier families it: FU of a dense model is one family whatever the coding.
    const std::string family = dpu::familyLabel(strategy.toStdString(), dpu::familyValuesOf(strategy.toStdString(), plan_));
    return dpu::expectedAccuracy(dpu::pointsOfFamily(shownPoints(), family), k_);
}

QList<double> BudgetPanel::sweepRatios(QString* error) const
{
    QList<double> out;
    const QStringList parts = ratios_->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const double k = part.toDouble(&ok);
        if (!ok || !(k > 0 && k <= 1)) {
            if (error)
                *error = ok ? tr("k sweep: expected ratios in (0, 1], found %1").arg(part)
                            : tr("k sweep: expected numbers, found \"%1\"").arg(part);
            return {};
        }
        if (!out.contains(k))
            out << k;
    }
    if (out.isEmpty() && error)
        *error = tr("k sweep: expected at least one ratio");
    return out;
}

void BudgetPanel::setSweepRatios(const QString& text)
{
    ratios_->setText(text);
}

void BudgetPanel::requestSweep()
{
    QString error;
    const QList<double> ratios = sweepRatios(&error);
    if (!ratios.isEmpty())
        Q_EMIT sweepRequested(ratios);
}

QString BudgetPanel::expectationText(const std::vector<FrontierPoint>& points) const
{
    if (points.empty())
        return tr("no finished runs of this model yet: queue a k sweep");
    if (!shownGroupMatchesPlan())
        return tr("the runs shown are of %1 on %2, the plan of %3 on %4: pick runs of the plan's model")
            .arg(QString::fromStdString(groups_[static_cast<size_t>(shownGroup_)].plan.model),
                 QString::fromStdString(dpu::nameOf(groups_[static_cast<size_t>(shownGroup_)].plan.dataset.kind)),
                 QString::fromStdString(plan_.model), QString::fromStdString(dpu::nameOf(plan_.dataset.kind)));
    // The analytic k is the plan's coding's: only the families coded as the plan codes.
    // Each strategy's family as the frontier makes it (FU of a dense model: one, whatever the coding).
    std::set<std::string> strategies;
    for (const FrontierPoint& p : points)
        if (p.familyValues == dpu::familyValuesOf(p.strategy, plan_))
            strategies.insert(p.strategy);
    if (strategies.empty())
        return tr("no finished runs coded as the plan codes (%1)").arg(QString::fromStdString(dpu::nameOf(plan_.bundle.values)));
    QStringList lines;
    for (const std::string& s : strategies) {
        const QString name = QString::fromStdString(s);
        if (dpu::isBaseline(s)) {
            // Full updating ignores k: what it costs and reaches is one figure, not a curve.
            for (const FrontierPoint& p : points)
                if (p.strategy == s && p.familyValues == dpu::familyValuesOf(s, plan_)) {
                    if (std::isnan(p.realBytesPerUpdateRound))
                        lines << tr("fu: %1 %, no update round after its initial deployment").arg(100.0 * p.meanAccuracy, 0, 'f', 2);
                    else
                        lines << tr("fu: %1 % at %2 per update round (%3 the budget)")
                                     .arg(100.0 * p.meanAccuracy, 0, 'f', 2)
                                     .arg(CostReadout::formatBytes(p.realBytesPerUpdateRound))
                                     .arg(p.realBytesPerUpdateRound * 8.0 <= budgetBits() ? tr("within") : tr("over"));
                    break;
                }
            continue;
        }
        const Expectation e = expectation(name);
        if (!e.bracketed)
            lines << tr("%1: no finished runs bracket this k").arg(name);
        else if (e.kLow == e.kHigh)
            lines << tr("%1: %2 % (finished runs at k = %3)").arg(name).arg(100.0 * e.accuracy, 0, 'f', 2).arg(e.kLow);
        else
            lines << tr("%1: %2 % (between k = %3 and %4)")
                         .arg(name).arg(100.0 * e.accuracy, 0, 'f', 2).arg(e.kLow).arg(e.kHigh);
    }
    return lines.join(QLatin1Char('\n'));
}

void BudgetPanel::refresh()
{
    const double bits = budgetBits();
    groups_ = frontier_.groups();
    // The group the user picked; else the form's plan's; else the latest run's.
    shownGroup_ = -1;
    for (size_t g = 0; g < groups_.size() && !pinnedRun_.empty(); ++g)
        if (std::find(groups_[g].runIds.begin(), groups_[g].runIds.end(), pinnedRun_) != groups_[g].runIds.end())
            shownGroup_ = static_cast<int>(g);
    if (shownGroup_ < 0)
        shownGroup_ = dpu::frontierGroupOf(groups_, plan_);
    if (shownGroup_ < 0)
        shownGroup_ = static_cast<int>(groups_.size()) - 1;
    {
        const QSignalBlocker block(group_);
        group_->clear();
        for (const dpu::FrontierGroup& g : groups_)
            group_->addItem(groupLabel(g));
        group_->setCurrentIndex(shownGroup_);
        group_->setEnabled(groups_.size() > 1);
    }
    leftOut_->setText(leftOutText());
    leftOut_->setVisible(!leftOut_->text().isEmpty());
    const std::vector<FrontierPoint> points = shownPoints();
    k_ = 0;
    bytesPerDevice_ = 0;
    if (model_.partialWeights <= 0) {
        kLabel_->setText(tr("– (choose a known model in the plan)"));
    } else {
        // The plan's coding and deployed form, priced as the plan form prices them (calibrated by
        // the runs on screen where they allow): an fp32 inverse gave a q4 plan a fifth of its k.
        k_ = dpu::largestKForEstimate(plan_, model_, groups_, bits / 8.0);
        if (k_ > 0) {
            dpu::Plan at = plan_;
            at.k = k_;
            at.budget = {};
            const dpu::RoundEstimate e = dpu::estimateRound(at, model_, groups_);
            bytesPerDevice_ = e.basis == dpu::RoundEstimate::Basis::None ? dpu::partialRoundBits(model_, k_) / 8.0 : e.bytes;
            // Shown as the plan takes it (rounded down): 0.001764 read above the 0.001763 it became.
            kLabel_->setText(tr("%1 (%L2 of %L3 weights)")
                                 .arg(dpu::roundKDown(k_), 0, 'g', 4)
                                 .arg(dpu::updatedCount(model_.partialWeights, k_))
                                 .arg(model_.partialWeights));
        } else {
            kLabel_->setText(tr("none: the always-shipped weights alone need %1")
                                 .arg(CostReadout::formatBytes(dpu::denseRoundBits(model_) / 8.0)));
        }
    }
    // Toward what fits: 687.5 B of a 687.5 B window reads 687 B, not 688 B.
    perDevice_->setText(k_ > 0 ? tr("%1 per update round").arg(CostReadout::formatBytes(std::floor(bytesPerDevice_))) : QStringLiteral("–"));
    total_->setText(k_ > 0 ? tr("%1 per update round for %L2 devices").arg(CostReadout::formatBytes(std::floor(totalBytes()))).arg(devices())
                           : QStringLiteral("–"));
    if (!inputs_->budgetError().isEmpty())
        kLabel_->setText(QStringLiteral("–")); // the field says why no byte fits
    useK_->setEnabled(k_ > 0);
    accuracy_->setText(k_ > 0 ? expectationText(points) : QStringLiteral("–"));

    // The recommendation: among the shown runs (their own model's size for estimates when it is
    // the plan's), else the plan's configuration on the analytic model.
    const dpu::Budget budget{dpu::Budget::Scope::PerRound, bits / 8.0};
    const dpu::FrontierGroup* group = shownGroup_ < 0 ? nullptr : &groups_[static_cast<size_t>(shownGroup_)];
    recommendation_ = dpu::recommend(group, plan_, group && !shownGroupMatchesPlan() ? dpu::CostModel{} : model_, budget);
    const QString budgetError = inputs_->budgetError();
    recommended_->setText(budgetError.isEmpty() ? QString::fromStdString(recommendation_.why)
                                                : tr("none: %1").arg(budgetError)); // also under its field
    useRecommended_->setEnabled(recommendation_.found);
    showLinkRound();
    QList<QPointF> expected;
    if (recommendation_.found && !std::isnan(recommendation_.expectedAccuracy))
        expected << QPointF(recommendation_.bytesPerRound, 100.0 * recommendation_.expectedAccuracy);
    chart_->setFrontier(points, bits / 8.0, expected);
}

} // namespace dpu::ui
