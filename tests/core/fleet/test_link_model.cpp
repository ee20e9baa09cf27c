// SPDX-License-Identifier: MIT
// Links as engineers configure them: LoRa time on air against Semtech's formula and the published figures, redundancy against the binomial tail, duty cycle, energy, inversion, bad input.
#include "dpu/DeploymentLink.h"
#include "dpu/LinkModel.h"
#include "link/Binomial.h"
#include "FleetTestSupport.h"
#include <QtTest/QtTest>
#include <algorithm>
#include <cmath>

namespace {

using dpu::test::errorOf;

/// Semtech AN1200.13 written as the application note prints it (floating point, ceil, max).
double semtechFormula(int sf, double bw, int pl, bool crc, bool de, int cr = 1, int preamble = 8, bool implicitHeader = false)
{
    const double tsym = std::pow(2.0, sf) / bw;
    const double payload = 8 + std::max(std::ceil((8.0 * pl - 4.0 * sf + 28 + 16 * crc - 20 * implicitHeader) / (4.0 * (sf - 2 * de))) * (cr + 4), 0.0);
    return (preamble + 4.25) * tsym + payload * tsym;
}

/// P(Binomial(m, s) >= k) by direct summation in long double (small m only).
double directTail(int m, double s, int k)
{
    long double sum = 0;
    for (int x = k; x <= m; ++x) {
        long double c = 1;
        for (int i = 0; i < x; ++i)
            c = c * (m - i) / (i + 1);
        sum += c * std::pow(static_cast<long double>(s), x) * std::pow(static_cast<long double>(1 - s), m - x);
    }
    return static_cast<double>(sum);
}


} // namespace

class TestLinkModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timeOnAirMatchesSemtechFormula_data()
    {
        QTest::addColumn<int>("sf");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<int>("payload");
        QTest::addColumn<bool>("crc");
        for (int sf = 7; sf <= 12; ++sf)
            for (int pl : {1, 13, 24, 51 + 13, 115 + 13, 222 + 13, 255})
                for (bool crc : {false, true}) {
                    QTest::addRow("SF%d/125 kHz, %d B%s", sf, pl, crc ? ", CRC" : "") << sf << 125e3 << pl << crc;
                    QTest::addRow("SF%d/500 kHz, %d B%s", sf, pl, crc ? ", CRC" : "") << sf << 500e3 << pl << crc;
                }
    }
    void timeOnAirMatchesSemtechFormula()
    {
        QFETCH(int, sf);
        QFETCH(double, bandwidth);
        QFETCH(int, payload);
        QFETCH(bool, crc);
        dpu::LoRaModulation m;
        m.spreadingFactor = sf;
        m.bandwidthHz = bandwidth;
        m.payloadCrc = crc;
        m.lowDataRateOptimize = std::pow(2.0, sf) / bandwidth >= 0.016;
        for (int cr = 1; cr <= 4; ++cr) {
            m.codingRate = cr;
            COMPARE_NEAR(dpu::loraTimeOnAir(m, payload), semtechFormula(sf, bandwidth, payload, crc, m.lowDataRateOptimize, cr), 1e-12);
        }
        m.codingRate = 1;
        m.explicitHeader = false;
        COMPARE_NEAR(dpu::loraTimeOnAir(m, payload), semtechFormula(sf, bandwidth, payload, crc, m.lowDataRateOptimize, 1, 8, true), 1e-12);
    }

    void timeOnAirPublishedValues()
    {
        // Semtech's calculator as the LoRaWAN airtime spreadsheet (AN1200.13) prints it: 13 B at
        // SF9/125 kHz, CR 4/5, explicit header, CRC, 8 preamble symbols: 28 payload symbols, 164.864 ms.
        dpu::LoRaModulation m;
        m.spreadingFactor = 9;
        m.payloadCrc = true;
        COMPARE_NEAR(dpu::loraTimeOnAir(m, 13) * 1e3, 164.864, 1e-9);
        // An empty LoRaWAN uplink (13 B) at SF7: 46.336 ms.
        m.spreadingFactor = 7;
        COMPARE_NEAR(dpu::loraTimeOnAir(m, 13) * 1e3, 46.336, 1e-9);
        // fleet-facts: a full EU868 frame takes 2794 ms at SF12 .. 369 ms at SF7.
        const double expected[] = {368.896, 645.632, 676.864, 698.368, 1478.656, 2793.472}; // downlink, SF7..SF12
        for (int sf = 7; sf <= 12; ++sf) {
            const dpu::Link link = dpu::lorawanEu868(sf);
            COMPARE_NEAR(dpu::frameAirtime(link, link.maxPayloadBytes) * 1e3, expected[sf - 7], 1e-9);
        }
        QCOMPARE(qRound(dpu::frameAirtime(dpu::lorawanEu868(12), 51) * 1e3), 2793);
        QCOMPARE(qRound(dpu::frameAirtime(dpu::lorawanEu868(7), 222) * 1e3), 369);
        // The uplink carries a payload CRC: one more coding block at SF8 and SF11.
        COMPARE_NEAR(dpu::frameAirtime(dpu::lorawanEu868Uplink(8), 222) * 1e3, 655.872, 1e-9);
    }

    void lowDataRateOptimisationAndBitRates()
    {
        const double table[] = {5470, 3125, 1760, 980, 440, 250}; // EU868 DR5..DR0 (Regional Parameters)
        for (int sf = 7; sf <= 12; ++sf) {
            const dpu::Link link = dpu::lorawanEu868(sf);
            QCOMPARE(link.modulation.lowDataRateOptimize, sf >= 11);
            QCOMPARE(link.bitsPerSecond, table[sf - 7]);
            COMPARE_NEAR(dpu::loraBitRate(link.modulation) / link.bitsPerSecond, 1.0, 0.03);
        }
        // 500 kHz: a symbol never lasts 16 ms, so no optimisation even at SF12.
        QVERIFY(!dpu::lorawanUs915Downlink(8).modulation.lowDataRateOptimize);
        COMPARE_NEAR(dpu::loraBitRate(dpu::lorawanUs915Downlink(13).modulation), 21875, 1e-9);
    }

    void presets()
    {
        const std::vector<std::string> keys = dpu::linkPresetKeysList();
        QCOMPARE(keys.size(), size_t(17));
        for (const std::string& key : keys) {
            const dpu::Link link = dpu::linkPreset(key);
            QCOMPARE(link.key, key);
            QVERIFY(!link.name.empty());
            QVERIFY(!link.source.empty());
            dpu::validateLink(link);
        }
        QCOMPARE(dpu::linkPreset("LoRaWAN-EU868-SF9").key, std::string("lorawan-eu868-sf9"));
        const int eu868Payload[] = {222, 222, 115, 51, 51, 51};
        for (int sf = 7; sf <= 12; ++sf)
            QCOMPARE(dpu::lorawanEu868(sf).maxPayloadBytes, eu868Payload[sf - 7]);
        const int us915Payload[] = {53, 129, 242, 242, 242, 242};
        for (int dr = 8; dr <= 13; ++dr) {
            QCOMPARE(dpu::lorawanUs915Downlink(dr).maxPayloadBytes, us915Payload[dr - 8]);
            QCOMPARE(dpu::lorawanUs915Downlink(dr).dutyCycle, 1.0);
        }
        // The frame: 219 B of fragment data behind a 3 B header, 13 B of frame overhead.
        const dpu::Link sf7 = dpu::lorawanEu868(7);
        QCOMPARE(dpu::fragmentDataBytes(sf7), 219);
        QCOMPARE(dpu::frameBytes(sf7), 235);
        QCOMPARE(dpu::fragmentsFor(sf7, 10240), int64_t(47));
        QCOMPARE(dpu::fragmentsFor(dpu::lorawanEu868(12), 10240), int64_t(214));
        QCOMPARE(dpu::fragmentsFor(dpu::lorawanEu868(12), 102400), int64_t(2134));
        QCOMPARE(sf7.delivery, dpu::LinkDelivery::Multicast);
        QCOMPARE(sf7.listening, dpu::LinkListening::WholeSession);
        QCOMPARE(dpu::withSpreadingFactor(sf7, 12).maxPayloadBytes, 51);
        QCOMPARE(dpu::withSpreadingFactor(sf7, 12).dutyCycle, sf7.dutyCycle);
        // US915 uplink DR3: a full 242 B frame is on air 399.6 ms, within the 400 ms dwell limit.
        const dpu::Link up = dpu::lorawanUs915Uplink(3);
        QVERIFY(dpu::frameAirtime(up, up.maxPayloadBytes) < 0.4);
        // BLE SMP: the measured 2-4 kB/s one request at a time, 16-20 kB/s pipelined.
        for (bool pipelined : {false, true}) {
            const dpu::LinkRound r = dpu::linkRound(dpu::bleSmp(pipelined), 100000, 1);
            const double rate = 100000 / (r.wallTime - dpu::bleSmp(pipelined).sessionSeconds);
            QVERIFY2(pipelined ? rate > 16000 && rate < 20000 : rate > 2000 && rate < 4000, qPrintable(QString::number(rate)));
        }
        // NB-IoT coverage enhancement: 8 repetitions, 8 times the airtime.
        COMPARE_NEAR(dpu::frameAirtime(dpu::nbIot(1, 8), 512), 8 * dpu::frameAirtime(dpu::nbIot(1), 512), 1e-12);
    }

    void oneVocabularyOfLinks()
    {
        // The bare rates' keys of old are aliases of the presets they stood for, resolved in one place.
        QCOMPARE(dpu::resolveLinkKey("lora"), std::string("lorawan-eu868-sf7"));
        QCOMPARE(dpu::resolveLinkKey("NB-IoT"), std::string("nb-iot-nb2"));
        QCOMPARE(dpu::resolveLinkKey("BLE"), std::string("ble-smp-pipelined"));
        // lte-m means one thing: the link model's preset (no second, faster lte-m of its own).
        QCOMPARE(dpu::resolveLinkKey("LTE-M"), std::string("lte-m"));
        QCOMPARE(dpu::linkPreset("lte-m").bitsPerSecond, dpu::lteM().bitsPerSecond);
        // Other keys pass in lower case: presets, the regions, and what the caller refuses.
        QCOMPARE(dpu::resolveLinkKey("LoRaWAN-EU868"), std::string("lorawan-eu868"));
        QCOMPARE(dpu::resolveLinkKey("nb-iot-nb1"), std::string("nb-iot-nb1"));
        QCOMPARE(dpu::resolveLinkKey("WiFi"), std::string("wifi"));
        // linkPreset() takes the aliases: the preset itself, key and all.
        const std::vector<std::string> keys = dpu::linkPresetKeysList();
        for (const char* alias : {"lora", "nb-iot", "ble"}) {
            const dpu::Link link = dpu::linkPreset(alias);
            QCOMPARE(link.key, dpu::resolveLinkKey(alias));
            QVERIFY(std::find(keys.begin(), keys.end(), link.key) != keys.end());
            QVERIFY(std::find(keys.begin(), keys.end(), std::string(alias)) == keys.end()); // not a second name list
        }
        QCOMPARE(dpu::linkPreset("LoRa").name, dpu::lorawanEu868(7).name);
        QCOMPARE(dpu::linkKeyAliasesText(), std::string("lora (lorawan-eu868-sf7), nb-iot (nb-iot-nb2), ble (ble-smp-pipelined)"));
        // An unknown key names every preset key.
        const QString error = errorOf([] { dpu::linkPreset("wifi"); });
        for (const std::string& key : keys)
            QVERIFY2(error.contains(QString::fromStdString(key)), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("(or lora (lorawan-eu868-sf7), nb-iot (nb-iot-nb2), ble (ble-smp-pipelined)), found 'wifi'")),
                 qPrintable(error));
    }

    void theLinksADeploymentMayName()
    {
        // The window's lists and dpu-cli budget's --link read these; no region key lives elsewhere.
        const std::vector<dpu::DeploymentLinkChoice> choices = dpu::deploymentLinkChoices();
        QVERIFY(choices.size() >= 4);
        QCOMPARE(choices[0].key, std::string("lorawan-eu868"));
        QCOMPARE(choices[0].name, std::string("LoRaWAN EU868"));
        QVERIFY(choices[0].region && choices[0].subBands);
        QCOMPARE(choices[1].key, std::string("lorawan-us915"));
        QVERIFY(choices[1].region && !choices[1].subBands);
        for (size_t i = 2; i < choices.size(); ++i) { // the presets that are not LoRa, each once
            QVERIFY(!choices[i].region && !choices[i].subBands);
            QVERIFY(!dpu::linkPreset(choices[i].key).lora);
            QCOMPARE(choices[i].name, dpu::linkPreset(choices[i].key).name);
        }
        for (const dpu::DeploymentLinkChoice& c : choices) { // every choice is a link linkOf() builds
            dpu::DeploymentLink link;
            link.link = c.key;
            QCOMPARE(dpu::linkOf(link).lora, c.region);
            QCOMPARE(dpu::deploymentLinkChoice(c.key)->key, c.key);
        }
        // Case and aliases as linkPreset() takes them; a LoRa preset takes a sub-band, not an SF.
        QVERIFY(dpu::deploymentLinkChoice("LoRaWAN-US915")->region);
        const std::optional<dpu::DeploymentLinkChoice> lora = dpu::deploymentLinkChoice("lora");
        QVERIFY(lora && !lora->region && lora->subBands);
        QCOMPARE(lora->key, std::string("lorawan-eu868-sf7"));
        QVERIFY(!dpu::deploymentLinkChoice("wifi"));
        QVERIFY(!dpu::deploymentLinkChoice(""));
        // EU868's sub-bands, the default first; lorawanEu868() takes exactly these.
        const std::vector<dpu::Eu868SubBand>& bands = dpu::eu868SubBands();
        QCOMPARE(bands.size(), size_t(3));
        QCOMPARE(bands.front().dutyCycle, dpu::lorawanEu868(7).dutyCycle);
        for (const dpu::Eu868SubBand& b : bands) {
            QCOMPARE(dpu::lorawanEu868(9, b.dutyCycle).dutyCycle, b.dutyCycle);
            QVERIFY(b.lowMHz >= 863 && b.highMHz <= 870 && b.lowMHz < b.highMHz);
        }
        QVERIFY(errorOf([] { dpu::lorawanEu868(7, 0.05); }).contains(QStringLiteral("sub-bands")));
    }

    void applicationRateFromThePhysicalLayer()
    {
        // EU868 SF7: 219 B of fragment data per 235 B frame, 368.9 ms on air: about 4.75 kbit/s
        // (the bare rate of old said 5.5 kbit/s, the region's PHY rate).
        const dpu::Link sf7 = dpu::lorawanEu868(7);
        COMPARE_NEAR(dpu::applicationBitsPerSecond(sf7), 219 * 8 / dpu::loraTimeOnAir(sf7.modulation, 235), 1e-9);
        COMPARE_NEAR(dpu::applicationBitsPerSecond(sf7), 4749.3, 0.5);
        // Cellular: the PHY rate times the data's share of a CoAP block; repetitions divide it.
        COMPARE_NEAR(dpu::applicationBitsPerSecond(dpu::lteM()), 300e3 * 1024 / 1072, 1e-6);
        COMPARE_NEAR(dpu::applicationBitsPerSecond(dpu::nbIot(2)), 127e3 * 512 / 560, 1e-6);
        COMPARE_NEAR(dpu::applicationBitsPerSecond(dpu::nbIot(1, 8)) * 8, dpu::applicationBitsPerSecond(dpu::nbIot(1)), 1e-6);
        // BLE SMP: the turnaround per request sets it, as measured: 2-4 kB/s, 16-20 kB/s pipelined.
        const double one = dpu::applicationBitsPerSecond(dpu::bleSmp(false)) / 8;
        const double pipelined = dpu::applicationBitsPerSecond(dpu::bleSmp(true)) / 8;
        QVERIFY2(one > 2000 && one < 4000, qPrintable(QString::number(one)));
        QVERIFY2(pipelined > 16000 && pipelined < 20000, qPrintable(QString::number(pipelined)));
        // Every preset answers, below its PHY rate (frame overhead, headers and turnaround cost).
        for (const std::string& key : dpu::linkPresetKeysList()) {
            const dpu::Link link = dpu::linkPreset(key);
            const double rate = dpu::applicationBitsPerSecond(link);
            QVERIFY2(rate > 0 && rate < link.bitsPerSecond, qPrintable(QString::fromStdString(key) + ": " + QString::number(rate)));
        }
    }

    void binomialTablesAgreeWithDirectSums()
    {
        for (int m : {1, 5, 20, 60})
            for (double s : {0.05, 0.5, 0.9, 0.99})
                for (int k = 0; k <= m; k += std::max(1, m / 7))
                    COMPARE_NEAR(dpu::link::binomialAtLeast(m, s, k), directTail(m, s, k), 1e-12);
        // Sampling by the inverse CDF covers the support in order.
        const dpu::link::Distribution d = dpu::link::binomial(50, 0.9);
        QCOMPARE(d.sample(0.0), d.lo);
        QVERIFY(d.sample(0.999999) <= 50);
        COMPARE_NEAR(d.below(46), directTail(50, 0.1, 5), 1e-12); // P(X < 46) = P(50 - X > 4)
        // Failures before the n-th success: P(F <= f) = P(Binomial(n + f, s) >= n).
        const dpu::link::Distribution f = dpu::link::negativeBinomialFailures(10, 0.8);
        for (int x = 0; x < 8; ++x)
            COMPARE_NEAR(f.below(x + 1), directTail(10 + x, 0.8, 10), 1e-12);
    }

    void redundancyAgainstTheTail_data()
    {
        QTest::addColumn<int>("fragments");
        QTest::addColumn<double>("loss");
        QTest::addColumn<int>("percent");
        // fleet-facts: extra fragments for 99 % completion per device, a device decoding with
        // nbFrag + 3 (FUOTASim's model of TS004's code), independent frame loss.
        const int p47[] = {21, 32, 55, 83}, p214[] = {11, 19, 36, 58}, p2134[] = {7, 13, 28, 47};
        const double losses[] = {0.05, 0.1, 0.2, 0.3};
        for (int i = 0; i < 4; ++i) {
            QTest::addRow("47 at %g", losses[i]) << 47 << losses[i] << p47[i];
            QTest::addRow("214 at %g", losses[i]) << 214 << losses[i] << p214[i];
            QTest::addRow("2134 at %g", losses[i]) << 2134 << losses[i] << p2134[i];
        }
    }
    void redundancyAgainstTheTail()
    {
        QFETCH(int, fragments);
        QFETCH(double, loss);
        QFETCH(int, percent);
        dpu::Link link = dpu::lorawanEu868(7);
        link.frameLoss = loss;
        const int64_t extra = dpu::redundancyFrames(link, fragments, 0.99);
        QCOMPARE(qRound(100.0 * extra / fragments), percent);
        // The fewest: one frame less misses the target.
        QVERIFY(dpu::completionProbability(link, fragments, fragments + extra) >= 0.99);
        QVERIFY(dpu::completionProbability(link, fragments, fragments + extra - 1) < 0.99);
        QCOMPARE(dpu::completionProbability(link, fragments, fragments + extra),
                 dpu::link::binomialAtLeast(fragments + extra, 1 - loss, fragments + 3));
    }

    void redundancyWithoutLossAndWithRetransmission()
    {
        dpu::Link link = dpu::lorawanEu868(7);
        QCOMPARE(dpu::redundancyFrames(link, 47, 0.99), int64_t(3)); // the code's own overhead
        // A retransmitting link: the negative binomial quantile, no decoding overhead.
        dpu::Link cell = dpu::nbIot(1);
        QCOMPARE(dpu::redundancyFrames(cell, 20, 0.99), int64_t(0));
        cell.frameLoss = 0.1;
        const int64_t extra = dpu::redundancyFrames(cell, 20, 0.99);
        QVERIFY(dpu::link::negativeBinomialFailures(20, 0.9).below(extra + 1) >= 0.99);
        QVERIFY(dpu::link::negativeBinomialFailures(20, 0.9).below(extra) < 0.99);
    }

    void fuotaDeliveryTimesRecomputed_data()
    {
        QTest::addColumn<int>("sf");
        QTest::addColumn<int>("bytes");
        QTest::addColumn<double>("minutes");
        QTest::addColumn<double>("tolerance");
        // fleet-facts: one multicast, max-size fragments, 10 % redundancy, 10 % sub-band.
        QTest::newRow("10 KB SF12") << 12 << 10240 << 110.0 << 0.5;
        QTest::newRow("10 KB SF10") << 10 << 10240 << 27.0 << 0.5;
        QTest::newRow("10 KB SF9") << 9 << 10240 << 11.5 << 0.05;
        QTest::newRow("10 KB SF8") << 8 << 10240 << 5.6 << 0.05;
        QTest::newRow("10 KB SF7") << 7 << 10240 << 3.2 << 0.05;
        QTest::newRow("100 KB SF12") << 12 << 102400 << 18.2 * 60 << 3.0;
        QTest::newRow("100 KB SF7") << 7 << 102400 << 32.0 << 0.5;
    }
    void fuotaDeliveryTimesRecomputed()
    {
        QFETCH(int, sf);
        QFETCH(int, bytes);
        QFETCH(double, minutes);
        QFETCH(double, tolerance);
        const dpu::Link link = dpu::lorawanEu868(sf, 0.1);
        const int64_t fragments = dpu::fragmentsFor(link, bytes);
        const auto frames = static_cast<int64_t>(std::ceil(fragments * 1.1));
        const double wall = frames * dpu::frameAirtime(link, link.maxPayloadBytes) / link.dutyCycle;
        COMPARE_NEAR(wall / 60, minutes, tolerance);
        // A 1 % sub-band: ten times as long.
        const dpu::Link slow = dpu::lorawanEu868(sf, 0.01);
        COMPARE_NEAR(frames * dpu::frameAirtime(slow, slow.maxPayloadBytes) / slow.dutyCycle, 10 * wall, 1e-6);
    }

    void roundWallTimeUnderTheDutyCycle()
    {
        dpu::Link link = dpu::lorawanEu868(9, 0.01);
        link.frameLoss = 0.1;
        const dpu::LinkRound m = dpu::linkRound(link, 10240, 200);
        QCOMPARE(m.fragments, int64_t(92));
        QCOMPARE(m.frames, m.fragments + m.redundancy);
        QCOMPARE(m.frames, m.fragments + dpu::redundancyFrames(link, 92, 0.99));
        COMPARE_NEAR(m.airtime, m.frames * m.frameSeconds, 1e-9);
        COMPARE_NEAR(m.wallTime, m.airtime / 0.01, 1e-6); // once for the whole group
        QCOMPARE(m.bytesOnAir, m.frames * 128);
        QVERIFY(m.deviceProbability >= 0.99);
        // Unicast: one session per device, all sharing the gateway's duty cycle.
        link.delivery = dpu::LinkDelivery::Unicast;
        const dpu::LinkRound u = dpu::linkRound(link, 10240, 200);
        COMPARE_NEAR(u.airtime, 200 * m.airtime, 1e-6);
        COMPARE_NEAR(u.wallTime, 200 * m.wallTime, 1e-3);
        QCOMPARE(u.bytesOnAir, 200 * m.bytesOnAir);
        // Every device completing with 99 %: each needs 0.99^(1/200), so more redundancy.
        const dpu::LinkRound all = dpu::linkRound(link, 10240, 200, {0.99, true});
        QVERIFY(all.redundancy > u.redundancy);
        QVERIFY(std::pow(all.deviceProbability, 200) >= 0.99);
        // Cellular devices download in parallel: the round lasts one device's session.
        const dpu::LinkRound cell = dpu::linkRound(dpu::nbIot(1), 10240, 200);
        COMPARE_NEAR(cell.wallTime, cell.deviceSeconds, 1e-12);
        // TS004's 14-bit counter: 2.7 MB at SF12 needs several sessions of at most 16383 frames.
        const dpu::LinkRound big = dpu::linkRound(dpu::lorawanEu868(12), 2700000, 1);
        QVERIFY(big.sessions > 1);
        for (const dpu::LinkSessionPart& p : big.parts)
            QVERIFY(p.frames <= 16383);
        QVERIFY(big.deviceProbability >= 0.99);
    }

    void energyAccounting()
    {
        // Class C listening to the whole session (the old model); 10 KB at SF12 on the 10 %
        // sub-band (fleet-facts: ~100 J for the whole session, ~10 J for the frames alone, ~0.35 %
        // of a 2400 mAh cell). Devices that leave once decoded: test_link_classes.
        dpu::Link link = dpu::lorawanEu868(12, 0.1);
        link.leaveWhenDecoded = false;
        const dpu::LinkRound c = dpu::linkRound(link, 10240, 1);
        COMPARE_NEAR(c.energyPerDevice, c.wallTime * link.rxWatts, 1e-9);
        COMPARE_NEAR(c.listenSeconds, c.wallTime, 1e-9);
        COMPARE_NEAR(c.batteryShare, c.energyPerDevice / (2400 * 3.6 * 3.3), 1e-15);
        QVERIFY(c.energyPerDevice > 80 && c.energyPerDevice < 110);
        QVERIFY(c.batteryShare > 0.0028 && c.batteryShare < 0.0040);
        link.listening = dpu::LinkListening::Frames;
        const dpu::LinkRound a = dpu::linkRound(link, 10240, 1);
        COMPARE_NEAR(a.energyPerDevice, a.frames * a.frameSeconds * link.rxWatts, 1e-9);
        COMPARE_NEAR(a.energyPerDevice * 10, c.energyPerDevice, 1e-6); // 10 % duty cycle: 10x
        // Fixed session costs: NB-IoT's attach and connection dominate a 10 KB download.
        const dpu::Link nb = dpu::nbIot(1);
        const dpu::LinkRound n = dpu::linkRound(nb, 10240, 1);
        COMPARE_NEAR(n.energyPerDevice, nb.sessionJoules + n.airtime * nb.rxWatts, 1e-9);
        QVERIFY(nb.sessionJoules > n.airtime * nb.rxWatts);
        COMPARE_NEAR(n.deviceSeconds, nb.sessionSeconds + n.airtime, 1e-9);
        // The uplink's device transmits.
        const dpu::LinkRound up = dpu::linkRound(dpu::lorawanEu868Uplink(7), 1000, 1);
        COMPARE_NEAR(up.energyPerDevice, up.airtime * dpu::lorawanEu868Uplink(7).txWatts, 1e-12);
        // Nothing sent, nothing spent.
        QCOMPARE(dpu::linkRound(link, 0, 5).energyPerDevice, 0.0);
    }

    void inversion()
    {
        dpu::Link link = dpu::lorawanEu868(7, 0.01);
        link.frameLoss = 0.1;
        for (double window : {600.0, 3600.0, 86400.0}) {
            const int64_t bytes = dpu::largestBytesForWallTime(link, window, 1);
            QVERIFY(bytes > 0);
            QVERIFY(dpu::linkRound(link, bytes, 1).wallTime <= window);
            QVERIFY(dpu::linkRound(link, bytes + 1, 1).wallTime > window);
        }
        // A minute fits not even one fragment: 4 needed, about 7 sent, 2.6 s on air, 258 s of duty cycle.
        QCOMPARE(dpu::largestBytesForWallTime(link, 60, 1), int64_t(0));
        // One day on a 1 % sub-band at SF7: 864 s of airtime, minus redundancy: about 400 KB.
        const int64_t day = dpu::largestBytesForWallTime(link, 86400, 1);
        QVERIFY(day > 350000 && day < 520000);
        // Unicast to 10 devices: a tenth per device, about.
        link.delivery = dpu::LinkDelivery::Unicast;
        QVERIFY(dpu::largestBytesForWallTime(link, 86400, 10) < day / 9);
        const int64_t joules = dpu::largestBytesForEnergy(dpu::lorawanEu868(12, 0.1), 10.0, 1);
        QVERIFY(dpu::linkRound(dpu::lorawanEu868(12, 0.1), joules, 1).energyPerDevice <= 10.0);
        QVERIFY(dpu::linkRound(dpu::lorawanEu868(12, 0.1), joules + 1, 1).energyPerDevice > 10.0);
        // A window shorter than NB-IoT's attach fits nothing; an energy budget below it neither.
        QCOMPARE(dpu::largestBytesForWallTime(dpu::nbIot(1), 4.0, 1), int64_t(0));
        QCOMPARE(dpu::largestBytesForEnergy(dpu::nbIot(1), 1.5, 1), int64_t(0));
    }

    void badInput()
    {
        QVERIFY(errorOf([] { dpu::lorawanEu868(6); }).contains(QStringLiteral("SF6 is not a spreading factor of LoRaWAN EU868 (SF7..SF12)")));
        QVERIFY(errorOf([] { dpu::withSpreadingFactor(dpu::lorawanUs915Uplink(0), 11); }).contains(QStringLiteral("spreadingFactor: SF11")));
        QVERIFY(errorOf([] { dpu::lorawanUs915Downlink(4); }).contains(QStringLiteral("DR8, DR9")));
        QVERIFY(errorOf([] { dpu::withSpreadingFactor(dpu::nbIot(1), 9); }).contains(QStringLiteral("has no spreading factor")));
        QVERIFY(errorOf([] { dpu::lorawanEu868(7, 0.05); }).startsWith(QStringLiteral("dutyCycle: ")));
        QVERIFY(errorOf([] { dpu::nbIot(1, 3); }).startsWith(QStringLiteral("repetitions: ")));
        QVERIFY(errorOf([] { dpu::linkPreset("wifi"); }).contains(QStringLiteral("lorawan-eu868-sf7")));
        dpu::Link link = dpu::lorawanEu868(7);
        link.frameLoss = -0.1;
        try {
            dpu::validateLink(link);
            QFAIL("a negative loss was accepted");
        } catch (const dpu::LinkError& e) {
            QCOMPARE(e.field(), std::string("frameLoss"));
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("frameLoss: expected a probability in [0, 1), found -0.1"));
        }
        link.frameLoss = 1;
        QVERIFY(errorOf([&] { dpu::linkRound(link, 100, 1); }).startsWith(QStringLiteral("frameLoss: ")));
        link.frameLoss = 0;
        link.fragmentBytes = 220; // 220 + 3 > 222
        QCOMPARE(errorOf([&] { dpu::validateLink(link); }),
                 QStringLiteral("fragmentBytes: a fragment of 220 B and its 3 B header do not fit the frame's payload of 222 B"));
        link.fragmentBytes = 219;
        dpu::validateLink(link);
        dpu::Link up = dpu::lorawanUs915Uplink(2); // SF8 at 125 kHz
        up.maxPayloadBytes = 242;
        QVERIFY(errorOf([&] { dpu::validateLink(up); }).contains(QStringLiteral("over the dwell limit of 400 ms")));
        dpu::Link ble = dpu::bleSmp(true);
        ble.delivery = dpu::LinkDelivery::Multicast;
        QVERIFY(errorOf([&] { dpu::validateLink(ble); }).startsWith(QStringLiteral("delivery: ")));
        QVERIFY(errorOf([] { dpu::linkRound(dpu::lorawanEu868(7), 100, 1, {1.0, false}); }).startsWith(QStringLiteral("completionProbability: ")));
        QVERIFY(errorOf([] { dpu::linkRound(dpu::lorawanEu868(7), 100, 0); }).startsWith(QStringLiteral("devices: ")));
        QVERIFY(errorOf([] { dpu::customLink(0, 100, 10); }).startsWith(QStringLiteral("bitsPerSecond: ")));
    }
};

QTEST_GUILESS_MAIN(TestLinkModel)
#include "test_link_model.moc"
