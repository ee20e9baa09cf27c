// SPDX-License-Identifier: MIT
// One deployment in the window (issue 41 item 3): the plan's Deployment… dialog edits it, the Fleet and Budget tabs start from it (edited, opened, restored after a restart), a tab's variation says so and Use in plan writes it back.
#include "FleetTestSupport.h"
#include "dpu/DeploymentFields.h"
#include "MainWindow.h"
#include "RunFixtures.h"
#include "UiTestSupport.h"
#include "dpu/DeploymentModel.h"
#include "models/RunBook.h"
#include "panels/BudgetPanel.h"
#include "panels/CostReadout.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetInputs.h"
#include "panels/FleetPanel.h"
#include "panels/PlanDeploymentBar.h"
#include "panels/PlanFleetDialog.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest/QtTest>

using dpu::ui::BudgetPanel;
using dpu::ui::FleetPanel;
using dpu::ui::MainWindow;
using dpu::ui::RunBook;
namespace compare = dpu::ui::deploymentcompare;

using dpu::uitest::perfectFleet;
using dpu::uitest::settle;

namespace {

/// The flagship deployment as plan keys: EU868 with FUOTASim's mix, the 10 % sub-band, 10 %
/// loss, 321 devices, 75 % available, a round every 12 h.
dpu::Deployment flagshipPlan()
{
    dpu::Deployment f;
    f.link.link = "lorawan-eu868";
    f.link.sfMix = "fuotasim";
    f.link.dutyCycle = 0.1;
    f.link.frameLoss = 0.1;
    f.devices = 321;
    f.availability = 0.75;
    f.roundPeriodHours = 12;
    return f;
}

template <class T>
T* child(const QObject& parent, const char* name)
{
    return parent.findChild<T*>(QString::fromLatin1(name));
}

/// The Budget tab's deployment keys as its rows state them (the link, SF or mix, sub-band,
/// loss, delivery, devices), through its line's Use in plan.
dpu::Deployment budgetShows(const BudgetPanel& budget)
{
    return budget.deploymentBar()->forPlan().value_or(dpu::Deployment{});
}

} // namespace

class TestUiDeployment : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        run_ = tmp_.filePath(QStringLiteral("run"));
        const auto records = dpu::test::joined(
            {dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75}, {300, 300, 300}, {2000, 2000, 2000}, 4040),
             dpu::test::strategyRounds("fu", 1, {0.62, 0.72, 0.78}, {4040, 4040, 4040}, {4040, 4040, 4040}, 4040)});
        dpu::test::writeRunFolder(run_.toStdString(), dpu::test::sweepPlan(0.01, 3), records, "finished", {1000, 10});
    }

    void init() { QSettings().clear(); } // each window starts from the default plan

    /// Same, kept and the words: SF 0 shows as SF7 and stays 0; a changed link says so alone.
    void deploymentsCompareKeyByKey()
    {
        const dpu::Deployment plan = flagshipPlan();
        QVERIFY(compare::same(plan, plan));
        QVERIFY(compare::differences(plan, plan).isEmpty());
        dpu::Deployment sf10 = plan;
        sf10.link.sfMix.clear();
        sf10.link.spreadingFactor = 10;
        QCOMPARE(compare::differences(plan, sf10), QStringList{QStringLiteral("SF10 instead of the plan's FUOTASim mix")});
        dpu::Deployment nb = sf10;
        nb.link.link = "nb-iot-nb2";
        nb.devices = 500;
        const QStringList words = compare::differences(plan, nb);
        QCOMPARE(words.size(), 2);
        QVERIFY2(words[0].endsWith(QStringLiteral("instead of the plan's LoRaWAN EU868")), qPrintable(words[0]));
        QCOMPARE(words[1], QStringLiteral("500 devices instead of the plan's 321"));
        dpu::Deployment original; // SF 0: the link's SF7
        dpu::Deployment shown = original;
        shown.link.spreadingFactor = 7;
        dpu::Deployment now = shown;
        QCOMPARE(compare::kept(original, shown, now).link.spreadingFactor, 0);
        now.devices = 99;
        now.link.frameLoss = 0.2;
        const dpu::Deployment back = compare::kept(original, shown, now);
        QCOMPARE(back.link.spreadingFactor, 0);
        QCOMPARE(back.devices, 99);
        QCOMPARE(back.link.frameLoss, 0.2);
        QVERIFY2(compare::summary(plan).contains(QStringLiteral("321 devices on LoRaWAN EU868, FUOTASim mix, 10 % sub-band")),
                 qPrintable(compare::summary(plan)));
    }

    /// The plan's deployment replaces the link and fleet rows (SF or mix, sub-band, loss,
    /// delivery, devices, availability, period); the trace, server policy, processor and drain
    /// are the tab's and stay. The line over the tab says which deployment it shows.
    void fleetTabOnItsOwnTakesThePlansDeployment()
    {
        RunBook book;
        FleetPanel panel;
        panel.setRunBook(&book);
        dpu::Deployment start = perfectFleet();
        start.policy.maxStaleness = 3;
        start.cpu.cpu = dpu::CpuChoice::CortexM4;
        start.availabilityTrace = "/data/fleet/trace.csv";
        panel.inputs()->setSettings(start);
        dpu::ui::PlanDeploymentBar* bar = panel.deploymentBar();
        QVERIFY(!bar->hasPlan() && !bar->isVisibleTo(&panel)); // on its own: no plan to start from
        dpu::Deployment plan;
        plan.link.link = "lorawan-eu868";
        plan.link.spreadingFactor = 12;
        plan.link.dutyCycle = 0.1;
        plan.link.frameLoss = 0.1;
        plan.link.delivery = dpu::DeliveryChoice::Unicast;
        plan.devices = 321;
        plan.availability = 0.75;
        plan.roundPeriodHours = 12;
        panel.setPlanDeployment(plan);
        const dpu::Deployment s = panel.inputs()->settings();
        QCOMPARE(s.link.link, std::string("lorawan-eu868"));
        QCOMPARE(s.link.spreadingFactor, 12);
        QCOMPARE(s.link.dutyCycle, std::optional<double>(0.1));
        QCOMPARE(s.link.frameLoss, 0.1);
        QVERIFY(s.link.delivery == dpu::DeliveryChoice::Unicast);
        QCOMPARE(s.devices, 321);
        QCOMPARE(s.availability, 0.75);
        QCOMPARE(s.roundPeriodHours, 12.0);
        // The tab keeps nothing of its own: the policy, processor, trace and drain are the
        // plan's deployment's too (here its defaults).
        QVERIFY(dpu::deploymentDifferences(s, plan).empty());
        QCOMPARE(s.policy.maxStaleness, 0);
        QVERIFY(s.cpu.cpu == dpu::CpuChoice::None);
        QVERIFY(s.availabilityTrace.empty());
        QVERIFY(bar->isVisibleTo(&panel) && !bar->differs());
        QVERIFY2(bar->text().contains(QStringLiteral("The plan's deployment:")) && bar->text().contains(QStringLiteral("321 devices")),
                 qPrintable(bar->text()));
        auto* use = panel.findChild<QPushButton*>(QStringLiteral("fleetUseInPlan"));
        auto* reset = panel.findChild<QPushButton*>(QStringLiteral("fleetResetToPlan"));
        QVERIFY(use && reset && !use->isVisibleTo(&panel) && !reset->isVisibleTo(&panel));
        // The policy is the deployment's too: another staleness cap is a variation, in words.
        dpu::Deployment policy = panel.inputs()->settings();
        policy.policy.maxStaleness = 5;
        panel.inputs()->setSettings(policy);
        QVERIFY(bar->differs());
        QVERIFY2(bar->text().contains(QStringLiteral("fleet.max_staleness 5 instead of the plan's 0")), qPrintable(bar->text()));
        panel.resetToPlan();
        QVERIFY(!bar->differs());
        // Another SF explores: the line says so, the buttons show; Reset to plan puts it back.
        auto* sf = panel.inputs()->findChild<QComboBox*>(QStringLiteral("fleetSf"));
        sf->setCurrentIndex(sf->findData(9));
        QVERIFY(bar->differs());
        QVERIFY2(bar->text().contains(QStringLiteral("SF9 instead of the plan's SF12")), qPrintable(bar->text()));
        QVERIFY(use->isVisibleTo(&panel) && use->isEnabled() && reset->isVisibleTo(&panel));
        reset->click();
        QCOMPARE(panel.inputs()->settings().link.spreadingFactor, 12);
        QCOMPARE(panel.inputs()->settings().policy.maxStaleness, 0); // the plan's, as every row
        QVERIFY(!bar->differs());
        QVERIFY(settle(panel));
        QVERIFY2(panel.statusText().contains(QStringLiteral("No finished run")), qPrintable(panel.statusText()));
    }

    /// In the window both tabs start from the plan's deployment, and follow it when it changes.
    void tabsStartFromThePlan()
    {
        MainWindow w;
        FleetPanel* fleet = w.resultsPanel()->fleetPanel();
        BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        const dpu::Deployment initial = w.planPanel()->plan().fleet;
        QCOMPARE(fleet->inputs()->settings().devices, initial.devices);
        QCOMPARE(budget->devices(), initial.devices);
        QCOMPARE(budgetShows(*budget).link.link, initial.link.link);
        QVERIFY(!fleet->deploymentBar()->differs() && !budget->deploymentBar()->differs());
        // Not the Budget tab's former start ("LoRa (5.5 kbit/s)", 1,000 devices): a link model.
        QVERIFY(budget->deploymentBar()->forPlan().has_value());

        w.planPanel()->setPlanFleet(flagshipPlan());
        const dpu::Deployment s = fleet->inputs()->settings();
        QCOMPARE(s.link.sfMix, std::string("fuotasim"));
        QCOMPARE(s.link.dutyCycle, 0.1);
        QCOMPARE(s.link.frameLoss, 0.1);
        QCOMPARE(s.devices, 321);
        QCOMPARE(s.availability, 0.75);
        QCOMPARE(s.roundPeriodHours, 12.0);
        const dpu::Deployment b = budgetShows(*budget);
        QCOMPARE(b.link.sfMix, std::string("fuotasim"));
        QCOMPARE(b.link.dutyCycle, std::optional<double>(0.1));
        QCOMPARE(b.link.frameLoss, 0.1);
        QCOMPARE(budget->devices(), 321);
        QCOMPARE(child<QComboBox>(*budget, "budgetSf")->currentText(), QStringLiteral("Mix"));
        QVERIFY(!fleet->deploymentBar()->differs() && !budget->deploymentBar()->differs());
        QVERIFY2(budget->deploymentBar()->text().contains(QStringLiteral("321 devices")), qPrintable(budget->deploymentBar()->text()));
        // The Budget tab answers on the link the plan form's per-device row uses (the mix's slowest SF).
        budget->setBudgetBytes(100000); // the form's MLP at k = 0.01 is 37,637 B a round
        const dpu::ui::CostReadout* readout = w.planPanel()->costReadout();
        QVERIFY(readout->hasLink());
        QVERIFY2(budget->linkRound(), qPrintable(budget->budgetError()));
        const dpu::LinkRound expected = dpu::linkRound(readout->link(), budget->linkRound()->bytes, 321);
        QCOMPARE(budget->linkRound()->wallTime, expected.wallTime);
        QCOMPARE(budget->linkRound()->energyPerDevice, expected.energyPerDevice);
        // The form's Link row is the plan's too: another link there moves both tabs.
        w.planPanel()->choosePlanLink(QStringLiteral("nb-iot-nb2"));
        QCOMPARE(fleet->inputs()->settings().link.link, std::string("nb-iot-nb2"));
        QCOMPARE(budgetShows(*budget).link.link, std::string("nb-iot-nb2"));
        QCOMPARE(budget->devices(), 321);
        QVERIFY(!fleet->deploymentBar()->differs() && !budget->deploymentBar()->differs());
    }

    /// Deployment… on the plan form is the one place that edits it: OK there moves both tabs.
    void theDialogEditsItForEveryTab()
    {
        MainWindow w;
        auto* button = child<QToolButton>(*w.planPanel(), "planFleet");
        QVERIFY(button);
        QCOMPARE(button->text(), QStringLiteral("Deployment…"));
        bool answered = false;
        QTimer::singleShot(0, &w, [&answered] {
            auto* dialog = qobject_cast<dpu::ui::PlanFleetDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            child<QSpinBox>(*dialog->inputs(), "fleetDevices")->setValue(777);
            auto* sf = child<QComboBox>(*dialog->inputs(), "fleetSf");
            sf->setCurrentIndex(sf->findData(11));
            answered = true;
            dialog->accept();
        });
        button->click();
        QVERIFY(answered);
        QCOMPARE(w.planPanel()->plan().fleet.devices, 777);
        QCOMPARE(w.planPanel()->plan().fleet.link.spreadingFactor, 11);
        QCOMPARE(w.resultsPanel()->fleetPanel()->inputs()->settings().devices, 777);
        QCOMPARE(w.resultsPanel()->fleetPanel()->inputs()->settings().link.spreadingFactor, 11);
        QCOMPARE(w.resultsPanel()->budgetPanel()->devices(), 777);
        QCOMPARE(budgetShows(*w.resultsPanel()->budgetPanel()).link.spreadingFactor, 11);
    }

    /// A tab varies the deployment to explore: the line says how it differs from the plan's;
    /// another edit of the plan leaves it; Use in plan writes it (the form and the other tab
    /// follow); Reset to plan drops it. Every link the Budget tab lists is one a plan can take.
    void aVariationSaysSoAndGoesBackToThePlan()
    {
        MainWindow w;
        dpu::ui::PlanPanel* form = w.planPanel();
        form->setPlanFleet(flagshipPlan());
        FleetPanel* fleet = w.resultsPanel()->fleetPanel();
        BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        auto* sf = child<QComboBox>(*fleet->inputs(), "fleetSf");
        sf->setCurrentIndex(sf->findData(10));
        dpu::ui::PlanDeploymentBar* bar = fleet->deploymentBar();
        QVERIFY(bar->differs());
        QVERIFY2(bar->text().contains(QStringLiteral("Exploring:"))
                     && bar->text().contains(QStringLiteral("SF10 instead of the plan's FUOTASim mix")),
                 qPrintable(bar->text()));
        QCOMPARE(form->plan().fleet.link.sfMix, std::string("fuotasim")); // the plan is as it was
        form->setK(0.02); // another edit of the plan: the variation stays
        QVERIFY(bar->differs());
        QCOMPARE(fleet->inputs()->settings().link.spreadingFactor, 10);
        child<QPushButton>(*fleet, "fleetUseInPlan")->click();
        const dpu::Deployment plan = form->plan().fleet;
        QCOMPARE(plan.link.spreadingFactor, 10);
        QVERIFY(plan.link.sfMix.empty());
        QCOMPARE(plan.link.dutyCycle, std::optional<double>(0.1)); // the rest as the plan had it
        QCOMPARE(plan.devices, 321);
        QCOMPARE(plan.roundPeriodHours, 12.0);
        QVERIFY(!bar->differs());
        QCOMPARE(form->costReadout()->link().modulation.spreadingFactor, 10); // the form's readout (and the report's link)
        QCOMPARE(budgetShows(*budget).link.spreadingFactor, 10);                  // the other tab
        QVERIFY(!budget->deploymentBar()->differs());

        // The Budget tab: 500 devices explored, then Reset to plan.
        budget->setDevices(500);
        QVERIFY(budget->deploymentBar()->differs());
        QVERIFY2(budget->deploymentBar()->text().contains(QStringLiteral("500 devices instead of the plan's 321")),
                 qPrintable(budget->deploymentBar()->text()));
        child<QPushButton>(*budget, "budgetResetToPlan")->click();
        QCOMPARE(budget->devices(), 321);
        QVERIFY(!budget->deploymentBar()->differs());
        // 5 % loss, Use in plan: the plan's loss, and the Fleet tab's.
        child<QDoubleSpinBox>(*budget, "budgetLoss")->setValue(5);
        child<QPushButton>(*budget, "budgetUseInPlan")->click();
        QCOMPARE(form->plan().fleet.link.frameLoss, 0.05);
        QCOMPARE(form->plan().fleet.link.spreadingFactor, 10);
        QCOMPARE(fleet->inputs()->settings().link.frameLoss, 0.05);
        QVERIFY(form->validate());
        // BLE (the older key "ble": the pipelined SMP preset) differs, and a plan can take it:
        // the Budget tab lists link models only (issue 41), so Use in plan stays on.
        QVERIFY(budget->setLinkModel(QStringLiteral("ble")));
        QVERIFY(budget->deploymentBar()->differs());
        auto* use = child<QPushButton>(*budget, "budgetUseInPlan");
        QVERIFY2(use->isEnabled(), qPrintable(use->toolTip()));
        QVERIFY2(budget->deploymentBar()->text().contains(QStringLiteral("BLE firmware transfer (SMP, pipelined)")),
                 qPrintable(budget->deploymentBar()->text()));
        child<QPushButton>(*budget, "budgetResetToPlan")->click();
        QVERIFY(!budget->deploymentBar()->differs());
    }

    /// The report's fleet page is the Fleet tab's simulation: at a variation it says so.
    void theReportNamesAVariation()
    {
        MainWindow w;
        FleetPanel* fleet = w.resultsPanel()->fleetPanel();
        w.runBook()->clear();
        QVERIFY(w.runBook()->openFolder(run_) != 0);
        QVERIFY(settle(*fleet));
        QVERIFY(!fleet->reportFleet().series.empty());
        QVERIFY(fleet->reportFleet().notes.filter(QStringLiteral("variation")).isEmpty());
        QCOMPARE(fleet->reportFleet().config.groups[0].devices, w.planPanel()->plan().fleet.devices);
        child<QSpinBox>(*fleet->inputs(), "fleetDevices")->setValue(45);
        QVERIFY(settle(*fleet));
        const QStringList notes = fleet->reportFleet().notes;
        QVERIFY2(!notes.isEmpty() && notes.front().contains(QStringLiteral("variation"))
                     && notes.front().contains(QStringLiteral("45 devices instead of the plan's")),
                 qPrintable(notes.join(QLatin1Char('\n'))));
    }

    /// A plan opened from a file brings its deployment to both tabs.
    void anOpenedPlanBringsItsDeployment()
    {
        MainWindow w;
        dpu::Plan plan = w.planPanel()->plan();
        plan.fleet = flagshipPlan();
        plan.fleet.devices = 64;
        const QString path = tmp_.filePath(QStringLiteral("deployment.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(dpu::planToJson(plan)));
        f.close();
        QString error;
        QVERIFY2(w.openPlan(path, &error), qPrintable(error));
        QCOMPARE(w.resultsPanel()->fleetPanel()->inputs()->settings().devices, 64);
        QCOMPARE(w.resultsPanel()->fleetPanel()->inputs()->settings().link.sfMix, std::string("fuotasim"));
        QCOMPARE(w.resultsPanel()->budgetPanel()->devices(), 64);
    }

    /// After a restart the window shows its last plan, and both tabs start from its deployment
    /// (not from what they explored); what is the tabs' own (drain, processor, energy budget) stays.
    void aRestartStartsTheTabsFromThePlan()
    {
        {
            MainWindow w;
            w.planPanel()->setPlanFleet(flagshipPlan());
            FleetPanel* fleet = w.resultsPanel()->fleetPanel();
            dpu::Deployment s = fleet->inputs()->settings();
            s.link.sfMix.clear();
            s.link.spreadingFactor = 11; // explored, not used in the plan
            s.drainRounds = 4;
            s.cpu.cpu = dpu::CpuChoice::CortexM0;
            fleet->inputs()->setSettings(s);
            QVERIFY(fleet->deploymentBar()->differs());
            BudgetPanel* budget = w.resultsPanel()->budgetPanel();
            budget->setDevices(999);
            budget->setEnergyBudget(3);
            QVERIFY(budget->deploymentBar()->differs());
            w.show();
            QVERIFY(w.close());
        }
        MainWindow again;
        QVERIFY(compare::same(again.planPanel()->plan().fleet, flagshipPlan()));
        FleetPanel* fleet = again.resultsPanel()->fleetPanel();
        const dpu::Deployment s = fleet->inputs()->settings();
        QCOMPARE(s.link.sfMix, std::string("fuotasim"));
        QCOMPARE(s.devices, 321);
        QCOMPARE(s.link.dutyCycle, std::optional<double>(0.1));
        // A variation explored in the tab is not kept across a restart: the plan is.
        QCOMPARE(s.drainRounds, flagshipPlan().drainRounds);
        QVERIFY(s.cpu.cpu == flagshipPlan().cpu.cpu);
        QVERIFY(!fleet->deploymentBar()->differs());
        BudgetPanel* budget = again.resultsPanel()->budgetPanel();
        QCOMPARE(budget->devices(), 321);
        QCOMPARE(budgetShows(*budget).link.sfMix, std::string("fuotasim"));
        QCOMPARE(child<QDoubleSpinBox>(*budget, "budgetEnergy")->value(), 3.0);
        QVERIFY(!budget->deploymentBar()->differs());
    }
};

QTEST_MAIN(TestUiDeployment)
#include "test_ui_deployment.moc"
