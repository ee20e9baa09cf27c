// SPDX-License-Identifier: MIT
// dpu-cli bundle: inspect, verify, export and catch up update bundles, and make signing keys.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "dpu/Bundles.h"
#include "dpu/CatchUp.h"
#include "dpu/Error.h"
#include "dpu/FuotaExport.h"
#include "dpu/LinkModel.h"
#include "dpu/RunFolder.h"
#include <cstdio>
#include <optional>
#include <sstream>

namespace dpu::cli {

namespace {

// --catchup all | V[,V...], each version read through --catchup's table entry.
CatchUpSelection parseSelection(const ArgList& args, const std::string& text)
{
    CatchUpSelection s;
    if (text == "all") {
        s.all = true;
        return s;
    }
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        s.fromVersions.push_back(static_cast<uint64_t>(args.integerItem("--catchup", item)));
    if (s.fromVersions.empty() || text.back() == ',')
        throw UsageError("--catchup: expected 'all' or versions such as 0,2,3, found '" + text + "'");
    return s;
}

const char* const kBundleHelp =
    "Usage: dpu-cli bundle SUBCOMMAND ... (dpu-cli bundle SUBCOMMAND --help for one)\n"
    "  inspect BUNDLE [--base WEIGHTS.safetensors] [--bytes]\n"
    "  verify BUNDLE [--base WEIGHTS.safetensors] [--pubkey KEY.pub]\n"
    "  export RUN_DIR --out DIR [--strategy NAME] [--seed N] [--catchup all|V[,V...]] [--sign KEY] [--fuota]\n"
    "  catchup RUN_DIR --strategy NAME [--seed N] --from V [--to W] --out FILE\n"
    "  keygen --out PREFIX\n";

const char* subcommandHelp(const std::string& sub)
{
    if (sub == "export")
        return "Usage: dpu-cli bundle export RUN_DIR --out DIR [--strategy NAME] [--seed N] [--catchup all|V[,V...]]\n"
               "                              [--sign KEY] [--fuota]\n"
               "Copies a run's bundles of one strategy and seed into DIR (initial.safetensors, round-NNN.dpub,\n"
               "bundles.json) after applying the whole chain with the device decoder. With --catchup, also\n"
               "writes for every chosen version V (all: every version below the latest) the catch-up bundle\n"
               "DIR/catchup/from-VVV.dpub to the latest version, and DIR/catchup.json: per version the\n"
               "cheapest route (catchup, chain of missed bundles, or full model), why, and its files with\n"
               "bytes and SHA-256. With --sign KEY (a secret key from dpu-cli bundle keygen), every bundle\n"
               "written, rounds and catch-ups, is signed with it (devices check it with dpu-apply --pubkey);\n"
               "without, the bundles are as the run wrote them (signed when its plan names bundle.secret_key).\n"
               "With --fuota, also writes every update round (each deployed round after the first, which\n"
               "installs the devices) as the update session a FUOTA server takes: DIR/fuota/round-NNN.json\n"
               "(per SF with fleet.multicast_per_sf: round-NNN-sfS.json), a CreateDeploymentRequest of\n"
               "ChirpStack's FUOTA server (proto3 JSON) whose multicast class, data rate, frequency, ping-slot\n"
               "period, fragment size, redundancy and timeouts come from the run's plan's deployment (its\n"
               "fleet keys) through the link model, with the round's bundle as payload; and\n"
               "DIR/fuota/index.json: where each field comes from, and the fields to fill in before sending\n"
               "(application id, each device's DevEUI and McRootKey: values that start with \"<fill in: \").\n"
               "A deployment a FUOTA server cannot take (not a LoRaWAN EU868 or US915 downlink, unicast\n"
               "delivery, a session longer than TS005 allows) is refused naming the field. docs/fleet.md,\n"
               "\"Handing the session to a FUOTA server\".\n";
    if (sub == "catchup")
        return "Usage: dpu-cli bundle catchup RUN_DIR --strategy NAME [--seed N] --from V [--to W] --out FILE\n"
               "Writes one bundle that moves a device from update version V to W (default: the latest):\n"
               "every weight any round in between changed, exactly, so that the device file equals the one\n"
               "the missed bundles give, byte for byte. Apply it with dpu-apply. Prints its size beside\n"
               "the chain of missed bundles and a full model, and which is the cheapest.\n";
    if (sub == "inspect")
        return "Usage: dpu-cli bundle inspect BUNDLE [--base WEIGHTS.safetensors] [--bytes]\n"
               "Describes a bundle: kind, versions, hashes, every tensor's coding and size.\n"
               "With --bytes, also where the bytes go: under each tensor its bits by part (positions,\n"
               "values, section headers, code tables, padding), and a summary: envelope, tensor table,\n"
               "section H, then weights, 1-D tensors (biases) and INT8 scales, each with its parts\n"
               "(a delta's names need --base; without, tensors are grouped as partial or always shipped).\n";
    if (sub == "verify")
        return "Usage: dpu-cli bundle verify BUNDLE [--base WEIGHTS.safetensors] [--pubkey KEY.pub]\n"
               "Checks a bundle as a device would and decodes it.\n";
    if (sub == "keygen")
        return "Usage: dpu-cli bundle keygen --out PREFIX\n"
               "Makes an Ed25519 key pair PREFIX.key / PREFIX.pub for signed bundles.\n";
    return kBundleHelp;
}

int catchUpCommand(ArgList& args)
{
    CatchUpRequest q;
    // The numbers first: a bad one is named before the folder is looked at.
    const std::optional<int64_t> seed = args.integer("--seed"), from = args.integer("--from"), to = args.integer("--to");
    q.strategy = args.value("--strategy");
    const std::string out = args.value("--out");
    const auto pos = args.positional();
    if (pos.size() != 1 || out.empty() || !from || q.strategy.empty())
        throw UsageError("bundle catchup needs a run folder, --strategy NAME, --from V and --out FILE");
    q.runDir = pos[0];
    q.anySeed = !seed;
    q.seed = static_cast<uint64_t>(seed.value_or(0));
    q.fromVersion = static_cast<uint64_t>(*from);
    q.toLatest = !to;
    q.toVersion = static_cast<uint64_t>(to.value_or(0));
    const CatchUpResult r = writeCatchUpBundle(q, out);
    std::printf("Wrote %s: %s bundle from version %llu to %llu of strategy %s, seed %llu: %lld bytes; the device\n"
                "file it gives equals the chain's (SHA-256 %s).\n"
                "Chain of %zu missed bundles: %lld bytes; full model: %lld bytes.\nRoute: %s\n",
                out.c_str(), r.kind.c_str(), static_cast<unsigned long long>(r.fromVersion),
                static_cast<unsigned long long>(r.toVersion), r.strategy.c_str(),
                static_cast<unsigned long long>(r.seed), static_cast<long long>(r.catchUpBytes), r.deviceSha256.c_str(),
                r.chainRounds.size(), static_cast<long long>(r.chainBytes), static_cast<long long>(r.fullBytes),
                r.reason.c_str());
    return 0;
}

/// The run's deployment (its plan's fleet keys), with every request of the export built in memory:
/// a deployment or a round a FUOTA server cannot take is refused before anything is written.
Deployment fuotaDeploymentOf(const std::string& runDir, const std::string& strategy, std::optional<int64_t> seed,
                             const std::string& secretKeyPath)
{
    Deployment deployment = loadRunFolder(runDir).plan.fleet;
    try {
        planFuotaRequests(runDir, strategy, static_cast<uint64_t>(seed.value_or(0)), !seed, secretKeyPath, deployment);
    } catch (const LinkError& e) {
        throw Error("--fuota: " + std::string(e.what()) + " (the deployment of " + runDir + "/plan.json)");
    }
    return deployment;
}

void writeFuota(const std::string& out, const Deployment& deployment)
{
    FuotaExport fuota;
    try {
        fuota = writeFuotaRequests(out, deployment);
    } catch (const LinkError& e) {
        throw Error("--fuota: " + std::string(e.what()) + " (the bundles are exported; no FUOTA request was written)");
    }
    for (const FuotaRequest& q : fuota.requests)
        std::printf("round %3d  %s DR%d %.3f MHz  %lld fragments of %d B + %lld redundant  session %.0f s, "
                    "timeout %d (%.0f s)  %s\n",
                    q.round, q.session.groupType.c_str(), q.session.dataRate, q.session.frequencyHz / 1e6,
                    static_cast<long long>(q.fragments), q.session.fragmentSize, static_cast<long long>(q.redundancy),
                    q.sessionSeconds, q.multicastTimeout, q.timeoutSeconds, q.file.c_str());
    std::printf("Wrote %zu FUOTA deployment requests and %s/fuota/index.json; fill in the application id and each\n"
                "device's DevEUI and McRootKey before sending them (docs/fleet.md).\n",
                fuota.requests.size(), out.c_str());
}

} // namespace

int bundleCommand(const std::vector<std::string>& argv)
{
    if (argv.empty())
        throw UsageError("bundle needs a subcommand: inspect, verify, export, catchup or keygen");
    const std::string sub = argv[0];
    ArgList args(std::vector<std::string>(argv.begin() + 1, argv.end()), numberOptionsOf("bundle " + sub));
    if (sub == "--help" || sub == "-h" || args.flag("--help") || args.flag("-h")) {
        std::fputs(subcommandHelp(sub), stdout);
        return 0;
    }
    if (sub == "catchup")
        return catchUpCommand(args);
    if (sub == "inspect") {
        const std::string base = args.value("--base");
        const bool bytes = args.flag("--bytes");
        const auto pos = args.positional();
        if (pos.size() != 1)
            throw UsageError("bundle inspect takes one bundle file");
        std::fputs(inspectBundleFile(pos[0], base, bytes).c_str(), stdout);
        return 0;
    }
    if (sub == "verify") {
        const std::string base = args.value("--base");
        const std::string key = args.value("--pubkey");
        const auto pos = args.positional();
        if (pos.size() != 1)
            throw UsageError("bundle verify takes one bundle file");
        const BundleVerification v = verifyBundleFile(pos[0], base, key);
        if (!v.ok) {
            std::fprintf(stderr, "%s: REJECTED: %s\n", pos[0].c_str(), v.message.c_str());
            return 1;
        }
        std::printf("%s: OK, update version %llu%s, produces a device file with SHA-256 %s\n", pos[0].c_str(),
                    static_cast<unsigned long long>(v.updateVersion), key.empty() ? " (signature not checked)" : ", signature valid",
                    v.targetSha256.c_str());
        return 0;
    }
    if (sub == "export") {
        const std::optional<int64_t> seed = args.integer("--seed");
        const std::optional<std::string> catchUp = args.optionalValue("--catchup");
        ExportOptions options;
        options.catchUp = catchUp ? parseSelection(args, *catchUp) : CatchUpSelection{};
        options.secretKeyPath = args.value("--sign");
        const std::string out = args.value("--out");
        const std::string strategy = args.value("--strategy");
        const bool fuota = args.flag("--fuota");
        const auto pos = args.positional();
        if (pos.size() != 1 || out.empty())
            throw UsageError("bundle export needs a run folder and --out DIR");
        const Deployment deployment = fuota ? fuotaDeploymentOf(pos[0], strategy, seed, options.secretKeyPath) : Deployment{};
        const CatchUpExport all = exportRunBundlesWithOptions(pos[0], strategy, static_cast<uint64_t>(seed.value_or(0)),
                                                              !seed, out, options);
        const BundleExport& ex = all.rounds;
        for (const auto& r : ex.rounds)
            std::printf("round %3d  v%-3llu %-13s %10lld bytes  %s\n", r.round,
                        static_cast<unsigned long long>(r.updateVersion), r.kind.c_str(),
                        static_cast<long long>(r.bytes), r.file.c_str());
        std::printf("Exported %zu bundles (%lld bytes) of strategy %s, seed %llu to %s, with initial.safetensors and "
                    "bundles.json; every bundle was applied in order and matches the run's device state%s.\n",
                    ex.rounds.size(), static_cast<long long>(ex.totalBytes), ex.strategy.c_str(),
                    static_cast<unsigned long long>(ex.seed), out.c_str(),
                    options.secretKeyPath.empty() ? "" : (", signed with " + options.secretKeyPath).c_str());
        for (const CatchUpResult& r : all.versions)
            std::printf("from v%-3llu %-8s catch-up %10lld  chain %10lld  full %10lld bytes\n",
                        static_cast<unsigned long long>(r.fromVersion), catchUpRouteName(r.route),
                        static_cast<long long>(r.catchUpBytes), static_cast<long long>(r.chainBytes),
                        static_cast<long long>(r.fullBytes));
        if (!all.versions.empty())
            std::printf("Wrote %zu catch-up bundles to %s/catchup/ and the routes to %s/catchup.json.\n",
                        all.versions.size(), out.c_str(), out.c_str());
        if (fuota)
            writeFuota(out, deployment);
        return 0;
    }
    if (sub == "keygen") {
        const std::string out = args.value("--out");
        if (!args.positional().empty() || out.empty())
            throw UsageError("bundle keygen needs --out PREFIX");
        generateSigningKeys(out + ".key", out + ".pub");
        std::printf("Wrote %s.key (secret: plan \"bundle\": {\"secret_key\": ...}) and %s.pub (dpu-apply --pubkey)\n",
                    out.c_str(), out.c_str());
        return 0;
    }
    throw UsageError("unknown bundle subcommand '" + sub + "' (inspect, verify, export, catchup, keygen)");
}

} // namespace dpu::cli
