// SPDX-License-Identifier: MIT
// Links as engineers configure them (docs/fleet.md): frames, time on air, duty cycle, loss, erasure code, energy, SF mixes.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/Error.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dpu {

/// A link, fleet or trace field holds a bad value; field() names it ("frameLoss",
/// "spreadingFactor", "trace.csv:12").
class LinkError : public Error {
public:
    LinkError(std::string field, const std::string& message)
        : Error(field.empty() ? message : field + ": " + message), field_(std::move(field)) {}
    const std::string& field() const noexcept { return field_; }

private:
    std::string field_;
};

/// LoRa modulation of one frame (Semtech AN1200.13).
struct LoRaModulation {
    int spreadingFactor = 7;   ///< SF7..SF12
    double bandwidthHz = 125e3;
    int codingRate = 1;        ///< 1..4: 4/5 .. 4/8
    int preambleSymbols = 8;   ///< programmed preamble (LoRaWAN: 8)
    bool explicitHeader = true;
    bool payloadCrc = false;   ///< LoRaWAN: uplinks carry a payload CRC, downlinks do not
    bool lowDataRateOptimize = false; ///< mandated where a symbol lasts 16 ms or more (SF11/SF12 at 125 kHz)
};

/// Time on air of one LoRa frame of `phyPayloadBytes` (the PHYPayload: MHDR + MACPayload + MIC),
/// in seconds: (preamble + 4.25 + 8 + max(ceil((8 PL - 4 SF + 28 + 16 CRC - 20 IH) / (4 (SF - 2 DE))) (CR + 4), 0)) 2^SF / BW.
double loraTimeOnAir(const LoRaModulation& modulation, int phyPayloadBytes);

/// The modulation's bit rate SF' BW / 2^SF 4 / (4 + CR), SF' = SF - 2 DE (bit/s).
double loraBitRate(const LoRaModulation& modulation);

/// Which regional rules the link follows (a spreading factor change re-derives payload and rate).
enum class LinkRegion { None, Eu868, Us915Downlink, Us915Uplink };
enum class LinkDelivery { Multicast, Unicast };
/// How lost frames are made good: a device of an erasure-coded session decodes once it holds
/// the data fragments plus `decodeOverheadFragments` of any fragments (TS004's code as FUOTASim
/// models it); a retransmitting link (cellular, BLE) resends each lost frame.
enum class LinkRecovery { ErasureCode, Retransmit };
/// What the device's receiver does during a session: only the frames (Class A unicast, cellular,
/// BLE), the frames plus a short window per empty ping slot and the beacons (LoRaWAN Class B,
/// whose frames also wait for the group's next ping slot), or the whole session (LoRaWAN Class C).
enum class LinkListening { Frames, PingSlots, WholeSession };
/// The LoRaWAN device class a multicast session reaches its devices in (TS005).
enum class LoRaDeviceClass { B, C };
enum class LinkDirection { Downlink, Uplink };

/// A link: plain data, filled by a preset and adjusted by the caller. Every figure of a preset
/// names its source in docs/fleet.md.
struct Link {
    std::string key;    ///< preset key ("lorawan-eu868-sf7")
    std::string name;   ///< what lists show ("LoRaWAN EU868 SF7/125 kHz")
    std::string source; ///< where the preset's figures come from, in one line
    LinkRegion region = LinkRegion::None;
    LinkDirection direction = LinkDirection::Downlink;
    bool lora = false;            ///< time on air by loraTimeOnAir(); otherwise by the bit rate
    LoRaModulation modulation;    ///< when lora
    double bitsPerSecond = 0;     ///< PHY rate (LoRa: the regional table's indicative rate)
    int maxPayloadBytes = 0;      ///< application payload of one frame (LoRaWAN: N)
    int frameOverheadBytes = 0;   ///< per frame beyond the payload (LoRaWAN: MHDR 1 + FHDR 7 + FPort 1 + MIC 4)
    int fragmentHeaderBytes = 0;  ///< inside the payload (TS004 DataFragment: 3)
    int fragmentBytes = 0;        ///< data per fragment; 0: maxPayloadBytes - fragmentHeaderBytes
    int maxFragmentsPerSession = 0; ///< TS004: 14-bit fragment counter, 16383; 0: no limit
    double frameLatencySeconds = 0; ///< wall time per frame beyond its airtime (a request/response turnaround)
    int repetitions = 1;          ///< coverage-enhancement repetitions (NB-IoT): airtime and energy x R
    double dutyCycle = 1;         ///< share of time the transmitter may send (EU868 sub-bands: 0.001/0.01/0.1)
    double dwellLimitSeconds = 0; ///< longest allowed frame (US915 uplink: 0.4 s); 0: none
    double frameLoss = 0;         ///< probability that a frame is lost, independently (the devices' mean)
    /// Devices differ: each device's loss lies evenly spread over frameLoss +- frameLossSpread
    /// (near and far nodes), fixed over rounds; 0: every device loses frameLoss. Sessions are
    /// planned for the mean (frameLoss); the spread shows whom that leaves behind.
    double frameLossSpread = 0;
    LinkDelivery delivery = LinkDelivery::Unicast;
    bool multicastCapable = false;
    /// Unicast sessions to different devices share one transmitter (a LoRaWAN gateway's duty
    /// cycle, a BLE gateway's one connection) and run one after another; otherwise in parallel.
    bool sharedTransmitter = true;
    LinkRecovery recovery = LinkRecovery::Retransmit;
    int decodeOverheadFragments = 3;
    double sessionSeconds = 0;    ///< fixed per device and session (attach, connection) before data
    double sessionJoules = 0;     ///< fixed energy per device and session
    double rxWatts = 0;           ///< the device's radio receiving
    double txWatts = 0;           ///< the device's radio transmitting (uplinks)
    LinkListening listening = LinkListening::Frames;
    /// An erasure-coded session's device stops listening at the frame that lets it decode (TS004
    /// lets it; FUOTASim models it); false: it listens to the session's end (the old model).
    bool leaveWhenDecoded = true;
    double pingSlotPeriodSeconds = 0.96; ///< Class B: 0.96 2^periodicity s (at most 122.88 s)
    double pingSlotWindowSeconds = 0.03; ///< Class B: receive window per empty ping slot
    double beaconSeconds = 0;     ///< Class B: receive time per beacon (every 128 s); the region's beacon airtime
    double batteryMilliampHours = 2400;
    double batteryVolts = 3.3;
};

/// Checks every field (ranges, a fragment that fits the frame's payload, the dwell limit);
/// throws LinkError naming the field.
void validateLink(const Link& link);

// --- Presets (sources: docs/fleet.md) ---

/// LoRaWAN EU868 downlink at SF7..SF12/125 kHz (DR5..DR0; Regional Parameters 1.0.3revA): payload
/// 222/222/115/51/51/51 B (repeater compatible), 13 B frame overhead, TS004 fragments (3 B
/// header, 16383 per session, decoded with 3 extra), multicast Class C, SX1262 radio (4.6 mA
/// receive, 45 mA transmit at 14 dBm, 3.3 V). `dutyCycle` must be one of the sub-bands' 0.001,
/// 0.01 or 0.1. Throws LinkError on another SF or duty cycle.
Link lorawanEu868(int spreadingFactor, double dutyCycle = 0.01);
/// One EU868 sub-band a gateway may send in, with the share of time it may send there.
struct Eu868SubBand {
    double dutyCycle = 0; ///< 0.01, 0.001 or 0.1
    double lowMHz = 0;
    double highMHz = 0;
};
/// The sub-bands lorawanEu868() takes, the default first: 1 % (865-868.6 MHz), 0.1 % (863-865 MHz),
/// 10 % (869.4-869.65 MHz). Throws nothing.
const std::vector<Eu868SubBand>& eu868SubBands();
/// The same region's uplink at that SF: payload CRC on, the device's own 1 % sub-band, transmit power.
Link lorawanEu868Uplink(int spreadingFactor);
/// LoRaWAN US915 downlink DR8..DR13 (SF12..SF7 at 500 kHz): payload 53/129/242/242/242/242 B,
/// no duty cycle. Throws LinkError outside DR8..DR13.
Link lorawanUs915Downlink(int dataRate);
/// LoRaWAN US915 uplink DR0..DR3 (SF10..SF7 at 125 kHz): payload 11/53/125/242 B, 400 ms dwell limit.
Link lorawanUs915Uplink(int dataRate);
/// NB-IoT Cat-NB1 (`category` 1) or Cat-NB2 (2) downlink over CoAP block-wise transfer, with a
/// coverage-enhancement repetition factor (1..2048, a power of two).
Link nbIot(int category, int repetitions = 1);
/// LTE-M (Cat-M1, half duplex) downlink over CoAP block-wise transfer.
Link lteM();
/// BLE firmware transfer over MCUmgr/SMP, one request at a time or pipelined (window 3).
Link bleSmp(bool pipelined);
/// A link of the user's own: a bit rate, a frame payload and overhead, nothing else.
Link customLink(double bitsPerSecond, int maxPayloadBytes, int frameOverheadBytes);

/// The preset keys linkPreset() takes, in the order lists show them: lorawan-eu868-sf7 ..
/// lorawan-eu868-sf12, lorawan-us915-dr8 .. dr13, nb-iot-nb1, nb-iot-nb2, lte-m, ble-smp,
/// ble-smp-pipelined.
std::vector<std::string> linkPresetKeysList();
/// The preset with that key or alias (resolveLinkKey(): case-insensitive), at its defaults;
/// throws LinkError naming the keys it knows.
Link linkPreset(const std::string& key);
/// The link model key `key` stands for, in lower case: a preset key as it is, or the preset an
/// older bare-rate key of the command line and of plan files names: lora -> lorawan-eu868-sf7,
/// nb-iot -> nb-iot-nb2, ble -> ble-smp-pipelined (lte-m is the preset lte-m). Any other key
/// comes back in lower case for the caller to take (a region) or refuse. The aliases live only here.
std::string resolveLinkKey(const std::string& key);
/// The aliases resolveLinkKey() takes, for help texts and errors: "lora (lorawan-eu868-sf7),
/// nb-iot (nb-iot-nb2), ble (ble-smp-pipelined)".
std::string linkKeyAliasesText();

/// The same LoRaWAN downlink reached in another device class: Class C listens through the whole
/// session; Class B (ping period 0.96 x 2^pingPeriodicity s, periodicity 0..7) sends each frame
/// at the group's next ping slot and listens at every ping slot and beacon (the region's beacon:
/// EU868 SF9/125 kHz 17 B, US915 SF12/500 kHz 23 B, 10 preamble symbols, implicit header).
/// Throws LinkError ("deviceClass") for a link that is not a LoRaWAN downlink, or
/// ("pingPeriodicity") outside 0..7.
Link withLoRaDeviceClass(const Link& link, LoRaDeviceClass deviceClass, int pingPeriodicity = 0);
/// The ping periodicity p of a Class B link (its ping period 0.96 x 2^p s, rounded).
int pingPeriodicityOf(const Link& link);

/// The same link at another spreading factor, with the region's payload, rate and low data rate
/// optimisation for it. Throws LinkError ("spreadingFactor") when the region has no such SF or
/// the link is not LoRa.
Link withSpreadingFactor(const Link& link, int spreadingFactor);

// --- Frames, redundancy, one round ---

/// Data bytes per fragment (fragmentBytes, or the payload less the fragment header).
int fragmentDataBytes(const Link& link);
/// Bytes of one full frame on air: fragment header + fragment data + frame overhead.
int frameBytes(const Link& link);
/// Seconds one frame of `payloadBytes` (fragment header included) is on air, repetitions included.
double frameAirtime(const Link& link, int payloadBytes);
/// The link's nominal application rate in bit/s: one full frame's data (fragmentDataBytes) over
/// its time on air (repetitions included) and turnaround (frameLatencySeconds), frames back to
/// back; no duty cycle, session set-up, loss or redundancy, which linkRound() adds. Derived from
/// the physical layer, so every preset answers (EU868 SF7 about 4.7 kbit/s, NB-IoT Cat-NB2 about
/// 116 kbit/s, LTE-M about 287 kbit/s, BLE SMP pipelined about 143 kbit/s).
double applicationBitsPerSecond(const Link& link);
/// Data fragments (frames without redundancy) for `bytes`: ceil(bytes / fragmentDataBytes).
int64_t fragmentsFor(const Link& link, int64_t bytes);

/// P(a device completes) when `framesSent` frames carry `fragments` data fragments: at least
/// fragments + decodeOverheadFragments of them arrive (erasure code), or all `fragments`
/// arrive within `framesSent` transmissions (retransmission). Binomial tail at 1 - frameLoss.
double completionProbability(const Link& link, int64_t fragments, int64_t framesSent);

/// The fewest extra frames beyond `fragments` with completionProbability >= `probability`
/// (0 < probability < 1). For a retransmitting link, the retransmissions that suffice with
/// that probability (the negative binomial quantile).
int64_t redundancyFrames(const Link& link, int64_t fragments, double probability);

/// `count` sessions of `fragments` data fragments, each sent as `frames` frames.
struct LinkSessionPart {
    int64_t count = 0;
    int64_t fragments = 0;
    int64_t frames = 0;
};

/// One round of `bytes` to `devices` devices on one link.
struct LinkRound {
    int64_t bytes = 0;
    int64_t sessions = 0;        ///< TS004 sessions the bundle needs (16383 fragments each)
    int64_t fragments = 0;       ///< data fragments (frames without redundancy)
    int64_t redundancy = 0;      ///< extra frames for the target
    int64_t frames = 0;          ///< per device session: fragments + redundancy
    int64_t bytesOnAir = 0;      ///< frames x frameBytes, per session (multicast) or in all (unicast)
    double deviceProbability = 0; ///< achieved P(one device completes), at the mean loss
    /// Expected share of the devices that complete, over the devices' loss spread (an erasure-coded
    /// session planned for the mean leaves the lossier devices behind); deviceProbability without one.
    double completionShare = 0;
    double frameSeconds = 0;     ///< airtime of one full frame
    double airtime = 0;          ///< transmitter's time on air: once (multicast) or per device (unicast)
    double wallTime = 0;         ///< until every device's session ends, duty cycle and fixed costs included
    double deviceSeconds = 0;    ///< one device's session: fixed time + its frames under the duty cycle (and ping slots)
    /// Expected seconds a device listens: until it decodes (leaveWhenDecoded) or the session's end.
    double listenSeconds = 0;
    double energyPerDevice = 0;  ///< J, expected: frames (or listening) + fixed session energy
    double batteryShare = 0;     ///< energyPerDevice / battery energy
    /// The sessions a device goes through (at most two sizes: a bundle over the per-session
    /// fragment limit is split evenly); one entry of count 1 otherwise.
    std::vector<LinkSessionPart> parts;
};

/// Frames, redundancy, airtime, wall time and energy for one round of `bytes` to `devices`
/// devices (docs/fleet.md "One round"). bytes <= 0 costs nothing. Throws LinkError on an invalid
/// link, devices < 1 or a probability outside (0, 1).
LinkRound linkRound(const Link& link, int64_t bytes, int devices, const RoundTarget& target = {});

/// Battery energy in J: mAh x 3.6 x V.
double batteryJoules(const Link& link);

/// The largest bundle (bytes) whose round fits `seconds` of wall time; 0 when not even one
/// byte does (the fixed session time alone exceeds it). Capped at 2^40.
int64_t largestBytesForWallTime(const Link& link, double seconds, int devices, const RoundTarget& target = {});
/// The largest bundle (bytes) whose round costs each device at most `joules`; 0 when none.
int64_t largestBytesForEnergy(const Link& link, double joules, int devices, const RoundTarget& target = {});

// --- Spreading-factor mixes (LoRa: the devices' SFs) ---

/// The largest weight of one SF in a mix: weights of 1e308 each added up to infinity (docs/fleet.md "Limits").
constexpr double kMaxSpreadingFactorWeight = 1e9;

struct SpreadingFactorShare {
    int spreadingFactor = 7;
    double share = 0; ///< a weight 0 .. kMaxSpreadingFactorWeight; normalised over the mix
};

/// FUOTASim's default mix: 45 % SF7, 22 % SF8, 11 % SF9, 8 % SF10, 8 % SF11, 6 % SF12.
std::vector<SpreadingFactorShare> fuotaSimSpreadingFactorMix();
/// Parses "7:45,8:22,9:11,10:8,11:8,12:6" (SF:weight, weights normalised). Throws LinkError ("sfMix")
/// for a malformed pair, an SF twice, or a weight that is not a number 0 .. kMaxSpreadingFactorWeight.
std::vector<SpreadingFactorShare> parseSpreadingFactorMix(const std::string& text);
/// Devices per spreading factor, SF ascending, by the largest remainder: exact counts that add
/// up to `devices` (ties to the lower SF). SFs that get no device are left out. Never out of
/// range: weights are taken relative to the largest, and one that is NaN, infinite or negative
/// counts as 0 (validateFleet() refuses such a mix; this only keeps a display of it safe).
std::vector<std::pair<int, int>> spreadingFactorCounts(int devices, const std::vector<SpreadingFactorShare>& mix);

} // namespace dpu
