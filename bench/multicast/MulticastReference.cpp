// SPDX-License-Identifier: MIT
// The frame-level multicast reference: the gateway's frames under the duty cycle (and Class B's ping slots), each device's losses, decoding, leaving and radio time.
#include "MulticastReference.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace mcref {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// LoRaWAN Class B (LoRaWAN 1.0.4 section 12, Regional Parameters for EU868): a beacon every 128 s,
// 2.12 s reserved after it and 3 s of guard before the next; between them 4096 slots of 30 ms.
constexpr double kBeaconPeriod = 128.0;
constexpr double kBeaconReserved = 2.12;
constexpr double kSlotSeconds = 0.03;
constexpr int kSlotsPerWindow = 4096;
// The EU868 beacon: DR3 (SF9/125 kHz), 17 B, 10 preamble symbols, implicit header, no CRC.
constexpr int kBeaconSf = 9;
constexpr int kBeaconBytes = 17;
constexpr int kBeaconPreamble = 10;
constexpr int kFrameOverhead = 13; // MHDR 1 + FHDR 7 + FPort 1 + MIC 4
constexpr int kFragmentHeader = 3; // TS004 DataFragment: command 1 + index 2
constexpr int kExtraFragments = 3; // FUOTASim's rule: data + 3 of any fragments

/// Uniform numbers from the standard's exactly specified 64-bit Mersenne twister, turned into
/// [0, 1) with 53 bits (std::uniform_real_distribution's output is not the same everywhere).
class Random {
public:
    explicit Random(uint64_t seed) : engine_(seed) {}
    double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    uint64_t bits() { return engine_(); }

private:
    std::mt19937_64 engine_;
};

/// The ping slots of one multicast group. Each beacon period draws its own ping offset (the
/// specification derives it from the beacon's time and the group's address by AES: for a
/// simulation, a uniform draw per period), and the group's slots in that period are
/// beacon + 2.12 s + (offset + i x pingPeriod) x 30 ms, i = 0 .. pingNb - 1.
class PingCalendar {
public:
    PingCalendar(int periodicity, Random& random)
        : periodSlots_(1 << (5 + periodicity)), slotsPerBeacon_(kSlotsPerWindow / periodSlots_), random_(random)
    {
    }

    double slot(int64_t beacon, int i)
    {
        return static_cast<double>(beacon) * kBeaconPeriod + kBeaconReserved + (offset(beacon) + i * periodSlots_) * kSlotSeconds;
    }

    /// The first ping slot at or after t.
    double next(double t)
    {
        for (auto beacon = static_cast<int64_t>(std::floor(t / kBeaconPeriod));; ++beacon) {
            const double first = slot(beacon, 0);
            if (t <= first)
                return first;
            const double periodSeconds = periodSlots_ * kSlotSeconds;
            const int i = static_cast<int>(std::ceil((t - first) / periodSeconds - 1e-12));
            if (i < slotsPerBeacon_)
                return slot(beacon, i);
        }
    }

    /// Every ping slot in [from, to), in time order.
    std::vector<double> between(double from, double to)
    {
        std::vector<double> out;
        for (auto beacon = static_cast<int64_t>(std::floor(from / kBeaconPeriod)); beacon * kBeaconPeriod < to; ++beacon)
            for (int i = 0; i < slotsPerBeacon_; ++i) {
                const double t = slot(beacon, i);
                if (t >= from && t < to)
                    out.push_back(t);
            }
        return out;
    }

private:
    int offset(int64_t beacon)
    {
        while (static_cast<int64_t>(offsets_.size()) <= beacon)
            offsets_.push_back(static_cast<int>(random_.bits() % static_cast<uint64_t>(periodSlots_)));
        return offsets_[static_cast<size_t>(beacon)];
    }

    int periodSlots_;
    int slotsPerBeacon_;
    Random& random_;
    std::vector<int> offsets_; ///< per beacon period since time 0
};

/// Gaussian elimination over GF(2), one fragment at a time: pivots_[c] holds a row whose lowest
/// set column is c. Decoded when every column has its pivot.
class Gf2Decoder {
public:
    explicit Gf2Decoder(int columns) : words_((columns + 63) / 64), pivots_(static_cast<size_t>(columns)), columns_(columns) {}
    bool decoded() const { return rank_ == columns_; }
    void add(std::vector<uint64_t> row)
    {
        for (int w = 0; w < words_; ++w)
            while (row[static_cast<size_t>(w)] != 0) {
                const int c = w * 64 + __builtin_ctzll(row[static_cast<size_t>(w)]);
                std::vector<uint64_t>& pivot = pivots_[static_cast<size_t>(c)];
                if (pivot.empty()) {
                    pivot = std::move(row);
                    ++rank_;
                    return;
                }
                for (int v = w; v < words_; ++v)
                    row[static_cast<size_t>(v)] ^= pivot[static_cast<size_t>(v)];
            }
    }

private:
    int words_;
    std::vector<std::vector<uint64_t>> pivots_;
    int columns_;
    int rank_ = 0;
};

/// The code's rows: fragment k < n is data fragment k; later ones combine a pseudo-random half
/// of the data fragments (fixed per session, as TS004's matrix is known to every device).
std::vector<std::vector<uint64_t>> codeRows(int n, int frames)
{
    const int words = (n + 63) / 64;
    std::mt19937_64 matrix(0x7534'0004ULL + static_cast<uint64_t>(n));
    std::vector<std::vector<uint64_t>> rows(static_cast<size_t>(frames), std::vector<uint64_t>(static_cast<size_t>(words), 0));
    for (int k = 0; k < frames; ++k) {
        auto& row = rows[static_cast<size_t>(k)];
        if (k < n) {
            row[static_cast<size_t>(k / 64)] = uint64_t{1} << (k % 64);
            continue;
        }
        for (int c = 0; c < n; ++c)
            if (matrix() >> 63)
                row[static_cast<size_t>(c / 64)] |= uint64_t{1} << (c % 64);
    }
    return rows;
}

struct Device {
    double loss = 0;
    int spreadingFactor = 7;
    double decodedAt = kNaN; ///< absolute time of the frame end that completed it
    double joules = 0;
    int heard = 0;
};

struct Session {
    int spreadingFactor = 7;
    int fragments = 0;
    int frames = 0;
    std::vector<size_t> devices;
};

/// Frame start times of one session from `earliest`: Class C sends as soon as the sub-band's
/// off-time after the previous frame allows; Class B waits, in addition, for the next ping slot.
std::vector<double> frameStarts(const Scenario& s, double frameSeconds, int frames, double earliest, PingCalendar& calendar)
{
    std::vector<double> starts;
    for (int k = 0; k < frames; ++k) {
        const double start = s.deviceClass == DeviceClass::B ? calendar.next(earliest) : earliest;
        starts.push_back(start);
        earliest = start + frameSeconds / s.dutyCycle; // on air T, then off (1/d - 1) T
    }
    return starts;
}

/// Class B radio time of a device that listened over [from, to): its frames, a window at every
/// ping slot no frame of the session covered, and every beacon in between.
double classBSeconds(const Scenario& s, const std::vector<double>& slots, const std::vector<char>& covered, double from, double to,
                     int heard, double frameSeconds)
{
    const auto first = std::lower_bound(slots.begin(), slots.end(), from) - slots.begin();
    const auto last = std::lower_bound(slots.begin(), slots.end(), to) - slots.begin();
    int64_t empty = 0;
    for (auto i = first; i < last; ++i)
        empty += covered[static_cast<size_t>(i)] ? 0 : 1;
    const auto beacons = static_cast<int64_t>(std::ceil(to / kBeaconPeriod) - std::ceil(from / kBeaconPeriod));
    const double beacon = airtimeSeconds(kBeaconSf, kBeaconBytes, kBeaconPreamble, true);
    return heard * frameSeconds + static_cast<double>(empty) * s.pingWindowSeconds + static_cast<double>(beacons) * beacon;
}

/// Runs one session from `earliest`; returns when the sub-band is free again.
double runSession(const Scenario& s, const Session& session, double earliest, std::vector<Device>& devices, PingCalendar& calendar,
                  Random& random, double& lastFrameEnd)
{
    const int payload = eu868Payload(session.spreadingFactor);
    const double frameSeconds = airtimeSeconds(session.spreadingFactor, payload + kFrameOverhead);
    const std::vector<double> starts = frameStarts(s, frameSeconds, session.frames, earliest, calendar);
    const double sessionStart = earliest;
    const double sessionEnd = starts.back() + frameSeconds / s.dutyCycle; // a device that never decodes times out here
    lastFrameEnd = starts.back() + frameSeconds;
    std::vector<double> slots;
    std::vector<char> covered;
    if (s.deviceClass == DeviceClass::B) {
        slots = calendar.between(sessionStart, sessionEnd);
        covered.assign(slots.size(), 0);
        size_t f = 0;
        for (size_t i = 0; i < slots.size(); ++i) { // a slot inside a frame's reception opens no window
            while (f < starts.size() && starts[f] + frameSeconds <= slots[i])
                ++f;
            covered[i] = f < starts.size() && starts[f] <= slots[i] ? 1 : 0;
        }
    }
    const bool gf2 = s.decoding == Decoding::Gf2;
    const std::vector<std::vector<uint64_t>> rows = gf2 ? codeRows(session.fragments, session.frames) : std::vector<std::vector<uint64_t>>{};
    for (size_t d : session.devices) {
        Device& device = devices[d];
        Gf2Decoder decoder(gf2 ? session.fragments : 0);
        int received = 0;
        double stop = sessionEnd;
        for (int k = 0; k < session.frames; ++k) {
            ++device.heard;
            const double end = starts[static_cast<size_t>(k)] + frameSeconds;
            if (random.unit() < device.loss || !std::isnan(device.decodedAt))
                continue; // lost, or already decoded and still listening (the old behaviour)
            ++received;
            if (gf2)
                decoder.add(rows[static_cast<size_t>(k)]);
            if (gf2 ? decoder.decoded() : received >= session.fragments + kExtraFragments) {
                device.decodedAt = end;
                if (s.leaveWhenDecoded) {
                    stop = end;
                    break;
                }
            }
        }
        const double radio = s.deviceClass == DeviceClass::C
                                 ? stop - sessionStart
                                 : classBSeconds(s, slots, covered, sessionStart, stop, device.heard, frameSeconds);
        device.joules += radio * s.rxWatts;
    }
    return sessionEnd;
}

/// Seconds from `start` until `share` of the devices decoded (the ceil(share x N)-th decoding);
/// NaN when fewer ever did.
double timeToShare(const std::vector<double>& decodedAt, double share, double start)
{
    std::vector<double> times;
    for (double t : decodedAt)
        if (!std::isnan(t))
            times.push_back(t);
    std::sort(times.begin(), times.end());
    const auto needed = static_cast<size_t>(std::ceil(share * static_cast<double>(decodedAt.size()) - 1e-9));
    if (needed == 0)
        return 0;
    return needed <= times.size() ? times[needed - 1] - start : kNaN;
}

std::vector<Session> sessionsOf(const Scenario& s, const std::vector<Device>& devices)
{
    std::vector<Session> sessions;
    for (const SfGroup& g : s.groups) {
        if (g.devices <= 0)
            continue;
        const int data = eu868Payload(g.spreadingFactor) - kFragmentHeader;
        const auto fragments = static_cast<int>((s.bytes + data - 1) / data);
        if (s.sessionPerSf || sessions.empty())
            sessions.push_back(Session{g.spreadingFactor, fragments, g.framesPerSession, {}});
        else // one session at the slowest SF: the last group's figures win
            sessions.back() = Session{g.spreadingFactor, fragments, g.framesPerSession, {}};
    }
    for (size_t d = 0; d < devices.size(); ++d)
        for (Session& session : sessions)
            if (!s.sessionPerSf || session.spreadingFactor == devices[d].spreadingFactor)
                session.devices.push_back(d);
    return sessions;
}

} // namespace

double airtimeSeconds(int sf, int pl, int preambleSymbols, bool implicitHeader)
{
    const double symbol = std::ldexp(1.0, sf) / 125e3;
    const int de = symbol >= 0.016 ? 1 : 0;
    const double blocks = std::ceil((8.0 * pl - 4.0 * sf + 28 - 20.0 * (implicitHeader ? 1 : 0)) / (4.0 * (sf - 2 * de)));
    return (preambleSymbols + 4.25 + 8 + std::max(blocks * 5, 0.0)) * symbol;
}

int eu868Payload(int sf)
{
    static const int payload[] = {222, 222, 115, 51, 51, 51}; // SF7 .. SF12
    if (sf < 7 || sf > 12)
        throw std::invalid_argument("EU868 has SF7..SF12, not SF" + std::to_string(sf));
    return payload[sf - 7];
}

Outcome simulate(const Scenario& s, uint64_t seed)
{
    Random random(seed);
    std::vector<Device> devices;
    for (const SfGroup& g : s.groups)
        for (int i = 0; i < g.devices; ++i)
            devices.push_back(Device{s.loss + s.lossSpread * (2 * random.unit() - 1), g.spreadingFactor});
    PingCalendar calendar(s.pingPeriodicity, random);
    const double start = random.unit() * kBeaconPeriod; // the session's phase against the beacons
    double earliest = start, lastFrameEnd = start;
    for (const Session& session : sessionsOf(s, devices))
        earliest = runSession(s, session, earliest, devices, calendar, random, lastFrameEnd);
    Outcome out;
    std::vector<double> decodedAt;
    for (const Device& d : devices) {
        out.energyPerDevice += d.joules / static_cast<double>(devices.size());
        out.framesHeard += d.heard / static_cast<double>(devices.size());
        out.decodedShare += std::isnan(d.decodedAt) ? 0 : 1.0 / static_cast<double>(devices.size());
        decodedAt.push_back(d.decodedAt);
    }
    out.timeTo50 = timeToShare(decodedAt, 0.5, start);
    out.timeTo90 = timeToShare(decodedAt, 0.9, start);
    out.lastFrameEnd = lastFrameEnd - start;
    return out;
}

} // namespace mcref
