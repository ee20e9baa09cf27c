// SPDX-License-Identifier: MIT
// The window's rows for issue 41 item 5 (loss spread, device class, ping period, leaving) in the Fleet tab's inputs and the plan's Deployment… dialog: shown, read back, saved, enabled where they apply.
#include "dpu/FleetSettings.h"
#include "panels/FleetInputs.h"
#include "panels/PlanFleetDialog.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

dpu::FleetSettings classB()
{
    dpu::FleetSettings s = dpu::ui::FleetInputs::flagship();
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
        const dpu::LinkSettings l = inputs.settings().link;
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
        dpu::FleetSettings nb = classB();
        nb.link.link = "nb-iot-nb1";
        inputs.setSettings(nb);
        QVERIFY(!deviceClass->isEnabled());
        QCOMPARE(inputs.settings().link.deviceClass, dpu::DeviceClassChoice::Preset);
        QCOMPARE(dpu::linkOf(inputs.settings().link).key, std::string("nb-iot-nb1")); // no LinkError
    }

    void savedAndRestored()
    {
        QTemporaryDir dir;
        QSettings file(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        dpu::ui::FleetInputs a;
        a.setSettings(classB());
        a.saveSettings(file);
        dpu::ui::FleetInputs b;
        b.restoreSettings(file);
        const dpu::LinkSettings l = b.settings().link;
        QCOMPARE(l.deviceClass, dpu::DeviceClassChoice::B);
        QCOMPARE(l.pingPeriodicity, 4);
        QCOMPARE(l.frameLossSpread, 0.05);
        QCOMPARE(l.leaveWhenDecoded, false);
        // A hand-edited class falls back to the link's own.
        file.setValue(QStringLiteral("fleet/deviceClass"), QStringLiteral("z"));
        b.restoreSettings(file);
        QCOMPARE(b.settings().link.deviceClass, dpu::DeviceClassChoice::Preset);
    }

    void planDialogKeepsTheKeys()
    {
        dpu::PlanFleet planned = dpu::planFleetOf(classB());
        dpu::ui::PlanFleetDialog dialog;
        dialog.setFleet(planned);
        const dpu::PlanFleet shown = dialog.fleet();
        QCOMPARE(shown.deviceClass, dpu::DeviceClassChoice::B);
        QCOMPARE(shown.pingPeriodicity, 4);
        QCOMPARE(shown.frameLossSpread, 0.05);
        QCOMPARE(shown.leaveWhenDecoded, false);
        child<QCheckBox>(*dialog.inputs(), "fleetLeaveWhenDecoded")->setChecked(true);
        QCOMPARE(dialog.fleet().leaveWhenDecoded, true); // an edit of these rows is an edit of the plan
    }
};

QTEST_MAIN(TestUiLinkDeviceRows)
#include "test_ui_link_device_rows.moc"
