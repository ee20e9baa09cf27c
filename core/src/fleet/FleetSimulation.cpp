// SPDX-License-Identifier: MIT
// The fleet simulation: rounds of releases, multicast and catch-up sessions, repairs, completions (docs/fleet.md).
#include "dpu/Fleet.h"
#include "link/Binomial.h"
#include "link/LinkSession.h"
#include "link/SessionReception.h"
#include "util/Rng.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace dpu {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::array<double, 3> kShares{0.5, 0.9, 0.99};
constexpr uint64_t kStreamAvailability = 1;
constexpr uint64_t kStreamReception = 2;

/// total += a x b, refused rather than wrapped: a count of a round (bytes on air, frames heard)
/// that leaves int64 comes only from a link and bundle far beyond any real one, and signed
/// overflow is undefined.
void addProduct(int64_t& total, int64_t a, int64_t b, const char* field)
{
    int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product) || __builtin_add_overflow(total, product, &total))
        throw LinkError(field, "the round's count passes 2^63: a bundle and link beyond what the simulation counts");
}

/// Uniform in [0, 1) from 53 bits of a counter-based draw.
double unit(uint64_t bits)
{
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

/// One link of the fleet: a group at one spreading factor.
struct Slot {
    int group = 0;
    Link link;
    Link uplink; ///< when the group has one
    double slowness = 0; ///< seconds on air per data byte: the slowest slot of a multicast sets its pace
    int64_t devices = 0;
};

/// One session the server starts: a bundle to one device (unicast) or to several (multicast).
struct Session {
    bool fresh = false; ///< the round's delta to up-to-date devices
    int64_t bytes = 0;
    int from = 0; ///< the oldest version among its devices
    int slot = 0;
    bool full = false;
    std::vector<int> devices;
};

struct Completion {
    double time = 0;
    int device = 0;
    int version = 0;
};

class Simulation {
public:
    Simulation(const FleetConfig& config, const FleetStrategy& strategy) : config_(config), strategy_(strategy)
    {
        for (size_t g = 0; g < config.groups.size(); ++g)
            addGroup(static_cast<int>(g));
        const size_t n = version_.size();
        energy_.assign(n, 0.0);
        draws_.assign(n, 0);
        const size_t versions = strategy.versions.size();
        chain_.assign(versions, 0); // chain_[v]: deltas 1..v, so that a chain is one subtraction
        for (size_t v = 1; v < versions; ++v)
            chain_[v] = chain_[v - 1] + strategy.versions[v].deltaBytes; // at most 10^4 x 10^10 (validateFleet)
        atLeast_.assign(versions, 0);
        atLeast_[0] = static_cast<int64_t>(n);
        release_.assign(versions, kNaN);
        release_[0] = 0;
        result_.timeToShare.assign(versions, {kNaN, kNaN, kNaN});
        result_.timeToShare[0] = {0, 0, 0};
        gatewayFree_.assign(config.groups.size(), 0.0);
    }

    FleetResult run()
    {
        result_.strategy = strategy_.name;
        result_.devices = static_cast<int>(version_.size());
        const int firstRound = strategy_.versions.front().round + 1;
        const int trainedUntil = std::max(config_.lastRound, strategy_.versions.back().round);
        result_.runRounds = std::max(0, trainedUntil - firstRound + 1); // the drain rounds follow them
        int latest = 0;
        for (int r = firstRound; r <= trainedUntil + config_.drainRounds; ++r) {
            const int index = r - firstRound; // 0-based simulation round
            FleetRound round;
            round.round = r;
            round.startSeconds = index * config_.roundPeriodSeconds;
            round.groupEnergy.assign(config_.groups.size(), 0.0);
            round.groupUploadEnergy.assign(config_.groups.size(), 0.0);
            bool fresh = false;
            if (latest + 1 < static_cast<int>(strategy_.versions.size()) && strategy_.versions[static_cast<size_t>(latest + 1)].round == r) {
                ++latest;
                fresh = true;
                release_[static_cast<size_t>(latest)] = round.startSeconds;
            }
            round.latestVersion = latest;
            std::fill(energy_.begin(), energy_.end(), 0.0);
            std::fill(draws_.begin(), draws_.end(), 0);
            receptionKey_ = deriveSeed(config_.seed, kStreamReception, static_cast<uint64_t>(r));
            double end = round.startSeconds;
            for (size_t g = 0; g < config_.groups.size(); ++g)
                end = std::max(end, serveGroup(static_cast<int>(g), index + 1, latest, fresh, round));
            round.wallTime = end - round.startSeconds;
            applyCompletions();
            if (r >= 2 && r <= trainedUntil)
                upload(round);
            summarise(round);
            result_.rounds.push_back(std::move(round));
        }
        result_.latestTimeToShare = result_.timeToShare[static_cast<size_t>(latest)];
        return std::move(result_);
    }

private:
    void addGroup(int g)
    {
        const FleetGroup& group = config_.groups[static_cast<size_t>(g)];
        std::vector<std::pair<int, int64_t>> counts; // (slot, devices)
        const auto addSlot = [&](const Link& link, const Link* uplink) {
            Slot s;
            s.group = g;
            s.link = link;
            if (uplink)
                s.uplink = *uplink;
            s.slowness = frameAirtime(link, link.fragmentHeaderBytes + fragmentDataBytes(link)) / fragmentDataBytes(link);
            slots_.push_back(std::move(s));
            return static_cast<int>(slots_.size()) - 1;
        };
        if (group.sfMix.empty()) {
            counts.emplace_back(addSlot(group.link, group.uplink.get()), group.devices);
        } else {
            for (const auto& [sf, n] : spreadingFactorCounts(group.devices, group.sfMix)) {
                const Link up = group.uplink ? withSpreadingFactor(*group.uplink, sf) : Link{};
                counts.emplace_back(addSlot(withSpreadingFactor(group.link, sf), group.uplink ? &up : nullptr), n);
            }
        }
        groupFirst_.push_back(static_cast<int>(version_.size()));
        for (const auto& [slot, n] : counts) {
            slots_[static_cast<size_t>(slot)].devices = n;
            for (int64_t i = 0; i < n; ++i) {
                slotOf_.push_back(slot);
                version_.push_back(0);
            }
        }
        // The rounds index the group's devices first .. first + devices: exactly that many, or
        // a bad mix would have them read past the fleet's arrays.
        if (version_.size() - static_cast<size_t>(groupFirst_.back()) != static_cast<size_t>(group.devices))
            throw LinkError("groups[" + std::to_string(g) + "].sfMix", "the mix gives its devices no spreading factor");
    }

    bool available(int device, int group, int simulationRound, double start) const
    {
        const FleetGroup& g = config_.groups[static_cast<size_t>(group)];
        if (g.trace)
            return g.trace->available(static_cast<size_t>(device) % g.trace->devices(), simulationRound, start);
        if (g.availability >= 1)
            return true;
        const uint64_t key = deriveSeed(config_.seed, kStreamAvailability, static_cast<uint64_t>(simulationRound));
        return unit(mix64(key + static_cast<uint64_t>(device + 1) * 0x9E3779B97F4A7C15ULL)) < g.availability;
    }

    /// The device's next uniform draw of this round.
    double draw(int device)
    {
        const uint64_t d = mix64(receptionKey_ ^ (static_cast<uint64_t>(device + 1) * 0xD1B54A32D192ED03ULL));
        return unit(mix64(d + static_cast<uint64_t>(++draws_[static_cast<size_t>(device)]) * 0x9E3779B97F4A7C15ULL));
    }

    /// chainOrFullBytes() by the prefix sums, or the strategy's own sizes; cached per pair (a
    /// map: versions x versions entries would be 800 MB at kMaxFleetRound versions).
    int64_t catchUpBytes(int from, int to)
    {
        const int64_t key = static_cast<int64_t>(from) * static_cast<int64_t>(strategy_.versions.size()) + to;
        auto [it, added] = catchUp_.try_emplace(key, 0);
        if (!added)
            return it->second;
        if (!strategy_.catchUpBytes) {
            const int64_t chain = chain_[static_cast<size_t>(to)] - chain_[static_cast<size_t>(from)];
            return it->second = strategy_.fullModelBytes > 0 ? std::min(chain, strategy_.fullModelBytes) : chain;
        }
        const int64_t bytes = strategy_.catchUpBytes(from, to);
        if (bytes < 0 || bytes > kMaxFleetBundleBytes)
            throw LinkError("catchUpBytes", "the bundle from version " + std::to_string(from) + " to " + std::to_string(to) + " has "
                                                + std::to_string(bytes) + " bytes, expected 0 .. " + std::to_string(kMaxFleetBundleBytes));
        return it->second = bytes;
    }

    const LinkRound& plan(int slot, int64_t bytes, int devices)
    {
        const int forTarget = config_.policy.target.everyDevice ? devices : 1;
        auto [it, added] = plans_.try_emplace({slot, bytes, forTarget});
        if (added)
            it->second = linkRound(slots_[static_cast<size_t>(slot)].link, bytes, forTarget, config_.policy.target);
        return it->second;
    }

    /// The slot's reception tables (per loss class), built on first use.
    link::SessionReception& reception(int slot)
    {
        auto it = receptions_.find(slot);
        if (it == receptions_.end())
            it = receptions_.emplace(slot, link::SessionReception(slots_[static_cast<size_t>(slot)].link)).first;
        return it->second;
    }

    /// Device d's loss class on its slot's link: fixed for the device over rounds.
    int lossClass(int slot, int device)
    {
        return link::lossClassOf(config_.seed, device, reception(slot).lossClasses());
    }

    /// Builds the round's sessions for group g: the fresh delta, catch-ups and full models.
    std::vector<Session> sessionsFor(int g, int simulationRound, int latest, bool fresh, double start, FleetRound& round)
    {
        const FleetGroup& group = config_.groups[static_cast<size_t>(g)];
        const bool multicast = group.link.delivery == LinkDelivery::Multicast;
        const bool catchUpMulticast = multicast && config_.policy.catchUp == CatchUpDelivery::MulticastPerVersion;
        const bool perSf = config_.policy.multicastPerSpreadingFactor;
        std::map<std::pair<int, int>, Session> shared; // (from version or -1 for full, slot or -1) -> session
        std::vector<Session> sessions;
        const int first = groupFirst_[static_cast<size_t>(g)];
        for (int d = first; d < first + group.devices; ++d) {
            const int v = version_[static_cast<size_t>(d)];
            if (!available(d, g, simulationRound, start))
                continue;
            ++round.available;
            if (v >= latest)
                continue;
            const bool isFresh = fresh && v == latest - 1;
            const bool full = !isFresh && config_.policy.maxStaleness > 0 && latest - v > config_.policy.maxStaleness;
            const int64_t bytes = full ? strategy_.fullModelBytes : catchUpBytes(v, latest);
            const int slot = slotOf_[static_cast<size_t>(d)];
            if (isFresh ? multicast : catchUpMulticast) {
                Session& s = shared[{full ? -1 : v, perSf ? slot : -1}];
                if (s.devices.empty() || slots_[static_cast<size_t>(slot)].slowness > slots_[static_cast<size_t>(s.slot)].slowness)
                    s.slot = slot;
                s.from = s.devices.empty() ? v : std::min(s.from, v);
                s.fresh = isFresh;
                s.full = full;
                s.bytes = bytes;
                s.devices.push_back(d);
            } else {
                sessions.push_back(Session{isFresh, bytes, v, slot, full, {d}});
            }
        }
        for (auto& [key, s] : shared)
            sessions.push_back(std::move(s));
        return sessions;
    }

    /// The order the transmitter serves sessions in: the fresh delta first, then the longest
    /// behind (or the smallest bundles). Indices: moving sessions while sorting cost more than
    /// the rest of a round with thousands of unicast catch-ups.
    std::vector<uint32_t> serviceOrder(const std::vector<Session>& sessions) const
    {
        std::vector<uint32_t> order(sessions.size());
        for (uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const bool smallestFirst = config_.policy.order == CatchUpOrder::SmallestFirst;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t i, uint32_t j) {
            const Session &a = sessions[i], &b = sessions[j];
            if (a.fresh != b.fresh)
                return a.fresh;
            if (!smallestFirst && a.from != b.from)
                return a.from < b.from;
            return a.bytes < b.bytes;
        });
        return order;
    }

    /// Serves group g's devices in this round; returns when its last session ends.
    double serveGroup(int g, int simulationRound, int latest, bool fresh, FleetRound& round)
    {
        const double start = round.startSeconds;
        const double window = start + config_.roundPeriodSeconds;
        const std::vector<Session> sessions = sessionsFor(g, simulationRound, latest, fresh, start, round);
        double clock = std::max(gatewayFree_[static_cast<size_t>(g)], start);
        double end = start;
        for (uint32_t i : serviceOrder(sessions)) {
            const Session& s = sessions[i];
            const Link& link = slots_[static_cast<size_t>(s.slot)].link;
            const bool sequential = s.devices.size() > 1 || link.delivery == LinkDelivery::Multicast || link.sharedTransmitter;
            const double begin = sequential ? clock : start;
            if (begin >= window) {
                round.deferred += static_cast<int>(s.devices.size());
                continue;
            }
            round.served += static_cast<int>(s.devices.size());
            if (s.full)
                round.fullModels += static_cast<int>(s.devices.size());
            const double finished = runSession(s, begin, latest, round);
            if (sequential)
                clock = finished;
            end = std::max(end, finished);
        }
        gatewayFree_[static_cast<size_t>(g)] = clock;
        return end;
    }

    /// Runs one session (and its repairs) from `begin`; returns its end.
    double runSession(const Session& s, double begin, int toVersion, FleetRound& round)
    {
        const Slot& slot = slots_[static_cast<size_t>(s.slot)];
        const Link& link = slot.link;
        const LinkRound& p = plan(s.slot, s.bytes, static_cast<int>(s.devices.size()));
        ++round.sessions;
        addProduct(round.bundleBytes, s.bytes, 1, "bundleBytes");
        addProduct(round.downloadBytes, s.bytes, static_cast<int64_t>(s.devices.size()), "downloadBytes");
        if (link.recovery == LinkRecovery::Retransmit) {
            // Unicast with retransmissions: the device completes; the frames it took are drawn.
            const int d = s.devices.front();
            const int64_t frames = p.fragments + reception(s.slot).retransmissions(p.fragments, lossClass(s.slot, d), draw(d));
            const double airtime = link::sessionAirtime(link, s.bytes, p.fragments, frames);
            const double channel = link::channelSeconds(link, airtime, frames);
            energy_[static_cast<size_t>(d)] += link::sessionEnergy(link, airtime, channel, frames);
            round.airtime += airtime;
            addProduct(round.bytesOnAir, frames, frameBytes(link), "bytesOnAir");
            addProduct(round.receptions, frames, 1, "receptions");
            const double end = begin + link.sessionSeconds + channel;
            complete(s, d, end, toVersion, round);
            return end;
        }
        const double airtime = link::sessionAirtime(link, s.bytes, p.fragments, p.frames);
        const double channel = link::channelSeconds(link, airtime, p.frames);
        const double start = begin + link.sessionSeconds;
        round.airtime += airtime;
        addProduct(round.bytesOnAir, p.frames, frameBytes(link), "bytesOnAir");
        std::vector<std::pair<int, int64_t>> failed; // (device, fragments still missing)
        for (int d : s.devices) {
            const link::Reception r = reception(s.slot).session(p.parts, lossClass(s.slot, d), [&] { return draw(d); });
            hear(s, d, start, r, link::sessionEnergy(link, airtime, channel, p.frames), start + channel, toVersion, round);
            if (r.missing > 0)
                failed.emplace_back(d, r.missing);
        }
        double end = start + channel;
        for (int repair = 0; repair < config_.policy.repairSessions && !failed.empty(); ++repair)
            end = repairSession(s, end, failed, toVersion, round);
        return end;
    }

    /// One repair session from `begin` for the devices that still miss fragments; returns its end.
    double repairSession(const Session& s, double begin, std::vector<std::pair<int, int64_t>>& failed, int toVersion, FleetRound& round)
    {
        const Link& link = slots_[static_cast<size_t>(s.slot)].link;
        int64_t largest = 0;
        for (const auto& f : failed)
            largest = std::max(largest, f.second);
        const int64_t frames = link::fewestTrials(largest, 1.0 - link.frameLoss, config_.policy.target.probability);
        const double airtime = link::sessionAirtime(link, 0, 0, frames);
        const double channel = link::channelSeconds(link, airtime, frames);
        const double start = begin + link.sessionSeconds;
        ++round.sessions;
        round.airtime += airtime;
        addProduct(round.bytesOnAir, frames, frameBytes(link), "bytesOnAir");
        std::vector<std::pair<int, int64_t>> still;
        for (auto [d, missing] : failed) {
            const link::Reception r = reception(s.slot).repair(frames, missing, lossClass(s.slot, d), draw(d));
            hear(s, d, start, r, link::sessionEnergy(link, airtime, channel, frames), start + channel, toVersion, round);
            if (r.missing > 0)
                still.emplace_back(d, r.missing);
        }
        failed.swap(still);
        return start + channel;
    }

    /// Device d's part of a session that started at `start`: frames heard, energy (until it decoded;
    /// staying to the end: `wholeSession`'s, the old model's figure), completion (then, or at `end`).
    void hear(const Session& s, int d, double start, const link::Reception& r, double wholeSession, double end, int toVersion,
              FleetRound& round)
    {
        const Link& link = slots_[static_cast<size_t>(s.slot)].link;
        const bool leaves = link.leaveWhenDecoded;
        energy_[static_cast<size_t>(d)] += leaves ? r.joules + link.sessionJoules : wholeSession;
        addProduct(round.receptions, static_cast<int64_t>(std::llround(r.frames)), 1, "receptions");
        if (r.missing == 0)
            complete(s, d, leaves ? start + r.seconds : end, toVersion, round);
    }

    /// Device d received the session's bundle at `end`: it runs the new version once it has
    /// applied it (its processor's time), and the apply's energy is the device's.
    void complete(const Session& s, int d, double end, int toVersion, FleetRound& round)
    {
        const DeviceCpu& cpu = config_.groups[static_cast<size_t>(slots_[static_cast<size_t>(s.slot)].group)].cpu;
        const double seconds = applySeconds(cpu, s.full ? Coding::Fp32 : strategy_.coding, strategy_.deviceFileBytes, s.bytes);
        const double joules = applyJoules(cpu, seconds);
        energy_[static_cast<size_t>(d)] += joules;
        round.applyEnergyMean += joules; // a sum until summarise()
        round.applySecondsMax = std::max(round.applySecondsMax, seconds);
        completions_.push_back({end + seconds, d, toVersion});
    }

    /// Moves the devices that completed, in time order, and records when each version's
    /// shares were reached.
    void applyCompletions()
    {
        std::stable_sort(completions_.begin(), completions_.end(), [](const Completion& a, const Completion& b) { return a.time < b.time; });
        const auto n = static_cast<double>(version_.size());
        for (const Completion& c : completions_) {
            int& v = version_[static_cast<size_t>(c.device)];
            for (int w = v + 1; w <= c.version; ++w) {
                const int64_t count = ++atLeast_[static_cast<size_t>(w)];
                for (size_t k = 0; k < kShares.size(); ++k)
                    if (std::isnan(result_.timeToShare[static_cast<size_t>(w)][k]) && static_cast<double>(count) >= kShares[k] * n - 1e-9)
                        result_.timeToShare[static_cast<size_t>(w)][k] = c.time - release_[static_cast<size_t>(w)];
            }
            v = std::max(v, c.version);
        }
        completions_.clear();
    }

    /// The paper's appendix: every node uploads S_d |dD^r| / N over its uplink.
    void upload(FleetRound& round)
    {
        if (config_.sampleBytes <= 0 || config_.newSamplesPerRound <= 0)
            return;
        const double perNode = static_cast<double>(config_.sampleBytes) * static_cast<double>(config_.newSamplesPerRound)
                               / static_cast<double>(version_.size());
        const auto bytes = static_cast<int64_t>(std::ceil(perNode));
        double airtime = 0, energy = 0;
        for (size_t i = 0; i < slots_.size(); ++i) {
            const Slot& slot = slots_[i];
            if (!config_.groups[static_cast<size_t>(slot.group)].uplink)
                continue;
            auto [it, added] = uploads_.try_emplace(static_cast<int>(i));
            if (added)
                it->second = linkRound(slot.uplink, bytes, 1, config_.policy.target);
            const auto n = static_cast<double>(slot.devices);
            airtime += n * it->second.airtime;
            energy += n * it->second.energyPerDevice;
            round.groupUploadEnergy[static_cast<size_t>(slot.group)] += n * it->second.energyPerDevice;
        }
        const auto n = static_cast<double>(version_.size());
        round.uploadBytesPerNode = perNode;
        round.uploadAirtimePerNode = airtime / n;
        round.uploadEnergyPerNode = energy / n;
    }

    void summarise(FleetRound& round)
    {
        const size_t n = version_.size();
        round.versionShare.assign(strategy_.versions.size(), 0.0);
        double accuracy = 0;
        for (size_t d = 0; d < n; ++d) {
            const auto v = static_cast<size_t>(version_[d]);
            round.versionShare[v] += 1.0;
            accuracy += strategy_.versions[v].testAccuracy;
            round.completed += version_[d] == round.latestVersion ? 1 : 0;
            round.energyMax = std::max(round.energyMax, energy_[d]);
            round.energyMean += energy_[d];
            round.groupEnergy[static_cast<size_t>(slots_[static_cast<size_t>(slotOf_[d])].group)] += energy_[d];
        }
        for (double& s : round.versionShare)
            s /= static_cast<double>(n);
        round.energyMean /= static_cast<double>(n);
        round.applyEnergyMean /= static_cast<double>(n);
        round.fleetAccuracy = accuracy / static_cast<double>(n);
        round.serverAccuracy = strategy_.versions[static_cast<size_t>(round.latestVersion)].testAccuracy;
    }

    const FleetConfig& config_;
    const FleetStrategy& strategy_;
    std::vector<Slot> slots_;
    std::vector<int> groupFirst_;
    std::vector<int> slotOf_;  ///< per device
    std::vector<int> version_; ///< per device
    std::vector<double> energy_; ///< per device, this round
    std::vector<uint32_t> draws_; ///< per device, draws this round
    uint64_t receptionKey_ = 0;
    std::vector<int64_t> chain_;   ///< [v]: the deltas' bytes of versions 1..v
    std::unordered_map<int64_t, int64_t> catchUp_; ///< [from * versions + to], once asked
    std::vector<int64_t> atLeast_; ///< devices running version v or later
    std::vector<double> release_;
    std::vector<double> gatewayFree_;
    std::vector<Completion> completions_;
    std::map<std::tuple<int, int64_t, int>, LinkRound> plans_;
    std::map<int, link::SessionReception> receptions_; ///< per slot
    std::map<int, LinkRound> uploads_;
    FleetResult result_;
};

} // namespace

FleetResult simulateFleet(const FleetConfig& config, const FleetStrategy& strategy)
{
    validateFleet(config, strategy);
    return Simulation(config, strategy).run();
}

} // namespace dpu
