// SPDX-License-Identifier: MIT
// dpu-cli bundle: inspect, verify and export update bundles, and make signing keys.
#include "ArgList.h"
#include "CliCommands.h"
#include "dpu/Bundles.h"
#include <cstdio>

namespace dpu::cli {

namespace {

uint64_t parseSeed(const std::string& text)
{
    try {
        size_t pos = 0;
        const unsigned long long v = std::stoull(text, &pos);
        if (pos == text.size() && text[0] != '-')
            return v;
    } catch (const std::exception&) {
    }
    throw UsageError("--seed: expected a non-negative integer, found '" + text + "'");
}

} // namespace

int bundleCommand(const std::vector<std::string>& argv)
{
    if (argv.empty())
        throw UsageError("bundle needs a subcommand: inspect, verify, export or keygen");
    const std::string sub = argv[0];
    ArgList args(std::vector<std::string>(argv.begin() + 1, argv.end()));
    if (sub == "inspect") {
        const std::string base = args.value("--base");
        const auto pos = args.positional();
        if (pos.size() != 1)
            throw UsageError("bundle inspect takes one bundle file");
        std::fputs(inspectBundleFile(pos[0], base).c_str(), stdout);
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
        const std::string out = args.value("--out");
        const std::string strategy = args.value("--strategy");
        const std::string seed = args.value("--seed");
        const auto pos = args.positional();
        if (pos.size() != 1 || out.empty())
            throw UsageError("bundle export needs a run folder and --out DIR");
        const BundleExport ex = exportRunBundles(pos[0], strategy, seed.empty() ? 0 : parseSeed(seed), seed.empty(), out);
        for (const auto& r : ex.rounds)
            std::printf("round %3d  v%-3llu %-13s %10lld bytes  %s\n", r.round,
                        static_cast<unsigned long long>(r.updateVersion), r.kind.c_str(),
                        static_cast<long long>(r.bytes), r.file.c_str());
        std::printf("Exported %zu bundles (%lld bytes) of strategy %s, seed %llu to %s, with initial.safetensors and "
                    "bundles.json; every bundle was applied in order and matches the run's device state.\n",
                    ex.rounds.size(), static_cast<long long>(ex.totalBytes), ex.strategy.c_str(),
                    static_cast<unsigned long long>(ex.seed), out.c_str());
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
    throw UsageError("unknown bundle subcommand '" + sub + "' (inspect, verify, export, keygen)");
}

} // namespace dpu::cli
