// SPDX-License-Identifier: MIT
// The plan form's dialogs: Deployment… (the plan's link and fleet keys, a mix of its own kept as written) and Method… (mode and the paper's ablations).
#include "UiTestSupport.h"
#include "dpu/DeploymentFields.h"
#include "dpu/PlanFields.h"
#include "panels/FleetInputs.h"
#include "panels/PlanFleetDialog.h"
#include "panels/PlanMethodDialog.h"
#include "panels/PlanPanel.h"
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <set>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest/QtTest>

using dpu::ui::PlanPanel;

class TestUiPlanDialogs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(dpu::uitest::prepareUiTest(tmp_)); }

    /// The plan's link and fleet (fleet.* keys): the Deployment… button beside the link edits them in
    /// a dialog of the Fleet tab's link and fleet rows; plan() carries them; a link the model
    /// refuses is marked at the button, naming the key.
    void planFleetThroughItsDialog()
    {
        PlanPanel panel;
        auto* button = panel.findChild<QToolButton*>(QStringLiteral("planFleet"));
        QVERIFY(button);
        for (const dpu::PlanField& f : dpu::planFields())
            if (f.path.rfind("fleet.", 0) == 0 && !f.advanced)
                QCOMPARE(panel.fieldFor(QString::fromStdString(f.path)), static_cast<QWidget*>(button));
        dpu::ui::PlanFleetDialog dialog;
        // Every key of the deployment the window edits has its row here, and only those: a key
        // the table keeps to plan files (advanced) has none.
        for (const dpu::PlanField* f : dpu::deploymentFields()) {
            QWidget* w = dialog.inputs()->widgetFor(f->path);
            QVERIFY2(f->advanced ? w == nullptr : (w && w->isVisibleTo(&dialog)), f->path.c_str());
        }
        // The default plan's fleet (SF 0: the link's SF7) shows SF7, not the mix, and comes back
        // unchanged when nothing is edited: confirming the dialog does not rewrite the plan.
        dialog.setFleet(dpu::Deployment{});
        QCOMPARE(dialog.findChild<QComboBox*>(QStringLiteral("fleetSf"))->currentData().toInt(), 7);
        QCOMPARE(dpu::planToJson([&] {
                     dpu::Plan p = dpu::defaultPlan();
                     p.fleet = dialog.fleet();
                     return p;
                 }()),
                 dpu::planToJson(dpu::defaultPlan()));
        dpu::Deployment f;
        f.link.link = "lorawan-eu868";
        f.link.spreadingFactor = 10;
        f.link.dutyCycle = 0.1;
        f.link.frameLoss = 0.05;
        f.link.delivery = dpu::DeliveryChoice::Unicast;
        f.devices = 1234;
        f.availability = 0.9;
        f.roundPeriodHours = 3;
        dialog.setFleet(f);
        const dpu::Deployment back = dialog.fleet();
        QCOMPARE(back.link.link, f.link.link);
        QCOMPARE(back.link.spreadingFactor, 10);
        QCOMPARE(back.link.dutyCycle, std::optional<double>(0.1));
        QCOMPARE(back.link.frameLoss, 0.05);
        QVERIFY(back.link.delivery == dpu::DeliveryChoice::Unicast);
        QCOMPARE(back.devices, 1234);
        QCOMPARE(back.availability, 0.9);
        QCOMPARE(back.roundPeriodHours, 3.0);
        QSignalSpy edited(&panel, &PlanPanel::planEdited);
        panel.setPlanFleet(back);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(panel.plan().fleet.devices, 1234);
        QVERIFY2(button->toolTip().contains(QStringLiteral("1,234 devices")), qPrintable(button->toolTip()));
        QVERIFY(panel.validate());
        // The plan file keeps them; opening it again shows them.
        const dpu::Plan reread = dpu::parsePlan(dpu::planToJson(panel.plan()));
        panel.setPlan(reread);
        QCOMPARE(panel.plan().fleet.link.spreadingFactor, 10);
        // Multicast over BLE: refused at the button, naming the key.
        f.link.link = "ble-smp";
        f.link.spreadingFactor = 0;
        f.link.dutyCycle.reset();
        f.link.delivery = dpu::DeliveryChoice::Multicast;
        panel.setPlanFleet(f);
        QVERIFY(!panel.validate());
        QVERIFY2(panel.fieldError(QStringLiteral("fleet.link")).contains(QStringLiteral("multicast")),
                 qPrintable(panel.errorText()));
    }

    /// The paper's ablations (mode, reinit, reinit_every, fu_start, rewind) are edited in the
    /// Method… dialog beside λ, marked at its button, and kept in the plan file.
    void methodThroughItsDialog()
    {
        PlanPanel panel;
        auto* button = panel.findChild<QToolButton*>(QStringLiteral("planMethod"));
        QVERIFY(button);
        for (const char* key : {"mode", "reinit", "reinit_every", "fu_start", "rewind", "deployed", "deployed_sparsity"})
            QCOMPARE(panel.fieldFor(QString::fromLatin1(key)), static_cast<QWidget*>(button));
        QVERIFY2(button->toolTip().contains(QStringLiteral("the paper's rule")), qPrintable(button->toolTip()));
        const dpu::Plan start = panel.plan();
        // Confirmed untouched: the plan is as it was, and no edit is reported.
        QSignalSpy edited(&panel, &PlanPanel::planEdited);
        QTimer::singleShot(0, this, [] {
            if (auto* d = qobject_cast<dpu::ui::PlanMethodDialog*>(QApplication::activeModalWidget()))
                d->accept();
        });
        panel.editPlanMethod();
        QCOMPARE(dpu::planToJson(panel.plan()), dpu::planToJson(start));
        QCOMPARE(edited.count(), 0);
        // Every 5 rounds, FU from a new random model, rewinding: through the dialog as a user does.
        QTimer::singleShot(0, this, [] {
            auto* d = qobject_cast<dpu::ui::PlanMethodDialog*>(QApplication::activeModalWidget());
            QVERIFY(d);
            auto* reinit = d->findChild<QComboBox*>(QStringLiteral("methodReinit"));
            auto* every = d->findChild<QSpinBox*>(QStringLiteral("methodReinitEvery"));
            QVERIFY(!every->isEnabled()); // the rule needs no n
            reinit->setCurrentIndex(1);
            QVERIFY(every->isEnabled());
            every->setValue(5);
            d->findChild<QComboBox*>(QStringLiteral("methodFuStart"))->setCurrentIndex(1);
            d->findChild<QCheckBox*>(QStringLiteral("methodRewind"))->setChecked(true);
            d->accept();
        });
        panel.editPlanMethod();
        QCOMPARE(edited.count(), 1);
        dpu::Plan p = panel.plan();
        QVERIFY(p.reinit);
        QCOMPARE(p.reinitEvery, 5);
        QVERIFY(p.fuStart == dpu::FuStart::Fresh);
        QVERIFY(p.rewind);
        QVERIFY(panel.validate());
        QVERIFY2(button->toolTip().contains(QStringLiteral("every 5 rounds")), qPrintable(button->toolTip()));
        // Kept in the plan file and shown again from it.
        const dpu::Plan reread = dpu::parsePlan(dpu::planToJson(p));
        QCOMPARE(reread.reinitEvery, 5);
        dpu::ui::PlanMethodDialog dialog;
        dialog.setPlan(reread);
        dpu::Plan back = dpu::defaultPlan();
        dialog.applyTo(back);
        QCOMPARE(back.reinitEvery, 5);
        QVERIFY(back.rewind && back.fuStart == dpu::FuStart::Fresh);
        // A plan file's rewind_epochs stays with rewinding and leaves with it (the engine refuses it alone).
        back.rewindEpochs = 2;
        dialog.applyTo(back);
        QCOMPARE(back.rewindEpochs, 2);
        dialog.findChild<QCheckBox*>(QStringLiteral("methodRewind"))->setChecked(false);
        dialog.applyTo(back);
        QCOMPARE(back.rewindEpochs, 0);
        dialog.findChild<QCheckBox*>(QStringLiteral("methodRewind"))->setChecked(true);
        // Never; single mode leaves rewinding to itself.
        dialog.findChild<QComboBox*>(QStringLiteral("methodReinit"))->setCurrentIndex(2);
        dialog.findChild<QComboBox*>(QStringLiteral("methodMode"))->setCurrentIndex(1);
        QVERIFY(!dialog.findChild<QCheckBox*>(QStringLiteral("methodRewind"))->isEnabled());
        dialog.applyTo(back);
        QVERIFY(!back.reinit);
        QCOMPARE(back.reinitEvery, 0);
        QVERIFY(back.mode == dpu::RunMode::Single);
        // A combination the engine refuses is named at the button.
        dpu::Plan bad = dpu::defaultPlan();
        bad.mode = dpu::RunMode::Single;
        bad.reinitEvery = 3;
        panel.setPlan(bad);
        QVERIFY(!panel.validate());
        QVERIFY2(panel.fieldError(QStringLiteral("reinit_every")).contains(QStringLiteral("single mode")),
                 qPrintable(panel.errorText()));
    }

    /// A sparse deployed model (the paper's Table 3) through the dialog: the sparsity box
    /// follows the choice, the plan gets both keys, the button says so, and a k beyond the
    /// nonzeros is named at the k field. Back to dense, the sparsity leaves the plan.
    void sparseDeployedModelThroughTheDialog()
    {
        PlanPanel panel;
        auto* button = panel.findChild<QToolButton*>(QStringLiteral("planMethod"));
        QTimer::singleShot(0, this, [] {
            auto* d = qobject_cast<dpu::ui::PlanMethodDialog*>(QApplication::activeModalWidget());
            QVERIFY(d);
            auto* sparsity = d->findChild<QSpinBox*>(QStringLiteral("methodSparsity"));
            QVERIFY(!sparsity->isEnabled()); // a dense model has no sparsity
            auto* reinit = d->findChild<QComboBox*>(QStringLiteral("methodReinit"));
            reinit->setCurrentIndex(1); // every n rounds, then sparse: nothing re-initialises
            d->findChild<QComboBox*>(QStringLiteral("methodDeployed"))->setCurrentIndex(1);
            QVERIFY(sparsity->isEnabled());
            QVERIFY(!reinit->isEnabled());
            QVERIFY(!d->findChild<QSpinBox*>(QStringLiteral("methodReinitEvery"))->isEnabled());
            sparsity->setValue(75);
            d->accept();
        });
        panel.editPlanMethod();
        dpu::Plan p = panel.plan();
        QVERIFY(p.deployed == dpu::DeployedForm::Sparse);
        QCOMPARE(p.deployedSparsity, 0.75);
        QCOMPARE(p.reinitEvery, 0);
        QVERIFY(panel.validate());
        QVERIFY2(button->toolTip().contains(QStringLiteral("75 %-sparse")), qPrintable(button->toolTip()));
        QVERIFY2(button->toolTip().contains(QStringLiteral("never re-initialised")), qPrintable(button->toolTip()));
        p.k = 0.3;
        panel.setPlan(p);
        QVERIFY(!panel.validate());
        QVERIFY2(panel.fieldError(QStringLiteral("k")).contains(QStringLiteral("1 - deployed_sparsity")),
                 qPrintable(panel.errorText()));
        dpu::ui::PlanMethodDialog dialog;
        dialog.setPlan(p);
        QCOMPARE(dialog.findChild<QSpinBox*>(QStringLiteral("methodSparsity"))->value(), 75);
        dialog.findChild<QComboBox*>(QStringLiteral("methodDeployed"))->setCurrentIndex(0);
        dialog.applyTo(p);
        QVERIFY(p.deployed == dpu::DeployedForm::Fp32);
        QVERIFY(dpu::planToJson(p).find("deployed") == std::string::npos);
    }

    /// The INT8 deployed model chosen in the same row: no sparsity, no re-initialisation, kept
    /// in the plan and named in the button's tooltip.
    void int8DeployedModelThroughTheDialog()
    {
        PlanPanel panel;
        auto* button = panel.findChild<QToolButton*>(QStringLiteral("planMethod"));
        QTimer::singleShot(0, this, [] {
            auto* d = qobject_cast<dpu::ui::PlanMethodDialog*>(QApplication::activeModalWidget());
            QVERIFY(d);
            auto* deployed = d->findChild<QComboBox*>(QStringLiteral("methodDeployed"));
            deployed->setCurrentIndex(deployed->findData(static_cast<int>(dpu::DeployedForm::Int8)));
            QVERIFY(deployed->currentIndex() > 0);
            QVERIFY(!d->findChild<QSpinBox*>(QStringLiteral("methodSparsity"))->isEnabled());
            QVERIFY(!d->findChild<QComboBox*>(QStringLiteral("methodReinit"))->isEnabled());
            d->accept();
        });
        panel.editPlanMethod();
        const dpu::Plan p = panel.plan();
        QVERIFY(p.deployed == dpu::DeployedForm::Int8);
        QCOMPARE(p.deployedSparsity, 0.5); // left at its default: the plan refuses a sparsity here
        QVERIFY(panel.validate());
        QVERIFY2(button->toolTip().contains(QStringLiteral("INT8 deployed model")), qPrintable(button->toolTip()));
        QVERIFY(dpu::planToJson(p).find("\"deployed\": \"int8\"") != std::string::npos);
        // Its biases are its own int8 codes (int8_biases, the default): the Biases row is not the
        // plan's to choose, and says why; with float biases it is again.
        auto* biases = panel.findChild<QComboBox*>(QStringLiteral("bundleDense"));
        QVERIFY(!biases->isEnabled());
        QVERIFY2(biases->toolTip().contains(QStringLiteral("int8 codes of its own")), qPrintable(biases->toolTip()));
        dpu::Plan floats = p;
        floats.int8Biases = dpu::Int8Biases::Float;
        panel.setPlan(floats);
        QVERIFY(biases->isEnabled());
    }

    /// A plan's own SF mix shows as written in the dialog's SF list and comes back as written
    /// (it once came back as FUOTASim's), through the Fleet tab's settings too.
    void ownSpreadingFactorMixKeptAsWritten()
    {
        dpu::ui::PlanFleetDialog dialog;
        auto* sf = dialog.findChild<QComboBox*>(QStringLiteral("fleetSf"));
        const int entries = sf->count();
        dpu::Deployment f;
        f.link.sfMix = "7:50,12:50";
        dialog.setFleet(f);
        QVERIFY2(sf->currentText().contains(QStringLiteral("7:50,12:50")), qPrintable(sf->currentText()));
        QCOMPARE(sf->count(), entries + 1);
        dialog.findChild<QSpinBox*>(QStringLiteral("fleetDevices"))->setValue(99); // another row edited
        QCOMPARE(dialog.fleet().link.sfMix, std::string("7:50,12:50"));
        QCOMPARE(dialog.fleet().devices, 99);
        QCOMPARE(dialog.fleet().link.spreadingFactor, 0);
        // Kept through a plan file and shown again.
        dpu::Plan plan;
        plan.fleet = dialog.fleet();
        dpu::ui::PlanFleetDialog again;
        again.setFleet(dpu::parsePlan(dpu::planToJson(plan)).fleet);
        QCOMPARE(again.inputs()->settings().link.sfMix, std::string("7:50,12:50"));
        // FUOTASim's entry chosen: its mix; a plan without a mix drops the own entry.
        sf->setCurrentIndex(sf->findData(0));
        QCOMPARE(dialog.fleet().link.sfMix, std::string("fuotasim"));
        dialog.setFleet(dpu::Deployment{});
        QCOMPARE(sf->count(), entries);
        QCOMPARE(sf->currentData().toInt(), 7);
    }

    /// The form's and the Method dialog's enabling is the engine's field table: for plans that
    /// switch each rule, every bound widget (or combo item) is on exactly where its field (or
    /// choice) applies, and every ruled field the form shows has a binding.
    void enablingFollowsTheFieldTable_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("default") << "{}";
        QTest::newRow("sparse") << R"({"deployed": "sparse", "strategies": ["fu", "dpu"]})";
        QTest::newRow("int8") << R"({"deployed": "int8", "strategies": ["fu", "dpu"]})";
        QTest::newRow("single") << R"({"mode": "single", "rewind_epochs": 1})";
        QTest::newRow("never") << R"({"reinit": false})";
        QTest::newRow("every 3") << R"({"reinit_every": 3})";
        QTest::newRow("lossy") << R"({"bundle": {"values": "q4", "dense_tensors": "coded", "quant_aware": true}})";
        QTest::newRow("budget") << R"({"budget": {"bytes_per_round": 5000}})";
        QTest::newRow("pruning") << R"({"strategies": ["fu", "dpu", "pruning"]})";
    }
    void enablingFollowsTheFieldTable()
    {
        QFETCH(QString, json);
        const dpu::Plan plan = dpu::parsePlan(json.toStdString());
        PlanPanel panel;
        panel.setPlan(plan);
        dpu::ui::PlanMethodDialog dialog;
        dialog.setPlan(plan);
        std::set<std::string> bound;
        for (const dpu::ui::FieldEnabling* enabling : {&panel.enabling(), &dialog.enabling()})
            for (const dpu::ui::FieldEnabling::Bound& b : enabling->bound()) {
                bound.insert(b.path);
                std::string why;
                const bool applies = b.choice.empty() ? dpu::fieldApplies(b.path, plan)
                                                      : dpu::choiceApplies(b.path, b.choice, plan, &why);
                const bool expected = applies && (!b.also || b.also());
                bool enabled = b.widget->isEnabled();
                QString tip = b.widget->toolTip();
                if (b.item >= 0) {
                    const auto* model = qobject_cast<QStandardItemModel*>(static_cast<QComboBox*>(b.widget.data())->model());
                    enabled = model->item(b.item)->isEnabled();
                    tip = model->item(b.item)->toolTip();
                }
                const QByteArray what = QByteArray::fromStdString(b.path + " " + b.choice);
                QVERIFY2(enabled == expected, what.constData());
                // A widget that is off says the table's reason.
                if (!applies) {
                    if (why.empty())
                        why = dpu::whyFieldOff(b.path, plan);
                    QVERIFY2(tip.contains(QString::fromStdString(why)), qPrintable(tip));
                }
            }
        // The deployment's keys are the Deployment dialog's rows, bound there.
        dpu::ui::PlanFleetDialog fleetDialog;
        std::set<std::string> fleetBound;
        for (const dpu::ui::FieldEnabling::Bound& b : fleetDialog.inputs()->enabling().bound())
            fleetBound.insert(b.path);
        for (const dpu::CpuChoice cpu : {dpu::CpuChoice::None, dpu::CpuChoice::CortexM4}) {
            dpu::Plan withCpu;
            withCpu.fleet.cpu.cpu = cpu;
            fleetDialog.setFleet(withCpu.fleet);
            for (const dpu::ui::FieldEnabling::Bound& b : fleetDialog.inputs()->enabling().bound())
                QVERIFY2(b.widget->isEnabled() == dpu::ui::FieldEnabling::shouldEnable(b, withCpu), b.path.c_str());
        }
        for (const dpu::PlanField& f : dpu::planFields())
            if (!f.advanced && (!f.appliesWhen.empty() || !f.choiceRules.empty()))
                QVERIFY2((f.path.rfind("fleet.", 0) == 0 ? fleetBound : bound).count(f.path), f.path.c_str()); // a ruled field without its rule
    }
};

QTEST_MAIN(TestUiPlanDialogs)
#include "test_ui_plan_dialogs.moc"
