// SPDX-License-Identifier: MIT
// The window's rows for issue 41 item 5 (loss spread, device class, ping period, leaving) in the Fleet tab's inputs and the plan's Deployment… dialog: shown, read back, saved, enabled where they apply.
#include "dpu/DeploymentModel.h"
#include "panels/FleetInputs.h"
#include "panels/PlanFleetDialog.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

dpu::Deployment classB()
{
    dpu::Deployment s = dpu::ui::FleetInputs::flagship();
    s.link.frameLoss = 0.1;
    s.link.frameLossSpread = 0.05;
    s.link.deviceClass = dpu::DeviceClassChoice::B;
    s.link.pingPeriodicity = 4;
    s.link.leaveWhenDecoded = false;
    return s;
}

template <class W> W* child(QWidget& parent, const char* name)
{
    W* w = parent.findChild<W*>(QString::fromLatin1(name));
    if (!w)
        qFatal("no widget %s", name);
    return w;
}

} // namespace

class TestUiLinkDeviceRows : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsAndReadsBack()
    {
        dpu::ui::FleetInputs inputs;
        inputs.setSettings(classB());
        const dpu::DeploymentLink l = inputs.settings().link;
        QCOMPARE(l.frameLossSpread, 0.05);
        QCOMPARE(l.deviceClass, dpu::DeviceClassChoice::B);
        QCOMPARE(l.pingPeriodicity, 4);
        QCOMPARE(l.leaveWhenDecoded, false);
        QVERIFY(child<QComboBox>(inputs, "fleetPingPeriod")->isEnabled());
        // The link they make: Class B at 15.36 s, the spread, staying to the end.
        const dpu::Link link = dpu::linkOf(l);
        QCOMPARE(link.listening, dpu::LinkListening::PingSlots);
        QCOMPARE(link.pingSlotPeriodSeconds, 15.36);
        QCOMPARE(link.frameLossSpread, 0.05);
        QVERIFY(!link.leaveWhenDecoded);
    }

    void enabledWhereTheyApply()
    {
        dpu::ui::FleetInputs inputs;
        inputs.setSettings(classB());
        auto* deviceClass = child<QComboBox>(inputs, "fleetDeviceClass");
        deviceClass->setCurrentIndex(deviceClass->findData(static_cast<int>(dpu::DeviceClassChoice::C)));
        QVERIFY(!child<QComboBox>(inputs, "fleetPingPeriod")->isEnabled()); // Class C has no ping slots
        // The spread cannot pass the loss (validateLink would refuse it).
        child<QDoubleSpinBox>(inputs, "fleetLoss")->setValue(3);
        QCOMPARE(child<QDoubleSpinBox>(inputs, "fleetLossSpread")->maximum(), 3.0);
        QVERIFY(inputs.settings().link.frameLossSpread <= 0.03 + 1e-12);
        // A preset without LoRaWAN classes: the class row is off and the settings carry none.
        dpu::Deployment nb = classB();
        nb.link.link = "nb-iot-nb1";
        inputs.setSettings(nb);
        QVERIFY(!deviceClass->isEnabled());
        QCOMPARE(inputs.settings().link.deviceClass, dpu::DeviceClassChoice::Preset);
        QCOMPARE(dpu::linkOf(inputs.settings().link).key, std::string("nb-iot-nb1")); // no LinkError
    }

    void keptThroughAPlanFile()
    {
        dpu::ui::FleetInputs a;
        a.setSettings(classB());
        dpu::Plan plan;
        plan.fleet = a.settings();
        dpu::ui::FleetInputs b;
        b.setSettings(dpu::parsePlan(dpu::planToJson(plan)).fleet);
        const dpu::DeploymentLink l = b.settings().link;
        QCOMPARE(l.deviceClass, dpu::DeviceClassChoice::B);
        QCOMPARE(l.pingPeriodicity, 4);
        QCOMPARE(l.frameLossSpread, 0.05);
        QCOMPARE(l.leaveWhenDecoded, false);
    }

    void planDialogKeepsTheKeys()
    {
        dpu::Deployment planned = classB();
        dpu::ui::PlanFleetDialog dialog;
        dialog.setFleet(planned);
        const dpu::Deployment shown = dialog.fleet();
        QCOMPARE(shown.link.deviceClass, dpu::DeviceClassChoice::B);
        QCOMPARE(shown.link.pingPeriodicity, 4);
        QCOMPARE(shown.link.frameLossSpread, 0.05);
        QCOMPARE(shown.link.leaveWhenDecoded, false);
        child<QCheckBox>(*dialog.inputs(), "fleetLeaveWhenDecoded")->setChecked(true);
        QCOMPARE(dialog.fleet().link.leaveWhenDecoded, true); // an edit of these rows is an edit of the plan
    }
};

QTEST_MAIN(TestUiLinkDeviceRows)
#include "test_ui_link_device_rows.moc"
