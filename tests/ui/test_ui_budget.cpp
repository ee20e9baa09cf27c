// SPDX-License-Identifier: MIT
// Tests of the budget planner: the solver against hand-computed cases, the frontier's
// interpolation on log k, the chart, the k sweep queueing the right plans (the link models'
// answers: test_ui_budget_link).
#include "MainWindow.h"
#include "RunFixtures.h"
#include "BudgetTestSupport.h"
#include "UiTestSupport.h"
#include "charts/FrontierChart.h"
#include "dpu/Cost.h"
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "dpu/Plan.h"
#include "models/FrontierModel.h"
#include "panels/BudgetPanel.h"
#include "panels/CostReadout.h"
#include "panels/LinkFigures.h"
#include "panels/PlanDeploymentBar.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QRadioButton>
#include <QScatterSeries>
#include <QTabWidget>
#include <QtTest/QtTest>
#include <cmath>

using dpu::ui::BudgetPanel;
using dpu::ui::MainWindow;
using dpu::ui::FrontierModel;
using dpu::uitest::kModel;
using dpu::uitest::labelText;
using dpu::uitest::linkOf;
using dpu::uitest::planAt;

namespace {
// Binary entropy, written out here so the expected figures do not come from the code under test.
double entropy(double k)
{
    return -k * std::log2(k) - (1 - k) * std::log2(1 - k);
}


/// A deployed round of seed 1: analytic bytes of the model at k, and the real bundle's size.
dpu::RoundRecord record(const char* strategy, int round, double accuracy, double k, int64_t realBytes)
{
    const double analytic = std::string(strategy) == "fu" ? dpu::fullRoundBits(kModel) / 8 : dpu::partialRoundBits(kModel, k) / 8;
    return dpu::test::roundRecord(strategy, 1, round, accuracy, analytic, realBytes);
}

/// Two finished runs of dpu: k = 0.001 (mean 75 %, 50 B a round) and k = 0.01 (mean 85 %,
/// 95 B a round, with FU: 90 %, 4100 B); a cancelled run at k = 0.1 and a finished run of
/// another model that must both be ignored.
void feedRuns(BudgetPanel& panel)
{
    panel.runQueued(1, planAt(0.001));
    panel.roundDone(1, record("dpu", 1, 0.70, 0.001, 50));
    panel.roundDone(1, record("dpu", 2, 0.80, 0.001, 50));
    panel.runEnded(1, true);
    panel.runQueued(2, planAt(0.01));
    panel.roundDone(2, record("dpu", 1, 0.80, 0.01, 95));
    panel.roundDone(2, record("dpu", 2, 0.90, 0.01, 95));
    panel.roundDone(2, record("fu", 1, 0.88, 0.01, 4100));
    panel.roundDone(2, record("fu", 2, 0.92, 0.01, 4100));
    panel.runEnded(2, true);
    panel.runQueued(3, planAt(0.1));
    panel.roundDone(3, record("dpu", 1, 0.99, 0.1, 300));
    panel.runEnded(3, false);
    panel.runQueued(4, planAt(0.1, "vggnet"));
    panel.roundDone(4, record("dpu", 1, 0.10, 0.1, 30000));
    panel.roundDone(4, record("dpu", 2, 0.10, 0.1, 30000)); // an update round: a point on its own frontier
    panel.runEnded(4, true);
}

} // namespace

class TestUiBudget : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
    }

    void solverMatchesHandComputedCases()
    {
        BudgetPanel panel;
        panel.setCostModel({1000, 10}); // I = 1000 partial weights, 10 dense
        panel.setDevices(250);

        // 1000 B = 8000 bits. A round costs 32 round(1000 k) + 1000 H(k) + 320 bits: with 216
        // weights (k < 0.2165) 6912 + 753.72 + 320 = 7985.72 fits; 217 weights cost 8017.72.
        panel.setBudgetBytes(1000);
        QCOMPARE(panel.budgetBits(), 8000.0);
        QVERIFY2(panel.largestK() <= 0.2165 && panel.largestK() > 0.2165 - 2e-7, qPrintable(QString::number(panel.largestK(), 'g', 10)));
        const double bytesA = (32 * 216 + 1000 * entropy(0.2165) + 320) / 8; // 998.22
        QVERIFY2(std::abs(panel.bytesPerDevice() - bytesA) < 0.01, qPrintable(QString::number(panel.bytesPerDevice())));
        QVERIFY(std::abs(panel.totalBytes() - 250 * bytesA) < 2.5);
        // Shown as "Use this k" gives it to the plan: rounded down (0.21649... read 0.2165, above it).
        QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("budgetK"))->text().startsWith(QStringLiteral("0.2164 (216 of ")),
                 qPrintable(panel.findChild<QLabel*>(QStringLiteral("budgetK"))->text()));
        QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("budgetBytesPerDevice"))->text().startsWith(QStringLiteral("998 B")),
                 qPrintable(panel.findChild<QLabel*>(QStringLiteral("budgetBytesPerDevice"))->text()));
        QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("budgetTotal"))->text().startsWith(
                     QStringLiteral("%1 B").arg(std::floor(250 * bytesA), 0, 'f', 0)), // toward what fits
                 qPrintable(panel.findChild<QLabel*>(QStringLiteral("budgetTotal"))->text()));

        // 625 B = 5000 bits: 128 weights (k < 0.1285) cost 4096 + 553.31 + 320 = 4969.31 bits;
        // 129 would cost 5001.31.
        panel.setBudgetBytes(625);
        QCOMPARE(panel.budgetBits(), 5000.0);
        QVERIFY(panel.largestK() <= 0.1285 && panel.largestK() > 0.1285 - 2e-7);
        QVERIFY(std::abs(panel.bytesPerDevice() - (4096 + 1000 * entropy(0.1285) + 320) / 8) < 0.01);

        // 30 B = 240 bits: not even the 10 dense values (320 bits) fit.
        panel.setBudgetBytes(30);
        QCOMPARE(panel.largestK(), 0.0);
        QCOMPARE(panel.totalBytes(), 0.0);
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("budgetK"))->text().contains(QStringLiteral("40 B")));
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("budgetUseK"))->isEnabled());

        // 5000 B is more than a full round (32 x 1010 bits = 4040 B): k = 1 at the full cost.
        panel.setBudgetBytes(5000);
        QCOMPARE(panel.largestK(), 1.0);
        QCOMPARE(panel.bytesPerDevice(), 4040.0);
        QCOMPARE(panel.totalBytes(), 250 * 4040.0);
    }

    void interpolationOnLogK()
    {
        BudgetPanel panel;
        feedRuns(panel);
        QCOMPARE(panel.frontier().finishedRuns(), 3); // the cancelled run is dropped
        const std::vector<dpu::ui::FrontierPoint> dpu = dpu::pointsOf(panel.frontier().points(planAt(0.05)), "dpu");
        QCOMPARE(dpu.size(), size_t(2));
        QCOMPARE(dpu[0].k, 0.001);
        QVERIFY(std::abs(dpu[0].meanAccuracy - 0.75) < 1e-12);
        QCOMPARE(dpu[0].realBytesPerUpdateRound, 50.0);
        QVERIFY(std::abs(dpu[1].meanAccuracy - 0.85) < 1e-12);
        QCOMPARE(dpu[1].realBytesPerUpdateRound, 95.0);

        // Half way in log k between 0.001 and 0.01 is 10^-2.5: half way in accuracy, 80 %.
        auto e = FrontierModel::expectedAccuracy(dpu, std::pow(10.0, -2.5));
        QVERIFY(e.bracketed);
        QVERIFY(std::abs(e.accuracy - 0.80) < 1e-12);
        // k = 0.002: log10(2) = 0.30103 of the way, 75 + 10 x 0.30103 = 78.0103 %.
        e = FrontierModel::expectedAccuracy(dpu, 0.002);
        QVERIFY(std::abs(e.accuracy - 0.780103) < 1e-6);
        QCOMPARE(e.kLow, 0.001);
        QCOMPARE(e.kHigh, 0.01);
        e = FrontierModel::expectedAccuracy(dpu, 0.01); // a finished run exactly at k
        QVERIFY(e.bracketed);
        QVERIFY(std::abs(e.accuracy - 0.85) < 1e-12);
        QVERIFY(!FrontierModel::expectedAccuracy(dpu, 0.05).bracketed);
        QVERIFY(!FrontierModel::expectedAccuracy(dpu, 0.0005).bracketed);

        // Through the panel: with I = 1000 and dense = 10, 66 B (528 bits) allows an analytic k
        // between 0.001 and 0.01; the label shows the log-k interpolation at the panel's k.
        panel.setCostModel(kModel);
        panel.setReferencePlan(planAt(0.01));
        panel.setBudgetBytes(66);
        const double k = panel.largestK();
        QVERIFY2(k > 0.001 && k < 0.01, qPrintable(QString::number(k)));
        const double expected = 0.75 + 0.10 * std::log10(k / 0.001);
        QVERIFY(std::abs(panel.expectation(QStringLiteral("dpu")).accuracy - expected) < 1e-9);
        const QString text = panel.findChild<QLabel*>(QStringLiteral("budgetAccuracy"))->text();
        QVERIFY2(text.contains(QStringLiteral("dpu: %1 %").arg(100 * expected, 0, 'f', 2)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("fu: 90.00 % at 4100 B")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("over the budget")));

        // The recommendation from real bytes: 66 B lies between dpu's 50 B (k = 0.001) and 95 B
        // (k = 0.01), bytes linear in k: k = 0.001 + 16/45 x 0.009 = 0.0042.
        const dpu::Recommendation& r = panel.recommendation();
        QVERIFY(r.found && r.measured);
        QCOMPARE(r.family, std::string("dpu"));
        QVERIFY(std::abs(r.k - 0.0042) < 1e-12);
        const double recommended = 0.75 + 0.1 * std::log10(4.2);
        QVERIFY(std::abs(r.expectedAccuracy - recommended) < 1e-12);
        const QString why = panel.findChild<QLabel*>(QStringLiteral("budgetRecommendation"))->text();
        QVERIFY2(why.startsWith(QStringLiteral("dpu at k=0.0042: 81.2 % expected (-8.77 points to FU), 66 B/update round")), qPrintable(why));

        // The frontier chart: dpu through (50 B, 75 %) and (95 B, 85 %) in real bytes, the
        // budget line at 66 B, and the recommendation's point.
        dpu::ui::FrontierChart* chart = panel.chart();
        QLineSeries* line = chart->series(QStringLiteral("dpu"));
        QVERIFY(line);
        QCOMPARE(line->count(), 2);
        QCOMPARE(line->at(0), QPointF(50, 75));
        QCOMPARE(line->at(1), QPointF(95, 85));
        QCOMPARE(line->pen().style(), Qt::SolidLine); // exact values
        QLineSeries* budget = chart->series(dpu::ui::FrontierChart::budgetKey());
        QVERIFY(budget);
        QCOMPARE(budget->at(0).x(), 66.0);
        QVERIFY(chart->expectedSeries());
        QCOMPARE(chart->expectedSeries()->count(), 1);
        QVERIFY(std::abs(chart->expectedSeries()->at(0).y() - 100 * recommended) < 1e-9);
        QVERIFY(std::abs(chart->expectedSeries()->at(0).x() - 66) < 1e-9);

        // A q8 run joins the frontier as a family of its own: a dotted line in DPU's colour,
        // and at 40 B a round it is the better buy.
        panel.addRun(5, planAt(0.01, "mlp", "q8"),
                     {record("dpu", 1, 0.82, 0.01, 40), record("dpu", 2, 0.84, 0.01, 40)}, true);
        QLineSeries* q8 = chart->series(QStringLiteral("dpu q8"));
        QVERIFY(q8);
        QCOMPARE(q8->count(), 1);
        QCOMPARE(q8->at(0), QPointF(40, 83));
        QCOMPARE(q8->pen().style(), Qt::DotLine);
        QCOMPARE(q8->color(), chart->series(QStringLiteral("dpu"))->color());
        QCOMPARE(panel.recommendation().family, std::string("dpu q8"));
        QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("budgetRecommendation"))->text().startsWith(
                     QStringLiteral("dpu q8 at k=0.01: 83.0 % expected")),
                 qPrintable(panel.findChild<QLabel*>(QStringLiteral("budgetRecommendation"))->text()));
        // Taking it puts strategy, coding and k into a plan.
        QSignalSpy take(&panel, &BudgetPanel::configurationRequested);
        panel.findChild<QPushButton*>(QStringLiteral("budgetUseRecommendation"))->click();
        QCOMPARE(take.size(), 1);
        const dpu::Plan taken = take[0][0].value<dpu::Plan>();
        QCOMPARE(dpu::nameOf(taken.bundle.values), std::string("q8"));
        QCOMPARE(taken.k, 0.01);
        QCOMPARE(taken.strategies, (std::vector<std::string>{"dpu", "fu"}));

        // 1000 B allows an analytic k = 0.2165, beyond the finished runs.
        panel.setBudgetBytes(1000);
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("budgetAccuracy"))->text().contains(
            QStringLiteral("dpu: no finished runs bracket this k")));
        QCOMPARE(panel.recommendation().family, std::string("dpu")); // 85 % at 95 B
        // Below every run: the cost model calibrated on the runs' real bytes, an estimate.
        panel.setBudgetBytes(35);
        QVERIFY(panel.recommendation().found);
        QVERIFY(!panel.recommendation().measured);
        QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("budgetRecommendation"))->text().contains(QStringLiteral("estimate")),
                 qPrintable(panel.findChild<QLabel*>(QStringLiteral("budgetRecommendation"))->text()));
        // Another model's runs are not this model's frontier.
        panel.setReferencePlan(planAt(0.01, "vggnet"));
        QCOMPARE(chart->series(QStringLiteral("dpu"))->count(), 1);
    }

    void budgetTabFollowsThePlan()
    {
        MainWindow w;
        dpu::ui::PlanPanel* plan = w.planPanel();
        plan->setK(0.01);
        BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        w.budgetAction()->trigger();
        QCOMPARE(w.resultsPanel()->tabs()->currentWidget(), budget);
        QCOMPARE(w.resultsPanel()->currentChart(), budget->chart());
        // The MLP: one round at k = 0.01 is 37637 B (the cost readout's figure), so a 37637 B
        // budget allows k just below 0.01 at no more than that.
        budget->setBudgetBytes(37637);
        QVERIFY2(std::abs(budget->largestK() - 0.01) < 1e-4, qPrintable(QString::number(budget->largestK())));
        QVERIFY(budget->bytesPerDevice() <= 37637.0);
        QVERIFY(budget->bytesPerDevice() > 37637.0 - 40);
        budget->setBudgetBytes(100000);
        const double k = budget->largestK();
        QVERIFY(k > 0.01);
        budget->findChild<QPushButton*>(QStringLiteral("budgetUseK"))->click();
        // Four significant digits, rounded down: never more than the budget's k.
        QVERIFY2(plan->plan().k <= k && k - plan->plan().k < 1e-3 * k, qPrintable(QString::number(plan->plan().k, 'g', 10)));
        // Use this k rounds toward what fits: 37,500 B allows k = 0.009958..., which once became
        // 0.00996 in the plan (37,507 B).
        budget->setBudgetBytes(37500);
        QVERIFY(budget->largestK() > 0.00995 && budget->largestK() < 0.00996);
        budget->findChild<QPushButton*>(QStringLiteral("budgetUseK"))->click();
        QVERIFY2(plan->plan().k <= budget->largestK() && plan->plan().k >= 0.009957,
                 qPrintable(QString::number(plan->plan().k, 'g', 10)));
        QVERIFY(dpu::partialRoundBits(plan->costReadout()->costModel(), plan->plan().k) / 8 <= 37500);
        // The answer's bytes read toward what fits too.
        budget->setBudgetBytes(687.5);
        const QString perDevice = budget->findChild<QLabel*>(QStringLiteral("budgetBytesPerDevice"))->text();
        QVERIFY2(!perDevice.contains(QStringLiteral("688")), qPrintable(perDevice));
    }

    /// "Use this k" for a q4 plan: the largest k whose q4 round fits, as the form prices it (the
    /// fp32 inverse gave k = 0.001763 for 10,416 B, a q4 round of 2,853 B); the answer shows the k
    /// the plan takes (rounded down), not one above it.
    void useThisKFollowsThePlansCoding()
    {
        MainWindow w;
        dpu::ui::PlanPanel* plan = w.planPanel();
        auto* values = plan->findChild<QComboBox*>(QStringLiteral("bundleValues"));
        values->setCurrentIndex(values->findData(QStringLiteral("q4")));
        QCOMPARE(plan->plan().bundle.values, dpu::Coding::Q4);
        BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        budget->setBudgetBytes(10416);
        const double fp32K = dpu::largestKForBudget(plan->costReadout()->costModel(), 8 * 10416.0);
        QVERIFY2(budget->largestK() > 3 * fp32K, qPrintable(QString::number(budget->largestK())));
        budget->findChild<QPushButton*>(QStringLiteral("budgetUseK"))->click();
        const double bytes = plan->costReadout()->bytesPerRound();
        QVERIFY2(bytes <= 10416 && bytes > 0.95 * 10416, qPrintable(QString::number(bytes)));
        const QString shown = budget->findChild<QLabel*>(QStringLiteral("budgetK"))->text();
        QVERIFY2(shown.startsWith(QString::number(plan->plan().k, 'g', 4) + QLatin1Char(' ')), qPrintable(shown));
    }

    void adjustingThePlanKeepsAnAutomaticName()
    {
        MainWindow w;
        dpu::ui::PlanPanel* plan = w.planPanel();
        plan->setK(0.05);
        QVERIFY(plan->nameFollows());
        // What "Adjust the plan to this configuration" sends: the plan at another k and coding.
        dpu::Plan adjusted = plan->plan();
        adjusted.k = 0.03;
        adjusted.bundle.values = dpu::Coding::Q4;
        Q_EMIT w.resultsPanel()->budgetPanel()->configurationRequested(adjusted);
        QCOMPARE(plan->plan().k, 0.03);
        QCOMPARE(QString::fromStdString(plan->plan().name), dpu::ui::PlanPanel::automaticName(plan->plan()));
        // And it keeps following: k typed afterwards renames the plan.
        plan->setK(0.02);
        QVERIFY2(QString::fromStdString(plan->plan().name).contains(QStringLiteral("k0.02")), plan->plan().name.c_str());
    }

    void bytesReadoutFollowsCodingAndFinishedRuns()
    {
        MainWindow w;
        dpu::ui::PlanPanel* form = w.planPanel();
        dpu::ui::CostReadout* cost = form->costReadout();
        form->setK(0.01);
        const dpu::CostModel mlp = cost->costModel();
        QVERIFY(mlp.partialWeights > 0);
        const double I = static_cast<double>(mlp.partialWeights), dense = static_cast<double>(mlp.denseWeights);
        const double changed = std::round(0.01 * I);
        // Exact fp32: the paper's formula, no basis named.
        QCOMPARE(cost->bytesPerRound(), (32 * changed + entropy(0.01) * I + 32 * dense) / 8);
        QVERIFY2(!cost->bytesText().contains(QStringLiteral("·")), qPrintable(cost->bytesText()));

        // q4 with coded biases, nothing run yet: 4 bits per changed value and per bias.
        form->findChild<QComboBox*>(QStringLiteral("bundleValues"))->setCurrentIndex(
            form->findChild<QComboBox*>(QStringLiteral("bundleValues"))->findData(QStringLiteral("q4")));
        form->findChild<QComboBox*>(QStringLiteral("bundleDense"))->setCurrentIndex(
            form->findChild<QComboBox*>(QStringLiteral("bundleDense"))->findData(QStringLiteral("coded")));
        QCOMPARE(QString::fromStdString(dpu::nameOf(form->plan().bundle.values)), QStringLiteral("q4"));
        const double nominal = (4 * changed + entropy(0.01) * I + 4 * dense) / 8;
        QVERIFY2(std::abs(cost->bytesPerRound() - nominal) < 1e-6, qPrintable(QString::number(cost->bytesPerRound())));
        QVERIFY2(cost->bytesText().contains(QStringLiteral("nominal q4")), qPrintable(cost->bytesText()));

        // A finished run of this very family (bundles at a fifth of the fp32 model) calibrates it.
        dpu::Plan ran = form->plan();
        ran.k = 0.02;
        const double analytic = dpu::partialRoundBits(mlp, 0.02) / 8;
        const auto real = static_cast<int64_t>(std::llround(analytic / 5));
        BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        budget->runQueued(7, ran);
        for (const char* s : {"dpu", "fu", "rpu"})
            for (int round = 1; round <= 2; ++round)
                budget->roundDone(7, dpu::test::roundRecord(s, 1, round, 0.8, std::string(s) == "fu" ? dpu::fullRoundBits(mlp) / 8 : analytic,
                                                            std::string(s) == "fu" ? 1000000 : real));
        budget->runEnded(7, true);
        QCOMPARE(cost->estimate().basis, dpu::RoundEstimate::Basis::Calibrated);
        const double ratio = static_cast<double>(real) / analytic;
        QVERIFY(std::abs(cost->bytesPerRound() - ratio * dpu::partialRoundBits(mlp, 0.01) / 8) < 1e-6);
        QVERIFY2(cost->bytesText().contains(QStringLiteral("calibrated")), qPrintable(cost->bytesText()));
        QVERIFY(cost->findChild<QLabel*>(QStringLiteral("costBytes"))->toolTip().contains(QStringLiteral("deployed rounds")));

        // Another coding on the form is not calibrated by the q4 run.
        form->findChild<QComboBox*>(QStringLiteral("bundleValues"))->setCurrentIndex(
            form->findChild<QComboBox*>(QStringLiteral("bundleValues"))->findData(QStringLiteral("q8")));
        QCOMPARE(cost->estimate().basis, dpu::RoundEstimate::Basis::Nominal);
    }

    void sweepQueuesOneRunPerRatio()
    {
        MainWindow w;
        w.setAskBeforeClosingRun(false);
        w.runQueue()->setOutputRoot(tmp_.filePath(QStringLiteral("runs")));
        dpu::uitest::fillPlanForm(w, dpu::uitest::datasetFolder(tmp_.path()), 300, 300, 2, 1, {"dpu", "fu"}, 0.02);
        BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        auto* ratios = budget->findChild<QLineEdit*>(QStringLiteral("budgetSweepRatios"));
        QCOMPARE(ratios->text(), QStringLiteral("0.001, 0.005, 0.01, 0.05, 0.1"));

        // A bad list is marked at the field and queues nothing.
        QSignalSpy queued(w.runQueue(), &dpu::ui::RunQueue::runQueued);
        budget->setSweepRatios(QStringLiteral("0.01, 2"));
        auto* error = budget->findChild<QLabel*>(QStringLiteral("budgetSweepError"));
        QVERIFY2(error->text().contains(QStringLiteral("(0, 1]")) && error->text().contains(QStringLiteral("2")),
                 qPrintable(error->text()));
        QVERIFY(!error->isHidden());
        QVERIFY(!budget->findChild<QPushButton*>(QStringLiteral("budgetSweep"))->isEnabled());
        w.sweepAction()->trigger();
        QCOMPARE(queued.size(), 0);

        budget->setSweepRatios(QStringLiteral("0.001, 0.005 0.05"));
        QVERIFY(error->isHidden());
        const dpu::Plan form = w.planPanel()->plan();
        QSignalSpy finished(&w, &MainWindow::runsFinished);
        w.sweepAction()->trigger();
        QCOMPARE(queued.size(), 3);
        const double ks[] = {0.001, 0.005, 0.05};
        for (int i = 0; i < 3; ++i) {
            dpu::Plan p = queued[i][1].value<dpu::Plan>();
            QCOMPARE(p.k, ks[i]);
            // Everything but k (and the name that says it) is the plan on the form.
            p.k = form.k;
            QCOMPARE(QString::fromStdString(p.name), QString::fromStdString(form.name) + QStringLiteral("-k%1").arg(ks[i]));
            p.name = form.name;
            QCOMPARE(QString::fromStdString(dpu::planToJson(p)), QString::fromStdString(dpu::planToJson(form)));
        }
        QVERIFY(w.runQueue()->isBusy());
        QCOMPARE(w.runQueue()->pendingCount(), 2);
        // Not run to completion: Stop cancels the first and drops the others.
        w.stopAction()->trigger();
        QVERIFY(finished.wait(120000));
        QVERIFY(!w.runQueue()->isBusy());
        QCOMPARE(budget->frontier().finishedRuns(), 0);
        QCOMPARE(w.planPanel()->plan().k, 0.02); // the form keeps its own k
    }

    // Last: it leaves its values in the (isolated) settings.
    void settingsKeepTheBudget()
    {
        {
            MainWindow w;
            BudgetPanel* budget = w.resultsPanel()->budgetPanel();
            budget->setWindowBudget(12.5); // on the plan's link model
            budget->setDevices(4321);
            budget->setSweepRatios(QStringLiteral("0.002, 0.02"));
            w.show();
            QVERIFY(w.close());
        }
        // The time window and the ratios are the tab's; the link and the devices the plan's
        // deployment.
        MainWindow again;
        BudgetPanel* budget = again.resultsPanel()->budgetPanel();
        QVERIFY(budget->findChild<QRadioButton*>(QStringLiteral("budgetByLink"))->isChecked());
        QCOMPARE(budget->findChild<QDoubleSpinBox*>(QStringLiteral("budgetWindow"))->value(), 12.5);
        QCOMPARE(budget->devices(), again.planPanel()->plan().fleet.devices);
        QVERIFY(!budget->deploymentBar()->differs()); // the plan's link model
        QCOMPARE(budget->sweepRatios(), (QList<double>{0.002, 0.02}));
    }
};

QTEST_MAIN(TestUiBudget)
#include "test_ui_budget.moc"
