// SPDX-License-Identifier: MIT
// The Budget tab on a link model: the recommended round's airtime, wall time and energy from core's linkRound, the budget as a time window or an energy, and what the settings keep (not the link: the plan's deployment).
#include "BudgetTestSupport.h"
#include "MainWindow.h"
#include "dpu/DeploymentModel.h"
#include "UiTestSupport.h"
#include "panels/BudgetPanel.h"
#include "panels/LinkFigures.h"
#include "panels/PlanDeploymentBar.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QToolButton>
#include <QtTest/QtTest>
#include <cmath>

using dpu::ui::BudgetPanel;
using dpu::ui::MainWindow;
using dpu::uitest::kModel;
using dpu::uitest::labelText;
using dpu::uitest::linkOf;
using dpu::uitest::planAt;

class TestUiBudgetLink : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
    }

    void linkModelAnswersInAirtimeWallTimeAndEnergy()
    {
        BudgetPanel panel;
        panel.setCostModel(kModel);
        panel.setReferencePlan(planAt(0.01));
        panel.setDevices(200);
        panel.setBudgetBytes(2000);
        QVERIFY(panel.recommendation().found);
        // Every entry of the list is a link model (issue 41: no bare rates beside them), the Fleet
        // tab's list: the first, LoRaWAN EU868 at SF7, answers in frames and energy at once.
        auto* list = panel.findChild<QComboBox*>(QStringLiteral("budgetLink"));
        QVERIFY(list);
        for (int i = 0; i < list->count(); ++i) {
            const std::string key = list->itemData(i, Qt::UserRole + 1).toString().toStdString();
            QVERIFY2(key == "lorawan-eu868" || key == "lorawan-us915" || dpu::linkPreset(key).key == key, key.c_str());
        }
        QCOMPARE(list->count(), 7); // the two regions, NB-IoT Cat-NB1 and NB2, LTE-M, BLE SMP one at a time and pipelined
        QVERIFY(panel.linkRound());
        QVERIFY2(labelText(panel, "budgetLinkRound").contains(QStringLiteral("SF7")), qPrintable(labelText(panel, "budgetLinkRound")));
        QVERIFY(!panel.setLinkModel(QStringLiteral("no-such-link")));

        // LoRaWAN EU868 at SF9 (1 % sub-band, multicast, Class C): core's linkRound of the
        // recommended bytes to the 200 devices; a byte budget stays a byte budget.
        QVERIFY(panel.setLinkModel(QStringLiteral("lorawan-eu868"), 9));
        QCOMPARE(panel.budgetBits(), 16000.0);
        const int64_t bytes = std::llround(panel.recommendation().bytesPerRound);
        QVERIFY2(bytes > 1000 && bytes <= 2000, qPrintable(QString::number(bytes)));
        const dpu::Link sf9 = dpu::lorawanEu868(9);
        const dpu::LinkRound expected = dpu::linkRound(sf9, bytes, 200);
        QVERIFY(panel.linkRound());
        const dpu::LinkRound got = *panel.linkRound();
        QCOMPARE(got.bytes, bytes);
        QCOMPARE(got.frames, expected.frames);
        QCOMPARE(got.airtime, expected.airtime);
        QCOMPARE(got.wallTime, expected.wallTime);
        QCOMPARE(got.energyPerDevice, expected.energyPerDevice);
        QCOMPARE(got.batteryShare, expected.batteryShare);
        // SF9 carries 115 B a frame, 3 of them TS004's fragment header: 112 data bytes a fragment.
        QCOMPARE(got.fragments, (bytes + 111) / 112);
        QVERIFY(got.frames > got.fragments); // the erasure code's extra fragments
        // The duty cycle is in the wall time (1 % of the time on air), and a Class C device
        // listens until it decodes (issue 41: it leaves then), at most the whole session.
        QVERIFY2(got.wallTime >= got.airtime / 0.01 - 1e-9, qPrintable(QString::number(got.wallTime)));
        QVERIFY(got.listenSeconds <= got.wallTime - sf9.sessionSeconds + 1e-9 && got.listenSeconds > 0.9 * got.wallTime);
        QVERIFY(std::abs(got.energyPerDevice - (sf9.rxWatts * got.listenSeconds + sf9.sessionJoules)) < 1e-9);
        QCOMPARE(labelText(panel, "budgetAirtime"), dpu::ui::linkDurationText(expected.airtime));
        QCOMPARE(labelText(panel, "budgetWallTime"), dpu::ui::linkDurationText(expected.wallTime));
        QVERIFY(labelText(panel, "budgetEnergyPerDevice").startsWith(dpu::ui::linkEnergyText(expected.energyPerDevice)));
        QCOMPARE(labelText(panel, "budgetBatteryShare"), dpu::ui::batteryShareText(expected.batteryShare));
        QVERIFY2(labelText(panel, "budgetLinkRound").contains(QStringLiteral("SF9"))
                     && labelText(panel, "budgetLinkRound").contains(QStringLiteral("multicast to 200")),
                 qPrintable(labelText(panel, "budgetLinkRound")));
        // Each figure says what it means.
        for (const char* name : {"budgetAirtime", "budgetWallTime", "budgetEnergyPerDevice", "budgetBatteryShare", "budgetLinkRound"})
            QVERIFY2(!panel.findChild<QLabel*>(QString::fromLatin1(name))->toolTip().isEmpty(), name);
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("budgetWallTime"))->toolTip().contains(QStringLiteral("duty cycle")));

        // A multicast is sent once for every device; NB-IoT's unicast once per device, each
        // session with its fixed attach energy (2 J).
        panel.setDevices(2000);
        QCOMPARE(panel.linkRound()->airtime, expected.airtime);
        QVERIFY(panel.setLinkModel(QStringLiteral("NB-IoT"))); // the older key: the preset it stood for
        QCOMPARE(list->currentData(Qt::UserRole + 1).toString(), QStringLiteral("nb-iot-nb2"));
        panel.setDevices(10);
        const dpu::Link nb = dpu::linkPreset("nb-iot-nb2");
        QCOMPARE(panel.linkRound()->airtime, dpu::linkRound(nb, bytes, 10).airtime);
        QVERIFY(std::abs(panel.linkRound()->airtime - 10 * dpu::linkRound(nb, bytes, 1).airtime) < 1e-9);
        QVERIFY(panel.linkRound()->energyPerDevice >= nb.sessionJoules);
        QVERIFY(labelText(panel, "budgetLinkRound").contains(QStringLiteral("unicast to 10")));
        QVERIFY(!panel.findChild<QComboBox*>(QStringLiteral("budgetSf"))->isVisibleTo(&panel)); // no SF outside LoRa
    }

    /// The sub-band, frame loss, delivery and target are the Budget tab's too (they were the
    /// Fleet tab's and the CLI's only): the round is core's linkRound with all of them.
    void subBandLossDeliveryAndTargetShapeTheRound()
    {
        BudgetPanel panel;
        panel.setCostModel(kModel);
        panel.setReferencePlan(planAt(0.01));
        panel.setDevices(200);
        panel.setBudgetBytes(2000);
        auto* duty = panel.findChild<QComboBox*>(QStringLiteral("budgetDutyCycle"));
        auto* loss = panel.findChild<QDoubleSpinBox*>(QStringLiteral("budgetLoss"));
        auto* delivery = panel.findChild<QComboBox*>(QStringLiteral("budgetDelivery"));
        auto* target = panel.findChild<QDoubleSpinBox*>(QStringLiteral("budgetTarget"));
        auto* scope = panel.findChild<QComboBox*>(QStringLiteral("budgetTargetScope"));
        QVERIFY(duty && loss && delivery && target && scope);
        // Folded under the link until asked for (the column stays in view at 1366x768).
        for (QWidget* w : std::initializer_list<QWidget*>{duty, loss, delivery, target, scope})
            QVERIFY2(!w->isVisibleTo(&panel), qPrintable(w->objectName()));
        auto* details = panel.findChild<QToolButton*>(QStringLiteral("budgetLinkDetails"));
        QVERIFY(details && details->isVisibleTo(&panel));
        QVERIFY(panel.setLinkModel(QStringLiteral("lorawan-eu868"), 9));
        QVERIFY(details->isVisibleTo(&panel));
        QVERIFY(!loss->isVisibleTo(&panel));
        details->click();
        for (QWidget* w : std::initializer_list<QWidget*>{duty, loss, delivery, target, scope})
            QVERIFY2(w->isVisibleTo(&panel), qPrintable(w->objectName()));
        const int64_t bytes = std::llround(panel.recommendation().bytesPerRound);
        const auto roundWith = [bytes](double dutyCycle, double frameLoss, dpu::DeliveryChoice d, dpu::RoundTarget t) {
            dpu::DeploymentLink s;
            s.link = "lorawan-eu868";
            s.spreadingFactor = 9;
            s.dutyCycle = dutyCycle;
            s.frameLoss = frameLoss;
            s.delivery = d;
            return dpu::linkRound(dpu::linkOf(s), bytes, 200, t);
        };
        const dpu::LinkRound plain = *panel.linkRound();
        QCOMPARE(plain.wallTime, roundWith(0.01, 0, dpu::DeliveryChoice::Preset, {}).wallTime);
        // The 10 % sub-band: the same frames in a tenth of the wall time.
        duty->setCurrentIndex(duty->findData(0.1));
        QCOMPARE(panel.linkRound()->frames, plain.frames);
        QCOMPARE(panel.linkRound()->wallTime, roundWith(0.1, 0, dpu::DeliveryChoice::Preset, {}).wallTime);
        QVERIFY(panel.linkRound()->wallTime < plain.wallTime / 5);
        // 10 % of the frames lost: more redundancy for the same 99 % per device.
        loss->setValue(10);
        const dpu::LinkRound lossy = roundWith(0.1, 0.1, dpu::DeliveryChoice::Preset, {});
        QCOMPARE(panel.linkRound()->frames, lossy.frames);
        QVERIFY(lossy.redundancy > plain.redundancy);
        QVERIFY2(labelText(panel, "budgetLinkRound").contains(QStringLiteral("at 10 %, 10 % loss")),
                 qPrintable(labelText(panel, "budgetLinkRound")));
        // Every one of the 200 devices completing with 99.9 %: more again.
        target->setValue(99.9);
        scope->setCurrentIndex(scope->findData(true));
        const dpu::RoundTarget every{0.999, true};
        QCOMPARE(panel.linkRound()->frames, roundWith(0.1, 0.1, dpu::DeliveryChoice::Preset, every).frames);
        QVERIFY(panel.linkRound()->redundancy > lossy.redundancy);
        QCOMPARE(panel.linkRound()->deviceProbability, roundWith(0.1, 0.1, dpu::DeliveryChoice::Preset, every).deviceProbability);
        // Unicast: the gateway sends to each device in turn.
        delivery->setCurrentIndex(delivery->findData(static_cast<int>(dpu::DeliveryChoice::Unicast)));
        const dpu::LinkRound uni = roundWith(0.1, 0.1, dpu::DeliveryChoice::Unicast, every);
        QCOMPARE(panel.linkRound()->airtime, uni.airtime);
        QVERIFY(uni.airtime > 100 * lossy.airtime);
        QVERIFY(labelText(panel, "budgetLinkRound").contains(QStringLiteral("unicast to 200")));
        // The sub-band is EU868's: hidden on US915, whose duty cycle is none.
        QVERIFY(panel.setLinkModel(QStringLiteral("lorawan-us915"), 9));
        QVERIFY(!duty->isVisibleTo(&panel));
        QVERIFY(loss->isVisibleTo(&panel));
    }

    void windowAndEnergyGiveTheLargestBundleThatFits()
    {
        BudgetPanel panel;
        panel.setCostModel(kModel);
        panel.setReferencePlan(planAt(0.01));
        panel.setDevices(50);
        QVERIFY(panel.setLinkModel(QStringLiteral("lorawan-eu868"), 7));
        const dpu::Link sf7 = linkOf("lorawan-eu868", 7);
        // A window in which 3000 B go out: dpu-cli budget --link lorawan-eu868 --sf 7 --window S
        // --devices 50 answers with core's inversion; the window must give the same bytes.
        // Whole seconds: the field keeps three decimals, and a window rounded down would fit less.
        const double window = std::ceil(dpu::linkRound(sf7, 3000, 50).wallTime);
        panel.setWindowBudget(window);
        const int64_t fit = dpu::largestBytesForWallTime(sf7, window, 50);
        QVERIFY2(fit >= 3000, qPrintable(QString::number(fit)));
        QCOMPARE(panel.budgetBits(), 8.0 * static_cast<double>(fit));
        QVERIFY(panel.budgetError().isEmpty());
        QVERIFY(dpu::linkRound(sf7, fit + 1, 50).wallTime > window); // the largest: one byte more is late
        // The recommendation and the cost model's k are those of that byte budget.
        const dpu::Recommendation cli = dpu::recommend(nullptr, planAt(0.01), kModel, {dpu::Budget::Scope::PerRound, static_cast<double>(fit)});
        QVERIFY(cli.found && panel.recommendation().found);
        QCOMPARE(panel.recommendation().family, cli.family);
        QCOMPARE(panel.recommendation().k, cli.k);
        QCOMPARE(panel.recommendation().bytesPerRound, cli.bytesPerRound);
        QCOMPARE(panel.largestK(), dpu::largestKForBudget(kModel, 8.0 * static_cast<double>(fit)));
        QVERIFY(panel.linkRound() && panel.linkRound()->wallTime <= window);
        QCOMPARE(panel.linkRound()->bytes, std::llround(cli.bytesPerRound));

        // An energy per device: the largest bundle whose round costs each device no more.
        const double joules = std::ceil(dpu::linkRound(sf7, 2000, 50).energyPerDevice * 1e4) / 1e4; // the field's 4 decimals
        panel.setEnergyBudget(joules);
        const int64_t fitJ = dpu::largestBytesForEnergy(sf7, joules, 50);
        QVERIFY(fitJ >= 2000);
        QCOMPARE(panel.budgetBits(), 8.0 * static_cast<double>(fitJ));
        QVERIFY(panel.linkRound() && panel.linkRound()->energyPerDevice <= joules);
        QCOMPARE(panel.findChild<QDoubleSpinBox*>(QStringLiteral("budgetEnergy"))->value(), joules);
    }

    void windowTooShortForOneByteSaysSoAtTheField()
    {
        BudgetPanel panel;
        panel.setCostModel(kModel);
        panel.setReferencePlan(planAt(0.01));
        panel.setDevices(50);
        panel.show();
        QVERIFY(panel.setLinkModel(QStringLiteral("lorawan-eu868"), 12));
        QCOMPARE(dpu::largestBytesForWallTime(linkOf("lorawan-eu868", 12), 10, 50), int64_t{0}); // the premise
        panel.setWindowBudget(10);
        QCOMPARE(panel.budgetBits(), 0.0);
        auto* error = panel.findChild<QLabel*>(QStringLiteral("fieldError_budgetWindow"));
        QVERIFY(error);
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().startsWith(QStringLiteral("Time window: expected at least "))
                     && error->text().contains(QStringLiteral("SF12")) && error->text().contains(QStringLiteral("found 10.0 s")),
                 qPrintable(error->text()));
        QCOMPARE(panel.budgetError(), error->text());
        auto* field = panel.findChild<QDoubleSpinBox*>(QStringLiteral("budgetWindow"));
        QCOMPARE(field->toolTip(), error->text()); // the field is marked with the reason
        QVERIFY(!panel.recommendation().found);
        QVERIFY(!panel.linkRound());
        QVERIFY2(labelText(panel, "budgetRecommendation").startsWith(QStringLiteral("none: Time window:")),
                 qPrintable(labelText(panel, "budgetRecommendation")));
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("budgetUseRecommendation"))->isEnabled());
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("budgetUseK"))->isEnabled());
        // A window long enough clears the mark.
        panel.setWindowBudget(3600);
        QVERIFY(panel.budgetBits() > 0);
        QVERIFY(!error->isVisible());
        QVERIFY(panel.budgetError().isEmpty());
        QVERIFY(panel.recommendation().found);

        // NB-IoT's attach and connection alone cost 2 J: 1 J a device buys no byte.
        QVERIFY(panel.setLinkModel(QStringLiteral("nb-iot-nb2")));
        panel.setEnergyBudget(1);
        QCOMPARE(panel.budgetBits(), 0.0);
        auto* energyError = panel.findChild<QLabel*>(QStringLiteral("fieldError_budgetEnergy"));
        QVERIFY(energyError && energyError->isVisible());
        QVERIFY2(energyError->text().startsWith(QStringLiteral("Energy: expected at least 2."))
                     && energyError->text().contains(QStringLiteral("found 1.00 J")),
                 qPrintable(energyError->text()));
        // Every entry is a link model, so every one answers an energy: "ble", the older key, is
        // the pipelined SMP preset, whose session costs 5 mJ.
        QVERIFY(panel.setLinkModel(QStringLiteral("ble")));
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("budgetLink"))->currentData(Qt::UserRole + 1).toString(),
                 QStringLiteral("ble-smp-pipelined"));
        QVERIFY2(panel.budgetError().isEmpty(), qPrintable(panel.budgetError()));
        QCOMPARE(panel.budgetBits(), 8.0 * static_cast<double>(dpu::largestBytesForEnergy(dpu::bleSmp(true), 1, panel.devices(), {})));
        QVERIFY(panel.budgetBits() > 0);
    }

    /// The settings keep the budget (its kind, the energy, the target); the link, its SF, loss
    /// and delivery and the devices are the plan's deployment after a restart, not what the tab
    /// explored before it.
    void settingsKeepTheBudgetNotTheLink()
    {
        {
            MainWindow w;
            BudgetPanel* budget = w.resultsPanel()->budgetPanel();
            QVERIFY(budget->setLinkModel(QStringLiteral("lorawan-eu868"), 10));
            budget->setEnergyBudget(25);
            budget->setDevices(77);
            budget->findChild<QDoubleSpinBox*>(QStringLiteral("budgetLoss"))->setValue(5);
            auto* delivery = budget->findChild<QComboBox*>(QStringLiteral("budgetDelivery"));
            delivery->setCurrentIndex(delivery->findData(static_cast<int>(dpu::DeliveryChoice::Unicast)));
            budget->findChild<QDoubleSpinBox*>(QStringLiteral("budgetTarget"))->setValue(99.5);
            QVERIFY(budget->deploymentBar()->differs()); // a variation of the plan's, not saved
            w.show();
            QVERIFY(w.close());
        }
        MainWindow again;
        BudgetPanel* budget = again.resultsPanel()->budgetPanel();
        QVERIFY(budget->findChild<QRadioButton*>(QStringLiteral("budgetByEnergy"))->isChecked());
        QCOMPARE(budget->findChild<QDoubleSpinBox*>(QStringLiteral("budgetEnergy"))->value(), 25.0);
        QCOMPARE(budget->findChild<QDoubleSpinBox*>(QStringLiteral("budgetTarget"))->value(), 99.5);
        const dpu::Deployment plan = again.planPanel()->plan().fleet;
        QCOMPARE(budget->findChild<QComboBox*>(QStringLiteral("budgetSf"))->currentData().toInt(),
                 plan.link.spreadingFactor > 0 ? plan.link.spreadingFactor : 7);
        QCOMPARE(budget->devices(), plan.devices);
        QCOMPARE(budget->findChild<QDoubleSpinBox*>(QStringLiteral("budgetLoss"))->value(), 100 * plan.link.frameLoss);
        QCOMPARE(budget->findChild<QComboBox*>(QStringLiteral("budgetDelivery"))->currentData().toInt(),
                 static_cast<int>(plan.link.delivery));
        QVERIFY(!budget->deploymentBar()->differs());
        const int64_t fit = dpu::largestBytesForEnergy(dpu::slowestLinkOf(plan.link), 25, plan.devices,
                                                       {0.995, false});
        QVERIFY(fit > 0);
        QCOMPARE(budget->budgetBits(), 8.0 * static_cast<double>(fit));
    }
};

QTEST_MAIN(TestUiBudgetLink)
#include "test_ui_budget_link.moc"
