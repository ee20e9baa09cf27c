// SPDX-License-Identifier: MIT
// A deployment's multicast sessions and one round's CreateDeploymentRequest in ChirpStack FUOTA server's field names (dpu/FuotaExport.h).
#include "dpu/FuotaExport.h"
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "util/Sha256Hex.h"
#include <nlohmann/json.hpp>
#include <cmath>
#include <cstdio>

namespace dpu {

namespace {

constexpr double kFuotaBeaconPeriod = 128; // LoRaWAN Class B
constexpr int kFuotaMaxTimeOut = 15;              // TS005: TimeOut has 4 bits
constexpr int kFuotaMaxFragmentSize = 255;        // TS004: FragSize has one byte

void requireFuota(bool ok, const std::string& field, const std::string& message)
{
    if (!ok)
        throw LinkError(field, message);
}

std::string fuotaNumber(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

std::string fuotaBase64(const uint8_t* data, size_t size)
{
    static const char* const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((size + 2) / 3 * 4);
    for (size_t i = 0; i < size; i += 3) {
        const uint32_t n = (uint32_t{data[i]} << 16) | (i + 1 < size ? uint32_t{data[i + 1]} << 8 : 0u)
                           | (i + 2 < size ? uint32_t{data[i + 2]} : 0u);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += i + 1 < size ? alphabet[(n >> 6) & 63] : '=';
        out += i + 2 < size ? alphabet[n & 63] : '=';
    }
    return out;
}

/// EU868's multicast frequency in the sub-band the deployment's duty cycle names.
void fuotaEu868Frequency(double dutyCycle, FuotaSession& s)
{
    const auto is = [&](double d) { return std::fabs(dutyCycle - d) < 1e-12; };
    if (is(0.1)) {
        s.frequencyHz = 869525000;
        s.frequencyFrom = "the 10 % sub-band (869.4-869.65 MHz) holds one 125 kHz channel, 869.525 MHz: RX2's and "
                          "Class B's default";
    } else if (is(0.01)) {
        s.frequencyHz = 868100000;
        s.frequencyChosen = true;
        s.frequencyFrom = "a channel of the 1 % sub-band (865-868.6 MHz): 868.1 MHz, the first default channel; "
                          "any channel of your network in that sub-band keeps the plan's timing";
    } else {
        requireFuota(is(0.001), "fleet.duty_cycle",
                     "expected one of EU868's sub-bands 0.001, 0.01 or 0.1, found " + fuotaNumber(dutyCycle));
        s.frequencyHz = 868850000;
        s.frequencyChosen = true;
        s.frequencyFrom = "a channel of the 0.1 % sub-band (868.7-869.2 MHz): 868.85 MHz; any channel of your "
                          "network in a 0.1 % sub-band keeps the plan's timing";
    }
}

/// The session on `link` (at its SF) for `devices` devices.
FuotaSession fuotaSessionAt(const Link& link, int devices)
{
    FuotaSession s;
    s.spreadingFactor = link.modulation.spreadingFactor;
    s.devices = devices;
    s.linkName = link.name;
    const bool classB = link.listening == LinkListening::PingSlots;
    s.groupType = classB ? "CLASS_B" : "CLASS_C";
    s.pingSlotPeriodicity = classB ? pingPeriodicityOf(link) : 0;
    s.fragmentSize = fragmentDataBytes(link);
    if (link.region == LinkRegion::Eu868) {
        s.region = "EU868";
        s.dataRate = 12 - s.spreadingFactor; // Regional Parameters: DR0 = SF12 .. DR5 = SF7 at 125 kHz
        fuotaEu868Frequency(link.dutyCycle, s);
    } else {
        s.region = "US915";
        s.dataRate = 8 + 12 - s.spreadingFactor; // DR8 = SF12 .. DR13 = SF7 at 500 kHz
        s.frequencyHz = classB ? 0 : 923300000;
        s.frequencyFrom = classB ? "0: the region's Class B channel hopping over the beacon channels (TS005)"
                                 : "RX2's default channel, 923.3 MHz";
    }
    requireFuota(s.fragmentSize >= 1 && s.fragmentSize <= kFuotaMaxFragmentSize, "fragmentationFragmentSize",
                 "expected 1 .. 255 bytes per fragment (TS004), found " + std::to_string(s.fragmentSize) + " on "
                     + link.name);
    return s;
}

/// The deployment's link at the session's spreading factor.
Link fuotaLinkAt(const Deployment& d, int spreadingFactor)
{
    const Link link = linkOf(d.link);
    return link.modulation.spreadingFactor == spreadingFactor ? link : withSpreadingFactor(link, spreadingFactor);
}

void checkFuotaOptions(const FuotaOptions& o)
{
    requireFuota(o.unicastTimeoutSeconds >= 1 && o.unicastTimeoutSeconds <= 86400, "unicastTimeout",
                 "expected 1 .. 86400 s, found " + std::to_string(o.unicastTimeoutSeconds));
    requireFuota(o.unicastAttemptCount >= 1 && o.unicastAttemptCount <= 100, "unicastAttemptCount",
                 "expected 1 .. 100, found " + std::to_string(o.unicastAttemptCount));
    requireFuota(o.multicastGroupId >= 0 && o.multicastGroupId <= 3, "multicastGroupId",
                 "expected 0 .. 3 (TS005 McGroupID), found " + std::to_string(o.multicastGroupId));
    requireFuota(o.fragmentationSessionIndex >= 0 && o.fragmentationSessionIndex <= 3, "fragmentationSessionIndex",
                 "expected 0 .. 3 (TS004 FragIndex), found " + std::to_string(o.fragmentationSessionIndex));
    requireFuota(o.blockAckDelay >= 0 && o.blockAckDelay <= 7, "fragmentationBlockAckDelay",
                 "expected 0 .. 7 (TS004 BlockAckDelay), found " + std::to_string(o.blockAckDelay));
}

/// TS005's TimeOut: the smallest t with 2^t s (Class C) or 2^t beacon periods (Class B) covering
/// the session.
int fuotaTimeOutFor(const FuotaRequest& q)
{
    const bool classB = q.session.groupType == "CLASS_B";
    const double unit = classB ? kFuotaBeaconPeriod : 1;
    int t = 0;
    while (t <= kFuotaMaxTimeOut && unit * std::ldexp(1.0, t) < q.sessionSeconds)
        ++t;
    requireFuota(t <= kFuotaMaxTimeOut, "multicastTimeout",
                 "round " + std::to_string(q.round) + ": the session of " + std::to_string(q.fragments + q.redundancy)
                     + " frames takes an expected " + fuotaNumber(q.sessionSeconds) + " s on " + q.session.linkName
                     + ", longer than a Class " + (classB ? "B" : "C") + " session may last (TS005: "
                     + (classB ? "128 x 2^15 s" : "2^15 s = 32768 s") + "): a faster SF (fleet.sf), a busier sub-band "
                     + "(fleet.duty_cycle), Class B (fleet.device_class) or a smaller bundle would fit it");
    return t;
}

/// The request's JSON: every field of fuota.Deployment, in the message's order, proto3's JSON names.
std::string fuotaRequestJson(const FuotaRequest& q, const std::vector<uint8_t>& bundle, const FuotaOptions& o)
{
    const std::string fill = kFuotaFillIn;
    uint8_t descriptor[4];
    for (int i = 0; i < 4; ++i)
        descriptor[i] = static_cast<uint8_t>(q.updateVersion >> (8 * i));
    nlohmann::ordered_json device;
    device["devEui"] = fill + "the DevEUI of one device, 16 hex digits; one entry per device>";
    device["mcRootKey"] = fill + "that device's McRootKey (TS005, from its GenAppKey or AppKey), 32 hex digits>";
    nlohmann::ordered_json d;
    d["applicationId"] = fill + "the id (a UUID) of the ChirpStack application the devices belong to>";
    d["devices"] = nlohmann::ordered_json::array({device});
    d["multicastGroupType"] = q.session.groupType;
    d["multicastDr"] = q.session.dataRate;
    d["multicastPingSlotPeriod"] = q.session.pingSlotPeriodicity;
    d["multicastFrequency"] = q.session.frequencyHz;
    d["multicastGroupId"] = o.multicastGroupId;
    d["multicastTimeout"] = q.multicastTimeout;
    d["multicastRegion"] = q.session.region;
    d["unicastTimeout"] = std::to_string(o.unicastTimeoutSeconds) + "s"; // google.protobuf.Duration
    d["unicastAttemptCount"] = o.unicastAttemptCount;
    d["fragmentationFragmentSize"] = q.session.fragmentSize;
    d["payload"] = fuotaBase64(bundle.data(), bundle.size());
    d["fragmentationRedundancy"] = q.redundancy;
    d["fragmentationSessionIndex"] = o.fragmentationSessionIndex;
    d["fragmentationMatrix"] = 0;
    d["fragmentationBlockAckDelay"] = o.blockAckDelay;
    d["fragmentationDescriptor"] = fuotaBase64(descriptor, 4);
    d["requestFragmentationSessionStatus"] = "AFTER_SESSION_TIMEOUT";
    nlohmann::ordered_json request;
    request["deployment"] = d;
    return request.dump(2) + "\n";
}

} // namespace

std::vector<FuotaSession> fuotaSessionsOf(const Deployment& d)
{
    const Link link = linkOf(d.link);
    const bool lorawan = link.lora && link.direction == LinkDirection::Downlink
                         && (link.region == LinkRegion::Eu868 || link.region == LinkRegion::Us915Downlink);
    requireFuota(lorawan, "fleet.link",
                 "a FUOTA server sends TS004 fragments to a TS005 multicast group: expected a LoRaWAN EU868 or US915 "
                 "downlink (lorawan-eu868, lorawan-us915 or one of their presets), found '" + d.link.link + "' ("
                     + link.name + ")");
    requireFuota(link.delivery == LinkDelivery::Multicast, "fleet.delivery",
                 "a FUOTA deployment is one multicast to a group of devices: expected \"multicast\" (or \"preset\" on a "
                 "multicast link), found unicast delivery on " + link.name);
    const bool multicastClass = link.listening != LinkListening::Frames && link.recovery == LinkRecovery::ErasureCode;
    requireFuota(multicastClass, "fleet.device_class",
                 "a multicast group's devices listen in Class B or C: expected \"b\" or \"c\", found a link whose devices "
                 "hear single frames (" + link.name + ")");
    const std::vector<SpreadingFactorShare> mix = sfMixOf(d.link);
    std::vector<FuotaSession> sessions;
    if (d.policy.multicastPerSpreadingFactor && !mix.empty()) {
        for (const auto& [sf, devices] : spreadingFactorCounts(d.devices, mix))
            sessions.push_back(fuotaSessionAt(link.modulation.spreadingFactor == sf ? link : withSpreadingFactor(link, sf),
                                              devices));
    } else {
        sessions.push_back(fuotaSessionAt(atSlowestSpreadingFactor(link, mix), d.devices));
    }
    return sessions;
}

FuotaRequest fuotaRequestOf(const Deployment& d, const FuotaSession& s, const std::vector<uint8_t>& bundle, int round,
                            uint64_t updateVersion, const FuotaOptions& o)
{
    checkFuotaOptions(o);
    const std::string where = "round " + std::to_string(round) + ": ";
    requireFuota(!bundle.empty(), "payload", where + "expected a bundle, found an empty file");
    requireFuota(updateVersion <= 0xffffffffu, "fragmentationDescriptor",
                 where + "the update version " + std::to_string(updateVersion) + " does not fit the descriptor's 4 bytes");
    FuotaRequest q;
    q.round = round;
    q.updateVersion = updateVersion;
    q.session = s;
    q.payloadBytes = static_cast<int64_t>(bundle.size());
    q.payloadSha256 = sha256Hex(bundle);
    // As the fleet simulation plans a session: for one device at the target, or for all of them.
    const Link link = fuotaLinkAt(d, s.spreadingFactor);
    const int forTarget = d.policy.target.everyDevice ? s.devices : 1;
    const LinkRound r = linkRound(link, q.payloadBytes, forTarget, d.policy.target);
    requireFuota(r.sessions == 1, "payload",
                 where + std::to_string(q.payloadBytes) + " B are " + std::to_string(r.fragments) + " fragments of "
                     + std::to_string(s.fragmentSize) + " B, which need " + std::to_string(r.sessions)
                     + " TS004 sessions of at most 16383 frames; a FUOTA deployment carries one");
    q.fragments = r.fragments;
    q.redundancy = r.redundancy;
    q.sessionSeconds = r.wallTime;
    q.multicastTimeout = fuotaTimeOutFor(q);
    q.timeoutSeconds = (s.groupType == "CLASS_B" ? kFuotaBeaconPeriod : 1) * std::ldexp(1.0, q.multicastTimeout);
    q.json = fuotaRequestJson(q, bundle, o);
    return q;
}

} // namespace dpu
