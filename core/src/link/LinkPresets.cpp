// SPDX-License-Identifier: MIT
// Link presets: LoRaWAN EU868 and US915, NB-IoT, LTE-M, BLE SMP, custom (figures and sources: docs/fleet.md).
#include "dpu/LinkModel.h"
#include "link/Text.h"
#include <algorithm>
#include <cmath>

namespace dpu {
namespace {

/// One data rate of a LoRaWAN region (Regional Parameters 1.0.3revA).
struct RegionRate {
    int spreadingFactor;
    int dataRate;
    double bandwidthHz;
    int maxPayloadBytes;  ///< N: application payload without FOpts
    double bitsPerSecond; ///< the table's indicative physical bit rate
};

// EU863-870: max payload repeater compatible (Table "EU863-870 maximum payload size").
const std::vector<RegionRate> kEu868{
    {12, 0, 125e3, 51, 250}, {11, 1, 125e3, 51, 440},   {10, 2, 125e3, 51, 980},
    {9, 3, 125e3, 115, 1760}, {8, 4, 125e3, 222, 3125}, {7, 5, 125e3, 222, 5470},
};
// US902-928 downlink DR8..DR13 at 500 kHz (not repeater compatible, Table 16).
const std::vector<RegionRate> kUs915Downlink{
    {12, 8, 500e3, 53, 980},    {11, 9, 500e3, 129, 1760},   {10, 10, 500e3, 242, 3900},
    {9, 11, 500e3, 242, 7000},  {8, 12, 500e3, 242, 12500},  {7, 13, 500e3, 242, 21900},
};
// US902-928 uplink DR0..DR3 at 125 kHz (sized for the 400 ms dwell limit).
const std::vector<RegionRate> kUs915Uplink{
    {10, 0, 125e3, 11, 980}, {9, 1, 125e3, 53, 1760}, {8, 2, 125e3, 125, 3125}, {7, 3, 125e3, 242, 5470},
};

// SX1262 (Semtech datasheet): receive 4.6 mA (DC-DC), transmit 45 mA at +14 dBm, at 3.3 V.
constexpr double kLoRaRxWatts = 4.6e-3 * 3.3;
constexpr double kLoRaTxWatts = 45e-3 * 3.3;
constexpr int kLoRaWanFrameOverhead = 13; // MHDR 1 + FHDR 7 (no FOpts) + FPort 1 + MIC 4
constexpr int kTs004FragmentHeader = 3;   // DataFragment: command 1 + Index&N 2
constexpr int kTs004MaxFragments = 16383; // 14-bit fragment counter

const std::vector<RegionRate>& regionTable(LinkRegion region)
{
    static const std::vector<RegionRate> none;
    switch (region) {
    case LinkRegion::Eu868: return kEu868;
    case LinkRegion::Us915Downlink: return kUs915Downlink;
    case LinkRegion::Us915Uplink: return kUs915Uplink;
    case LinkRegion::None: break;
    }
    return none;
}

std::string regionName(LinkRegion region)
{
    switch (region) {
    case LinkRegion::Eu868: return "LoRaWAN EU868";
    case LinkRegion::Us915Downlink: return "LoRaWAN US915 downlink";
    case LinkRegion::Us915Uplink: return "LoRaWAN US915 uplink";
    case LinkRegion::None: break;
    }
    return "this link";
}

std::string sfRange(const std::vector<RegionRate>& table)
{
    int lo = 99, hi = 0;
    for (const RegionRate& r : table) {
        lo = std::min(lo, r.spreadingFactor);
        hi = std::max(hi, r.spreadingFactor);
    }
    return "SF" + std::to_string(lo) + "..SF" + std::to_string(hi);
}

const RegionRate& rateBy(LinkRegion region, const std::string& field, int value, bool byDataRate)
{
    const auto& table = regionTable(region);
    for (const RegionRate& r : table)
        if ((byDataRate ? r.dataRate : r.spreadingFactor) == value)
            return r;
    if (byDataRate) {
        std::string list;
        for (const RegionRate& r : table)
            list += (list.empty() ? "DR" : ", DR") + std::to_string(r.dataRate);
        throw LinkError(field, regionName(region) + " has data rates " + list + ", not DR" + std::to_string(value));
    }
    throw LinkError(field, "SF" + std::to_string(value) + " is not a spreading factor of " + regionName(region) + " ("
                               + sfRange(table) + ")");
}

void applyRate(Link& link, const RegionRate& r)
{
    link.modulation.spreadingFactor = r.spreadingFactor;
    link.modulation.bandwidthHz = r.bandwidthHz;
    // Mandated where a symbol lasts 16 ms or more (SX127x datasheet; LoRaMac-node sets it at
    // SF11/SF12 on 125 kHz).
    link.modulation.lowDataRateOptimize = std::ldexp(1.0, r.spreadingFactor) / r.bandwidthHz >= 0.016;
    link.bitsPerSecond = r.bitsPerSecond;
    link.maxPayloadBytes = r.maxPayloadBytes;
    const std::string bw = std::to_string(static_cast<int>(r.bandwidthHz / 1e3)) + " kHz";
    switch (link.region) {
    case LinkRegion::Eu868:
        link.key = std::string(link.direction == LinkDirection::Uplink ? "lorawan-eu868-uplink-sf" : "lorawan-eu868-sf")
                   + std::to_string(r.spreadingFactor);
        break;
    case LinkRegion::Us915Downlink: link.key = "lorawan-us915-dr" + std::to_string(r.dataRate); break;
    case LinkRegion::Us915Uplink: link.key = "lorawan-us915-uplink-dr" + std::to_string(r.dataRate); break;
    case LinkRegion::None: break;
    }
    link.name = regionName(link.region) + (link.region == LinkRegion::Eu868 && link.direction == LinkDirection::Uplink ? " uplink" : "")
                + " SF" + std::to_string(r.spreadingFactor) + "/" + bw + " (DR" + std::to_string(r.dataRate) + ")";
}

Link loraBase(LinkRegion region, LinkDirection direction)
{
    Link link;
    link.region = region;
    link.direction = direction;
    link.lora = true;
    link.modulation.payloadCrc = direction == LinkDirection::Uplink; // LoRaWAN 1.0.3 sections 3.1, 3.2
    link.frameOverheadBytes = kLoRaWanFrameOverhead;
    link.rxWatts = kLoRaRxWatts;
    link.txWatts = kLoRaTxWatts;
    if (direction == LinkDirection::Downlink) {
        // FUOTA: TS004 fragments, TS005 multicast in Class C, the gateway's one transmitter.
        link.fragmentHeaderBytes = kTs004FragmentHeader;
        link.maxFragmentsPerSession = kTs004MaxFragments;
        link.recovery = LinkRecovery::ErasureCode;
        link.decodeOverheadFragments = 3;
        link.delivery = LinkDelivery::Multicast;
        link.multicastCapable = true;
        link.sharedTransmitter = true;
        link.listening = LinkListening::WholeSession;
    } else {
        // Confirmed uplinks, each device under its own duty cycle or dwell limit.
        link.recovery = LinkRecovery::Retransmit;
        link.delivery = LinkDelivery::Unicast;
        link.sharedTransmitter = false;
        link.listening = LinkListening::Frames;
    }
    return link;
}

const char* kLoRaWanSource = "LoRaWAN Regional Parameters 1.0.3revA; LoRaWAN 1.0.3 frame format; TS004 fragmentation; "
                             "Semtech AN1200.13 time on air; SX1262 datasheet currents";

Link cellularBase(double bitsPerSecond, int blockBytes)
{
    Link link;
    link.bitsPerSecond = bitsPerSecond;
    link.maxPayloadBytes = blockBytes;      // CoAP Block2 (RFC 7959)
    link.frameOverheadBytes = 48;           // IPv4 20 + UDP 8 + CoAP 4 + token 4 + options about 12
    link.recovery = LinkRecovery::Retransmit; // HARQ/RLC and CoAP confirmable messages
    link.delivery = LinkDelivery::Unicast;
    link.sharedTransmitter = false;         // every device downloads over its own connection
    link.listening = LinkListening::Frames;
    return link;
}

} // namespace

const std::vector<Eu868SubBand>& eu868SubBands()
{
    // ETSI EN 300 220's bands as LoRaWAN EU868 gateways use them (docs/fleet.md).
    static const std::vector<Eu868SubBand> kSubBands{{0.01, 865, 868.6}, {0.001, 863, 865}, {0.1, 869.4, 869.65}};
    return kSubBands;
}

Link lorawanEu868(int spreadingFactor, double dutyCycle)
{
    const std::vector<Eu868SubBand>& bands = eu868SubBands();
    if (std::none_of(bands.begin(), bands.end(), [&](const Eu868SubBand& b) { return std::fabs(b.dutyCycle - dutyCycle) < 1e-12; }))
        throw LinkError("dutyCycle", "EU868's sub-bands allow 0.1 %, 1 % or 10 % of the time, not "
                                         + std::to_string(dutyCycle * 100) + " %");
    Link link = loraBase(LinkRegion::Eu868, LinkDirection::Downlink);
    link.dutyCycle = dutyCycle;
    link.source = kLoRaWanSource;
    applyRate(link, rateBy(LinkRegion::Eu868, "spreadingFactor", spreadingFactor, false));
    return link;
}

Link lorawanEu868Uplink(int spreadingFactor)
{
    Link link = loraBase(LinkRegion::Eu868, LinkDirection::Uplink);
    link.dutyCycle = 0.01; // the default channels 868.1-868.5 MHz: 1 % sub-band
    link.source = kLoRaWanSource;
    applyRate(link, rateBy(LinkRegion::Eu868, "spreadingFactor", spreadingFactor, false));
    return link;
}

Link lorawanUs915Downlink(int dataRate)
{
    Link link = loraBase(LinkRegion::Us915Downlink, LinkDirection::Downlink);
    link.source = kLoRaWanSource;
    applyRate(link, rateBy(LinkRegion::Us915Downlink, "dataRate", dataRate, true));
    return link;
}

Link lorawanUs915Uplink(int dataRate)
{
    Link link = loraBase(LinkRegion::Us915Uplink, LinkDirection::Uplink);
    link.dwellLimitSeconds = 0.4; // FCC 15.247 on 125 kHz channels
    link.source = kLoRaWanSource;
    applyRate(link, rateBy(LinkRegion::Us915Uplink, "dataRate", dataRate, true));
    return link;
}

Link nbIot(int category, int repetitions)
{
    if (category != 1 && category != 2)
        throw LinkError("category", "NB-IoT categories are Cat-NB1 (1) and Cat-NB2 (2), not " + std::to_string(category));
    if (repetitions < 1 || repetitions > 2048 || (repetitions & (repetitions - 1)) != 0)
        throw LinkError("repetitions", "NB-IoT repeats a downlink 1, 2, 4, ... or 2048 times, not " + std::to_string(repetitions));
    // 3GPP peak downlink rates: Cat-NB1 about 26 kbit/s (Rel-13), Cat-NB2 about 127 kbit/s (Rel-14).
    Link link = cellularBase(category == 1 ? 26e3 : 127e3, 512);
    link.key = category == 1 ? "nb-iot-nb1" : "nb-iot-nb2";
    link.name = std::string(category == 1 ? "NB-IoT Cat-NB1" : "NB-IoT Cat-NB2") + " (CoAP blocks of 512 B)";
    if (repetitions > 1)
        link.name += ", " + std::to_string(repetitions) + " repetitions";
    link.repetitions = repetitions;
    link.sessionSeconds = 5;  // attach and RRC connection before data
    link.sessionJoules = 2;   // attach, connection, inactivity tail: 1-3 J (fleet-facts, Rostad 2020)
    link.rxWatts = 0.2;       // about 60 uJ/B at 26 kbit/s
    link.txWatts = 0.7;
    link.source = "3GPP TS 36.306 Cat-NB1/NB2 peak rates; RFC 7252/7959 CoAP block-wise; Rostad (NTNU 2020) "
                  "nRF9160 attach and transfer charge";
    return link;
}

Link lteM()
{
    Link link = cellularBase(300e3, 1024);
    link.key = "lte-m";
    link.name = "LTE-M Cat-M1 half duplex (CoAP blocks of 1 KB)";
    link.sessionSeconds = 2;
    link.sessionJoules = 1;
    link.rxWatts = 0.25;
    link.txWatts = 0.8;
    link.source = "3GPP TS 36.306 Cat-M1 half-duplex downlink about 300 kbit/s; RFC 7252/7959 CoAP block-wise";
    return link;
}

Link bleSmp(bool pipelined)
{
    Link link;
    link.key = pipelined ? "ble-smp-pipelined" : "ble-smp";
    link.name = pipelined ? "BLE firmware transfer (SMP, pipelined)" : "BLE firmware transfer (SMP)";
    link.bitsPerSecond = 1e6;      // LE 1M PHY
    link.maxPayloadBytes = 216;    // image data per SMP upload request at ATT MTU 247
    link.frameOverheadBytes = 45;  // SMP header 8, CBOR keys about 20, ATT 3, L2CAP 4, link layer 10
    // Turnaround per request, calibrated to the measured 2-4 kB/s one request at a time and
    // 16-20 kB/s with a window of 3 (nRF Connect Device Manager PR 53): 3.0 and 18 kB/s.
    link.frameLatencySeconds = pipelined ? 0.010 : 0.070;
    link.recovery = LinkRecovery::Retransmit;
    link.delivery = LinkDelivery::Unicast;
    link.sharedTransmitter = true; // one gateway or phone, one connection at a time
    link.listening = LinkListening::Frames;
    link.sessionSeconds = 1;       // advertising, connection and MTU exchange
    link.sessionJoules = 0.005;
    link.rxWatts = 6.26e-3 * 3.0;  // nRF52840 receive at 1 Mbit/s, DC-DC, 3 V
    link.txWatts = 6.4e-3 * 3.0;
    link.source = "Bluetooth Core 5 LE 1M PHY; MCUmgr SMP; nordicsemi Android-nRF-Connect-Device-Manager PR 53 "
                  "throughput; nRF52840 product specification currents";
    return link;
}

Link customLink(double bitsPerSecond, int maxPayloadBytes, int frameOverheadBytes)
{
    Link link;
    link.key = "custom";
    link.name = "Custom link";
    link.bitsPerSecond = bitsPerSecond;
    link.maxPayloadBytes = maxPayloadBytes;
    link.frameOverheadBytes = frameOverheadBytes;
    link.recovery = LinkRecovery::Retransmit;
    link.delivery = LinkDelivery::Unicast;
    link.sharedTransmitter = false;
    link.source = "the user's own figures";
    validateLink(link);
    return link;
}

std::vector<std::string> linkPresetKeysList()
{
    std::vector<std::string> keys;
    for (int sf = 7; sf <= 12; ++sf)
        keys.push_back("lorawan-eu868-sf" + std::to_string(sf));
    for (int dr = 8; dr <= 13; ++dr)
        keys.push_back("lorawan-us915-dr" + std::to_string(dr));
    for (const char* k : {"nb-iot-nb1", "nb-iot-nb2", "lte-m", "ble-smp", "ble-smp-pipelined"})
        keys.emplace_back(k);
    return keys;
}

namespace {

/// The keys the bare rates of old had (dpu/Links.h until issue 41), each the preset it stood for.
struct LinkKeyAlias {
    const char* alias;
    const char* key;
};
constexpr LinkKeyAlias kLinkKeyAliases[] = {
    {"lora", "lorawan-eu868-sf7"},
    {"nb-iot", "nb-iot-nb2"},
    {"ble", "ble-smp-pipelined"},
};

} // namespace

std::string resolveLinkKey(const std::string& key)
{
    const std::string k = link::lower(key);
    for (const LinkKeyAlias& a : kLinkKeyAliases)
        if (k == a.alias)
            return a.key;
    return k;
}

std::string linkKeyAliasesText()
{
    std::string out;
    for (const LinkKeyAlias& a : kLinkKeyAliases)
        out += (out.empty() ? "" : ", ") + std::string(a.alias) + " (" + a.key + ")";
    return out;
}

Link linkPreset(const std::string& key)
{
    const std::string k = resolveLinkKey(key);
    for (int sf = 7; sf <= 12; ++sf)
        if (k == "lorawan-eu868-sf" + std::to_string(sf))
            return lorawanEu868(sf);
    for (int dr = 8; dr <= 13; ++dr)
        if (k == "lorawan-us915-dr" + std::to_string(dr))
            return lorawanUs915Downlink(dr);
    if (k == "nb-iot-nb1")
        return nbIot(1);
    if (k == "nb-iot-nb2")
        return nbIot(2);
    if (k == "lte-m")
        return lteM();
    if (k == "ble-smp")
        return bleSmp(false);
    if (k == "ble-smp-pipelined")
        return bleSmp(true);
    std::string known;
    for (const std::string& s : linkPresetKeysList())
        known += (known.empty() ? "" : ", ") + s;
    throw LinkError("link", "expected one of " + known + " (or " + linkKeyAliasesText() + "), found '" + key + "'");
}

Link withLoRaDeviceClass(const Link& link, LoRaDeviceClass deviceClass, int pingPeriodicity)
{
    if (!link.lora || link.region == LinkRegion::None || link.direction != LinkDirection::Downlink)
        throw LinkError("deviceClass", link.name + " is no LoRaWAN downlink: it has no device class B or C");
    Link out = link;
    if (deviceClass == LoRaDeviceClass::C) {
        out.listening = LinkListening::WholeSession;
        return out;
    }
    if (pingPeriodicity < 0 || pingPeriodicity > 7)
        throw LinkError("pingPeriodicity", "expected a ping periodicity 0 .. 7 (a ping slot every 0.96 x 2^p s), found "
                                               + std::to_string(pingPeriodicity));
    out.listening = LinkListening::PingSlots;
    out.pingSlotPeriodSeconds = 0.96 * std::ldexp(1.0, pingPeriodicity);
    // The beacon (LoRaWAN 1.0.4 section 13, Regional Parameters): EU868 DR3 (SF9/125 kHz) with a
    // 17 B payload, US915 DR8 (SF12/500 kHz) with 23 B; 10 preamble symbols, no PHY header, no CRC.
    const bool eu = link.region == LinkRegion::Eu868;
    LoRaModulation beacon;
    beacon.spreadingFactor = eu ? 9 : 12;
    beacon.bandwidthHz = eu ? 125e3 : 500e3;
    beacon.preambleSymbols = 10;
    beacon.explicitHeader = false;
    out.beaconSeconds = loraTimeOnAir(beacon, eu ? 17 : 23);
    return out;
}

int pingPeriodicityOf(const Link& link)
{
    return static_cast<int>(std::lround(std::log2(link.pingSlotPeriodSeconds / 0.96)));
}

Link withSpreadingFactor(const Link& link, int spreadingFactor)
{
    if (!link.lora || link.region == LinkRegion::None)
        throw LinkError("spreadingFactor", link.name + " has no spreading factor");
    Link out = link;
    applyRate(out, rateBy(link.region, "spreadingFactor", spreadingFactor, false));
    return out;
}

} // namespace dpu
