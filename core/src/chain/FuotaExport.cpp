// SPDX-License-Identifier: MIT
// An export folder's update rounds as FUOTA deployment requests: fuota/round-NNN.json and fuota/index.json, what each field holds and why.
#include "dpu/FuotaExport.h"
#include "dpu/Error.h"
#include "dpu/LinkModel.h"
#include "bundle/BundleEnvelope.h"
#include "chain/DeployedChain.h"
#include "runs/BundlePaths.h"
#include "util/AtomicFile.h"
#include <nlohmann/json.hpp>
#include <cstdio>
#include <filesystem>
#include <set>

namespace dpu {

namespace {

namespace fs = std::filesystem;
using fjson = nlohmann::ordered_json;

const char* const kFuotaDefinitions =
    "https://github.com/chirpstack/chirpstack-fuota-server/blob/master/api/proto/fuota.proto";

/// One round of the export's bundles.json.
struct FuotaSourceRound {
    int round = 0;
    uint64_t version = 0;
    std::string file;
    std::vector<uint8_t> bundle;
};

struct FuotaSourceIndex {
    std::string strategy;
    uint64_t seed = 0;
    std::vector<FuotaSourceRound> rounds;
};

FuotaSourceIndex readFuotaSourceIndex(const std::string& dir)
{
    const std::string path = dir + "/bundles.json";
    const std::string text = readWholeFile(path);
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        FuotaSourceIndex x;
        x.strategy = j.at("strategy").get<std::string>();
        x.seed = j.at("seed").get<uint64_t>();
        for (const auto& r : j.at("rounds")) {
            FuotaSourceRound e{r.at("round").get<int>(), r.at("update_version").get<uint64_t>(),
                               r.at("file").get<std::string>(), {}};
            if (!bundlepaths::isRoundFileName(e.file))
                throw Error("rounds: expected a file named round-NNN.dpub, found '" + e.file + "'");
            x.rounds.push_back(std::move(e));
        }
        return x;
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    } catch (const std::exception& e) {
        throw Error(path + ": not the index of a bundle export (dpu-cli bundle export writes it): " + e.what());
    }
}

/// The requests of every update round (rounds[0] installs the devices) and session.
std::vector<FuotaRequest> fuotaRequestsOf(const Deployment& d, const std::vector<FuotaSession>& sessions,
                                          const std::vector<FuotaSourceRound>& rounds, const FuotaOptions& o);

std::string fuotaRequestFileName(int round, int spreadingFactor, bool perSession)
{
    char name[48];
    if (perSession)
        std::snprintf(name, sizeof name, "fuota/round-%03d-sf%d.json", round, spreadingFactor);
    else
        std::snprintf(name, sizeof name, "fuota/round-%03d.json", round);
    return name;
}

/// One field of the request (after "deployment."), where its value comes from ("link model",
/// "bundle", "chosen": a default to review, "fill in": the user's) and why.
struct FuotaFieldSource {
    const char* field;
    const char* source;
    const char* from;
};

const FuotaFieldSource kFuotaFieldSources[] = {
    {"applicationId", "fill in", "the ChirpStack application the devices belong to (a UUID)"},
    {"devices[].devEui", "fill in", "each device's DevEUI; one entry of devices per device"},
    {"devices[].mcRootKey", "fill in",
     "each device's McRootKey (TS005: from its GenAppKey under LoRaWAN 1.0.x, its AppKey under 1.1)"},
    {"multicastGroupType", "link model", "fleet.device_class: Class B (ping slots) or C (the LoRaWAN presets' own)"},
    {"multicastDr", "link model",
     "the session's SF (fleet.sf, the mix's slowest, or each SF with fleet.multicast_per_sf): EU868 DR = 12 - SF "
     "at 125 kHz, US915 DR = 20 - SF at 500 kHz"},
    {"multicastPingSlotPeriod", "link model",
     "Class B: fleet.ping_periodicity p (a ping slot every 0.96 x 2^p s), as TS005's Periodicity; Class C: 0"},
    {"multicastFrequency", nullptr, nullptr}, // the session's: fixed by the sub-band, or chosen in it
    {"multicastGroupId", "chosen", "TS005 McGroupID 0 .. 3: a group the devices hold for nothing else"},
    {"multicastTimeout", "link model",
     "the smallest TS005 TimeOut t whose session (Class C 2^t s, Class B 2^t beacon periods of 128 s) covers the "
     "link model's wall time of the session"},
    {"multicastRegion", "link model", "fleet.link's region"},
    {"unicastTimeout", "chosen",
     "how long the server waits for each device's answer to a setup command: at least a Class A device's uplink "
     "interval, which the link model does not know"},
    {"unicastAttemptCount", "chosen", "tries per setup command and device"},
    {"fragmentationFragmentSize", "link model",
     "the link's data bytes per fragment: the region's payload N at the SF less TS004's 3-byte fragment header"},
    {"payload", "bundle", "the round's bundle, base64 (proto3 JSON's bytes); the same bytes as payload_file"},
    {"fragmentationRedundancy", "link model",
     "linkRound()'s redundant frames beyond the data fragments, for fleet.target at fleet.loss (a device decodes "
     "with n + 3 frames)"},
    {"fragmentationSessionIndex", "chosen", "TS004 FragIndex 0 .. 3"},
    {"fragmentationMatrix", "chosen", "0: TS004's one fragmentation code, which the link model's n + 3 rule stands for"},
    {"fragmentationBlockAckDelay", "chosen",
     "TS004 BlockAckDelay 0 .. 7: devices spread their status answers over 2^(d+4) .. 2^(d+5) s"},
    {"fragmentationDescriptor", "bundle",
     "the update version the bundle moves devices to, 4 bytes little-endian (TS004 leaves the descriptor to the "
     "application)"},
    {"requestFragmentationSessionStatus", "chosen",
     "AFTER_SESSION_TIMEOUT, what the API recommends for Class B and C groups; the answers tell whom a repair must "
     "reach"},
};

/// Every field of the request with its source, as index.json's "fields" holds them.
fjson fuotaFieldSources(const FuotaSession& s)
{
    fjson f = fjson::object();
    for (const FuotaFieldSource& e : kFuotaFieldSources) {
        const bool frequency = e.source == nullptr;
        f[std::string("deployment.") + e.field] = fjson{
            {"source", frequency ? (s.frequencyChosen ? "chosen" : "link model") : e.source},
            {"from", frequency ? s.frequencyFrom : std::string(e.from)}};
    }
    return f;
}

fjson fuotaRequestEntry(const FuotaRequest& q)
{
    return fjson{{"file", q.file},
                 {"round", q.round},
                 {"update_version", q.updateVersion},
                 {"spreading_factor", q.session.spreadingFactor},
                 {"link", q.session.linkName},
                 {"devices", q.session.devices},
                 {"payload_file", q.payloadFile},
                 {"payload_bytes", q.payloadBytes},
                 {"payload_sha256", q.payloadSha256},
                 {"fragments", q.fragments},
                 {"redundancy", q.redundancy},
                 {"frames", q.fragments + q.redundancy},
                 {"session_seconds", q.sessionSeconds},
                 {"multicast_timeout", q.multicastTimeout},
                 {"timeout_seconds", q.timeoutSeconds}};
}

std::string fuotaIndexText(const FuotaExport& x, const Deployment& d, const std::vector<FuotaSession>& sessions)
{
    fjson requests = fjson::array();
    for (const FuotaRequest& q : x.requests)
        requests.push_back(fuotaRequestEntry(q));
    fjson notIncluded = fjson::array();
    if (x.initialRound > 0)
        notIncluded.push_back("the initial deployment (round " + std::to_string(x.initialRound)
                              + "): the devices are installed with it, as the fleet simulation assumes");
    notIncluded.push_back("repair sessions (fleet.repairs): the server asks each device for its fragmentation status after "
                          "the session; a repair is a new deployment of the same payload to the devices that failed");
    notIncluded.push_back("catch-ups of devices that missed rounds (dpu-cli bundle export --catchup writes their bundles)");
    const fjson index{
        {"reference", {{"service", "fuota.FuotaServerService/CreateDeployment"},
                       {"message", "fuota.CreateDeploymentRequest"},
                       {"definitions", kFuotaDefinitions},
                       {"encoding", "proto3 JSON: lowerCamelCase names, bytes as base64, enums by name, Duration as \"Ns\""}}},
        {"strategy", x.strategy},
        {"seed", x.seed},
        {"deployment", {{"link", d.link.link}, {"devices", d.devices}, {"frame_loss", d.link.frameLoss},
                        {"target", d.policy.target.probability}, {"every_device", d.policy.target.everyDevice},
                        {"sessions_per_round", sessions.size()}}},
        {"fill_in", {"deployment.applicationId", "deployment.devices[].devEui", "deployment.devices[].mcRootKey"}},
        {"fields", fuotaFieldSources(sessions.front())},
        {"not_included", notIncluded},
        {"requests", requests}};
    return index.dump(2) + "\n";
}

std::vector<FuotaRequest> fuotaRequestsOf(const Deployment& d, const std::vector<FuotaSession>& sessions,
                                          const std::vector<FuotaSourceRound>& rounds, const FuotaOptions& o)
{
    std::vector<FuotaRequest> requests;
    for (size_t i = 1; i < rounds.size(); ++i)
        for (const FuotaSession& s : sessions) {
            FuotaRequest q = fuotaRequestOf(d, s, rounds[i].bundle, rounds[i].round, rounds[i].version, o);
            q.file = fuotaRequestFileName(rounds[i].round, s.spreadingFactor, sessions.size() > 1);
            q.payloadFile = rounds[i].file;
            requests.push_back(std::move(q));
        }
    return requests;
}

/// Requests an earlier export listed in fuota/index.json that this one does not write.
std::vector<std::string> previousFuotaRequests(const std::string& dir, const std::set<std::string>& writing)
{
    std::vector<std::string> stale;
    try {
        const auto index = nlohmann::json::parse(readWholeFile(dir + "/fuota/index.json"));
        for (const auto& r : index.at("requests")) {
            const std::string name = r.at("file").get<std::string>();
            if (name.rfind("fuota/round-", 0) == 0 && name.find("..") == std::string::npos && !writing.count(name))
                stale.push_back(dir + "/" + name);
        }
    } catch (const std::exception&) {
        // no index, or not ours: nothing to remove
    }
    return stale;
}

} // namespace

FuotaExport writeFuotaRequests(const std::string& dir, const Deployment& deployment, const FuotaOptions& options)
{
    const std::vector<FuotaSession> sessions = fuotaSessionsOf(deployment);
    FuotaSourceIndex exported = readFuotaSourceIndex(dir);
    for (FuotaSourceRound& r : exported.rounds) {
        const std::string bytes = readWholeFile(dir + "/" + r.file);
        r.bundle.assign(bytes.begin(), bytes.end());
    }
    FuotaExport x;
    x.folder = dir;
    x.strategy = exported.strategy;
    x.seed = exported.seed;
    // The first deployed round installs the devices (dpu/UpdateBytes.h); each later one is an update round.
    x.initialRound = exported.rounds.empty() ? 0 : exported.rounds.front().round;
    x.requests = fuotaRequestsOf(deployment, sessions, exported.rounds, options);
    std::set<std::string> writing;
    for (const FuotaRequest& q : x.requests)
        writing.insert(q.file);
    const std::vector<std::string> stale = previousFuotaRequests(dir, writing);
    const std::string index = fuotaIndexText(x, deployment, sessions);
    for (const FuotaRequest& q : x.requests)
        writeFileAtomic(dir + "/" + q.file, q.json);
    for (const std::string& path : stale) { // before the index that no longer names them
        std::error_code ec;
        if (!fs::remove(path, ec) && ec)
            throw Error(path + ": cannot remove this request of the previous export: " + ec.message());
    }
    writeFileAtomic(dir + "/fuota/index.json", index);
    return x;
}

std::vector<FuotaRequest> planFuotaRequests(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                            bool anySeed, const std::string& secretKeyPath, const Deployment& deployment,
                                            const FuotaOptions& options)
{
    const std::vector<FuotaSession> sessions = fuotaSessionsOf(deployment);
    const std::vector<uint8_t> key =
        secretKeyPath.empty() ? std::vector<uint8_t>{} : readSecretKeyFile(secretKeyPath, "the signing key");
    const DeployedChain chain = DeployedChain::load(runDir, strategy, seed, anySeed);
    std::vector<FuotaSourceRound> rounds;
    for (const DeployedRound& r : chain.rounds) // the bytes the export writes: re-signed with --sign
        rounds.push_back({r.round, r.version, bundlepaths::roundFileName(r.round),
                          key.empty() ? r.bundle : bundle::envelope::signedCopy(r.bundle, key)});
    return fuotaRequestsOf(deployment, sessions, rounds, options);
}

} // namespace dpu
