// SPDX-License-Identifier: MIT
// The update session as a FUOTA server takes it: ChirpStack FUOTA server's CreateDeploymentRequest per update round, from the deployment's link model (docs/fleet.md).
#pragma once
#include "dpu/Deployment.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// Where the text of every field the user must fill in starts: "<fill in: DevEUI ...>". A server
/// refuses such a value (not an EUI, a key or a UUID), so a request sent unfilled fails loudly.
constexpr const char* kFuotaFillIn = "<fill in: ";

/// What the link model does not decide: the server's unicast steps and the LoRaWAN packages'
/// indices. Defaults the user reviews (docs/fleet.md "Handing the session to a FUOTA server").
struct FuotaOptions {
    int64_t unicastTimeoutSeconds = 60; ///< unicastTimeout: the wait for each device's answer, 1 .. 86400
    int unicastAttemptCount = 3;        ///< unicastAttemptCount: 1 .. 100
    int multicastGroupId = 0;           ///< TS005 McGroupID, 0 .. 3
    int fragmentationSessionIndex = 0;  ///< TS004 FragIndex, 0 .. 3
    int blockAckDelay = 1;              ///< TS004 BlockAckDelay, 0 .. 7
};

/// The multicast session of one group of devices, which every update round's request shares:
/// the deployment's link at one spreading factor (the mix's slowest, or each SF of the mix when
/// fleet.multicast_per_sf), as ChirpStack's fields name it.
struct FuotaSession {
    int spreadingFactor = 0;
    int devices = 0;             ///< devices the session reaches
    std::string region;          ///< multicastRegion: "EU868" or "US915"
    std::string groupType;       ///< multicastGroupType: "CLASS_B" or "CLASS_C"
    int dataRate = 0;            ///< multicastDr: EU868 DR0..DR5 = SF12..SF7/125 kHz; US915 DR8..DR13 = SF12..SF7/500 kHz
    uint32_t frequencyHz = 0;    ///< multicastFrequency (0: US915 Class B's default hopping)
    bool frequencyChosen = false; ///< the sub-band allows other channels: a default to review
    std::string frequencyFrom;   ///< why this frequency, in words
    int pingSlotPeriodicity = 0; ///< multicastPingSlotPeriod: Class B's p (ping period 0.96 x 2^p s); Class C 0
    int fragmentSize = 0;        ///< fragmentationFragmentSize: the link's data bytes per fragment
    std::string linkName;        ///< the link model's name of the link at this SF
};

/// One deployment request: one update round's bundle to one session.
struct FuotaRequest {
    int round = 0;
    uint64_t updateVersion = 0;
    FuotaSession session;
    std::string file;            ///< "fuota/round-003.json" (per SF: "fuota/round-003-sf9.json")
    std::string payloadFile;     ///< the bundle beside it in the export folder: "round-003.dpub"
    int64_t payloadBytes = 0;
    std::string payloadSha256;
    int64_t fragments = 0;       ///< data fragments of fragmentSize bytes
    int64_t redundancy = 0;      ///< fragmentationRedundancy: linkRound()'s redundant frames
    double sessionSeconds = 0;   ///< linkRound()'s wall time of the session (duty cycle, ping slots)
    int multicastTimeout = 0;    ///< TS005 TimeOut: Class C 2^t s, Class B 2^t beacon periods of 128 s
    double timeoutSeconds = 0;   ///< what multicastTimeout allows, in seconds
    std::string json;            ///< the fuota.CreateDeploymentRequest, proto3 JSON
};

/// The sessions the deployment's update rounds go out in. Throws LinkError naming the plan key
/// for a deployment a FUOTA server cannot take: a link that is not a LoRaWAN downlink of EU868 or
/// US915 (fleet.link), unicast delivery (fleet.delivery), devices that are not in Class B or C
/// (fleet.device_class), and as linkOf() for a link it refuses.
std::vector<FuotaSession> fuotaSessionsOf(const Deployment& deployment);

/// The request that sends `bundle` (the update round `round`'s, moving devices to
/// `updateVersion`) in `session`, as docs/fleet.md's table fills it. Throws LinkError naming the
/// request field when the server or the LoRaWAN packages cannot carry it: more fragments than one
/// TS004 session holds (payload), a session longer than TS005's longest timeout (multicastTimeout),
/// an update version beyond the 4-byte descriptor (fragmentationDescriptor), an option out of
/// range (unicastTimeout, multicastGroupId, ...).
FuotaRequest fuotaRequestOf(const Deployment& deployment, const FuotaSession& session, const std::vector<uint8_t>& bundle,
                            int round, uint64_t updateVersion, const FuotaOptions& options = {});

/// The requests of one export folder.
struct FuotaExport {
    std::string folder;
    std::string strategy;
    uint64_t seed = 0;
    int initialRound = 0;              ///< the initial deployment's round: installed, not sent (0: none)
    std::vector<FuotaRequest> requests; ///< per update round (and per session), in round order
};

/// Reads the export folder `exportDir` (bundles.json and its round-NNN.dpub, as
/// exportRunBundles() writes them) and writes, for every update round (each deployed round after
/// the first, which is the initial deployment the devices are installed with) and every session,
/// fuota/round-NNN.json (a CreateDeploymentRequest) and fuota/index.json (what each field holds
/// and where it comes from, the fields to fill in, the link model's figures per request). Every
/// request is built before the first file is written; files are written atomically; requests of
/// an earlier export there (named in its fuota/index.json) that this one does not write are
/// removed. Throws LinkError as fuotaSessionsOf() and fuotaRequestOf() do, naming the round, and
/// Error naming the file for an unreadable or malformed export.
FuotaExport writeFuotaRequests(const std::string& exportDir, const Deployment& deployment, const FuotaOptions& options = {});

/// Every request writeFuotaRequests() would write for an export of the run (the strategy, seed and
/// signing key as exportRunBundlesWithOptions() takes them: the same bundle bytes), built in memory
/// from the run's checked chain; writes nothing. For a caller that must refuse a deployment or a
/// round a FUOTA server cannot take before the export writes its first file (dpu-cli bundle export
/// --fuota). Throws as writeFuotaRequests() does, and as the export does for the run and the key.
std::vector<FuotaRequest> planFuotaRequests(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                            bool anySeed, const std::string& secretKeyPath, const Deployment& deployment,
                                            const FuotaOptions& options = {});

} // namespace dpu
