// SPDX-License-Identifier: MIT
// The product's multicast against the frame-level reference of bench/multicast in the flagship scenario: energy per device and time to 90 % within 5 %, Class C and B, both sub-bands.
#include "multicast/Flagship.h"
#include "FleetTestSupport.h"
#include <QtTest/QtTest>
#include <cmath>

namespace {

using mcref::flagship::Case;

constexpr int kRepetitions = 6;
constexpr int64_t kBytes = 10000;

/// Fails unless |product / reference - 1| <= tolerance.
void compareRatio(const char* what, double product, double reference, double tolerance)
{
    const double ratio = product / reference;
    if (!(std::fabs(ratio - 1) <= tolerance))
        QFAIL(qPrintable(QStringLiteral("%1: product %2, reference %3, ratio %4").arg(QString::fromLatin1(what)).arg(product).arg(reference).arg(ratio)));
}

} // namespace

class TestLinkReference : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void flagshipWithinFivePercent_data()
    {
        QTest::addColumn<double>("dutyCycle");
        QTest::addColumn<bool>("classB");
        QTest::addColumn<int>("periodicity");
        QTest::addColumn<bool>("perSf");
        for (double d : {0.1, 0.01})
            for (bool perSf : {false, true}) {
                QTest::addRow("%g, Class C%s", d, perSf ? ", per SF" : "") << d << false << 0 << perSf;
                for (int p : {0, 7})
                    QTest::addRow("%g, Class B p=%d%s", d, p, perSf ? ", per SF" : "") << d << true << p << perSf;
            }
    }
    void flagshipWithinFivePercent()
    {
        QFETCH(double, dutyCycle);
        QFETCH(bool, classB);
        QFETCH(int, periodicity);
        QFETCH(bool, perSf);
        Case c;
        c.dutyCycle = dutyCycle;
        c.deviceClass = classB ? dpu::LoRaDeviceClass::B : dpu::LoRaDeviceClass::C;
        c.pingPeriodicity = periodicity;
        c.perSf = perSf;
        const mcref::Repeated product = mcref::flagship::product(c, kBytes, kRepetitions);
        const mcref::Repeated reference = mcref::repeat(mcref::flagship::referenceFor(c, kBytes, mcref::Decoding::DataPlus3), kRepetitions);
        QCOMPARE(product.timeTo90.count, kRepetitions);
        QCOMPARE(reference.timeTo90.count, kRepetitions);
        compareRatio("energy per device", product.energyPerDevice.mean, reference.energyPerDevice.mean, 0.05);
        compareRatio("time to 90 %", product.timeTo90.mean, reference.timeTo90.mean, 0.05);
        compareRatio("linkRound's energy", mcref::flagship::analyticEnergy(c, kBytes), reference.energyPerDevice.mean, 0.05);
        // Against an explicit decoder (systematic code, GF(2) elimination) the n + 3 rule holds too.
        const mcref::Repeated gf2 = mcref::repeat(mcref::flagship::referenceFor(c, kBytes, mcref::Decoding::Gf2), kRepetitions);
        compareRatio("energy, GF(2) decoding", product.energyPerDevice.mean, gf2.energyPerDevice.mean, 0.05);
        compareRatio("time to 90 %, GF(2) decoding", product.timeTo90.mean, gf2.timeTo90.mean, 0.05);
    }

    void theOldModelIsOffByTheRedundancy()
    {
        // Listening to the session's end costs Class C devices the frames after they decoded.
        Case c;
        c.productStays = true;
        const double stays = mcref::flagship::product(c, kBytes, 2).energyPerDevice.mean;
        const double reference = mcref::repeat(mcref::flagship::referenceFor(c, kBytes, mcref::Decoding::DataPlus3), 2).energyPerDevice.mean;
        QVERIFY(stays / reference > 1.05);
    }

    void aSpreadLossLeavesTheSameDevicesBehind()
    {
        Case c;
        c.spread = 0.05;
        const mcref::Repeated product = mcref::flagship::product(c, kBytes, kRepetitions);
        const mcref::Repeated reference = mcref::repeat(mcref::flagship::referenceFor(c, kBytes, mcref::Decoding::DataPlus3), kRepetitions);
        COMPARE_NEAR(product.decodedShare.mean, reference.decodedShare.mean, 0.02);
        QVERIFY(product.decodedShare.mean < 0.93);
        compareRatio("time to 50 %", product.timeTo50.mean, reference.timeTo50.mean, 0.05);
        compareRatio("energy per device", product.energyPerDevice.mean, reference.energyPerDevice.mean, 0.05);
    }
};

QTEST_GUILESS_MAIN(TestLinkReference)
#include "test_link_reference.moc"
