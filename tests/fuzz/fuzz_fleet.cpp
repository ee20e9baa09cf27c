// SPDX-License-Identifier: MIT
// libFuzzer target: the fleet's and the link's settings (key=value lines, every number as text, NaN and 1e999 included) through validation, linkRound and a small simulation, and a trace after '---' through the CSV or FedScale reader.
#include "dpu/Fleet.h"
#include "dpu/DeploymentModel.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>

namespace {

/// The input: `key=value` lines, then optionally a line `---` and a trace's text.
struct Input {
    std::map<std::string, std::string> values;
    std::string trace;
    bool hasTrace = false;

    bool has(const char* key) const { return values.count(key) > 0; }
    const std::string& text(const char* key) const
    {
        static const std::string none;
        const auto it = values.find(key);
        return it == values.end() ? none : it->second;
    }
    /// The value as strtod reads it ("nan", "inf", "1e999" included); `fallback` when absent.
    double number(const char* key, double fallback) const
    {
        return has(key) ? std::strtod(text(key).c_str(), nullptr) : fallback;
    }
    /// An integer field's value: clamped into its type (a cast from NaN or 1e300 is the
    /// harness's undefined behaviour, not the engine's), also given to wholeFleetNumber().
    int64_t integer(const char* key, int64_t fallback, int64_t min = INT32_MIN, int64_t max = INT32_MAX) const
    {
        if (!has(key))
            return fallback;
        const double v = number(key, 0);
        try {
            dpu::wholeFleetNumber(v, key, min, max);
        } catch (const dpu::LinkError&) {
        }
        if (std::isnan(v))
            return 0;
        return v <= static_cast<double>(min) ? min : v >= static_cast<double>(max) ? max : static_cast<int64_t>(v);
    }
};

Input parse(const std::string& data)
{
    Input in;
    for (size_t at = 0; at < data.size();) {
        const size_t end = std::min(data.find('\n', at), data.size());
        const std::string line = data.substr(at, end - at);
        at = end + 1;
        if (line == "---") {
            in.hasTrace = true;
            in.trace = at < data.size() ? data.substr(at) : std::string();
            break;
        }
        const size_t eq = line.find('=');
        if (eq != std::string::npos)
            in.values[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return in;
}

dpu::Deployment settingsOf(const Input& in)
{
    dpu::Deployment s;
    if (in.has("link"))
        s.link.link = in.text("link");
    s.link.spreadingFactor = static_cast<int>(in.integer("sf", 0));
    s.link.sfMix = in.text("sf_mix");
    s.link.dutyCycle = in.number("duty", NAN);
    s.link.frameLoss = in.number("loss", 0);
    const std::string& delivery = in.text("delivery");
    s.link.delivery = delivery == "multicast" ? dpu::DeliveryChoice::Multicast
                      : delivery == "unicast" ? dpu::DeliveryChoice::Unicast
                                              : dpu::DeliveryChoice::Preset;
    s.devices = static_cast<int>(in.integer("devices", 20));
    s.availability = in.number("availability", 1);
    s.roundPeriodHours = in.number("period", 86400) / 3600.0;
    s.drainRounds = static_cast<int>(in.integer("drain", 0));
    s.seed = static_cast<uint64_t>(in.integer("seed", 1, 0, dpu::kMaxExactSeed));
    const std::string& cpu = in.text("cpu");
    s.cpu.cpu = cpu == "m4" ? dpu::CpuChoice::CortexM4 : cpu == "m0" ? dpu::CpuChoice::CortexM0 : dpu::CpuChoice::None;
    s.cpu.clockMhz = in.number("clock_mhz", 64);
    s.cpu.cyclesPerInstruction = in.number("cpi", 1);
    s.cpu.runMilliamps = in.number("run_ma", 3);
    s.cpu.volts = in.number("volts", 3);
    s.policy.catchUp = in.text("catch_up") == "multicast" ? dpu::CatchUpDelivery::MulticastPerVersion : dpu::CatchUpDelivery::Unicast;
    s.policy.order = in.text("order") == "smallest" ? dpu::CatchUpOrder::SmallestFirst : dpu::CatchUpOrder::MostStaleFirst;
    s.policy.maxStaleness = static_cast<int>(in.integer("max_staleness", 0));
    s.policy.repairSessions = static_cast<int>(in.integer("repairs", 1));
    s.policy.target.probability = in.number("target", 0.99);
    s.policy.target.everyDevice = in.text("every_device") == "1";
    s.policy.multicastPerSpreadingFactor = in.text("per_sf") == "1";
    return s;
}

/// The link's own fields a program may set beyond what the settings name.
void overrideLink(const Input& in, dpu::Link& l)
{
    const auto i = [&](const char* key, int& field) { field = static_cast<int>(in.integer(key, field)); };
    const auto d = [&](const char* key, double& field) { field = in.number(key, field); };
    i("payload", l.maxPayloadBytes);
    i("overhead", l.frameOverheadBytes);
    i("header", l.fragmentHeaderBytes);
    i("fragment", l.fragmentBytes);
    i("max_fragments", l.maxFragmentsPerSession);
    i("repetitions", l.repetitions);
    i("decode_overhead", l.decodeOverheadFragments);
    i("preamble", l.modulation.preambleSymbols);
    i("coding_rate", l.modulation.codingRate);
    d("bits_per_second", l.bitsPerSecond);
    d("bandwidth", l.modulation.bandwidthHz);
    d("latency", l.frameLatencySeconds);
    d("dwell", l.dwellLimitSeconds);
    d("session_s", l.sessionSeconds);
    d("session_j", l.sessionJoules);
    d("rx_w", l.rxWatts);
    d("tx_w", l.txWatts);
    d("ping_period", l.pingSlotPeriodSeconds);
    d("ping_window", l.pingSlotWindowSeconds);
    d("battery_mah", l.batteryMilliampHours);
    d("battery_v", l.batteryVolts);
    if (in.has("recovery"))
        l.recovery = in.text("recovery") == "erasure" ? dpu::LinkRecovery::ErasureCode : dpu::LinkRecovery::Retransmit;
    if (in.has("listening"))
        l.listening = in.text("listening") == "whole" ? dpu::LinkListening::WholeSession
                      : in.text("listening") == "ping" ? dpu::LinkListening::PingSlots
                                                       : dpu::LinkListening::Frames;
    if (in.has("shared"))
        l.sharedTransmitter = in.text("shared") == "1";
}

/// Versions at rounds first, first + step, ... (at most 64: the harness's, for speed).
dpu::FleetStrategy strategyOf(const Input& in)
{
    dpu::FleetStrategy s;
    s.name = "fuzz";
    const int64_t count = in.integer("versions", 3, 0, 64);
    const int64_t first = in.integer("first_round", 1);
    const int64_t step = in.integer("round_step", 1);
    for (int64_t v = 0; v < count; ++v) {
        const double round = static_cast<double>(first) + static_cast<double>(v) * static_cast<double>(step);
        s.versions.push_back({static_cast<int>(std::max<double>(INT32_MIN, std::min<double>(INT32_MAX, round))),
                              in.number("accuracy", 0.5), v == 0 ? 0 : in.integer("delta", 10240, INT64_MIN, INT64_MAX)});
    }
    s.fullModelBytes = in.integer("full", 400000, INT64_MIN, INT64_MAX);
    s.deviceFileBytes = in.integer("device_file", 400000, INT64_MIN, INT64_MAX);
    s.coding = static_cast<dpu::Coding>(in.integer("coding", 0, 0, 5));
    return s;
}

/// A finished simulation must be self-consistent; anything else is a finding.
void check(const dpu::FleetResult& r)
{
    for (const dpu::FleetRound& round : r.rounds) {
        double share = 0;
        for (double s : round.versionShare)
            share += s;
        if (std::fabs(share - 1) > 1e-9 || round.available > r.devices || round.served > round.available || round.completed > r.devices)
            std::abort();
    }
}

/// The simulation when its cost is small: the fuzzer checks what is accepted, not the limits'
/// time (docs/fleet.md measures that).
void simulate(const dpu::FleetConfig& config, const dpu::FleetStrategy& strategy, int64_t bytes)
{
    dpu::validateFleet(config, strategy);
    const int64_t rounds = std::max(config.lastRound, strategy.versions.back().round) - strategy.versions.front().round
                           + config.drainRounds;
    const int64_t largest = std::max({strategy.fullModelBytes, bytes, static_cast<int64_t>(1)});
    int64_t devices = 0;
    for (const dpu::FleetGroup& g : config.groups)
        devices += g.devices;
    if (devices * std::max<int64_t>(rounds, 1) <= 20000 && largest <= 1000000)
        check(dpu::simulateFleet(config, strategy));
}

void fleetAndLink(const Input& in)
{
    const dpu::Deployment settings = settingsOf(in);
    const dpu::FleetStrategy strategy = strategyOf(in);
    dpu::FleetConfig config = dpu::fleetConfigOf(settings, static_cast<int>(in.integer("last_round", 0)),
                                                 in.integer("new_samples", 0, INT64_MIN, INT64_MAX));
    overrideLink(in, config.groups[0].link);
    if (in.has("uplink"))
        config.groups[0].uplink = std::make_shared<dpu::Link>(dpu::lorawanEu868Uplink(7));
    config.sampleBytes = in.integer("sample_bytes", 0, INT64_MIN, INT64_MAX);
    dpu::FleetGroup second = config.groups[0]; // a second group: the devices count over both
    second.devices = static_cast<int>(in.integer("devices2", 1));
    config.groups.push_back(second);
    const dpu::Link& link = config.groups[0].link;
    const int64_t bytes = in.integer("bytes", 10240, INT64_MIN, INT64_MAX);
    dpu::validateLink(link);
    if (bytes <= 1000000) // linkRound over the link as the settings made it
        dpu::linkRound(link, bytes, static_cast<int>(std::min<int64_t>(config.groups[0].devices, 1000000)), config.policy.target);
    simulate(config, strategy, bytes);
}

void trace(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && text[first] == '{';
    const dpu::AvailabilityTrace t = json ? dpu::AvailabilityTrace::parseFedScale(text, "fuzz.json")
                                          : dpu::AvailabilityTrace::parseCsv(text, "fuzz.csv");
    for (size_t d = 0; d < std::min<size_t>(t.devices(), 8); ++d)
        for (int round : {1, 2, 7})
            (void)t.available(d, round, round * 3600.0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const Input in = parse(std::string(reinterpret_cast<const char*>(data), size));
    try {
        fleetAndLink(in);
    } catch (const dpu::Error&) {
        // a named refusal is the right answer to bad settings
    }
    if (in.hasTrace) {
        try {
            trace(in.trace);
        } catch (const dpu::Error&) {
        }
    }
    return 0;
}
