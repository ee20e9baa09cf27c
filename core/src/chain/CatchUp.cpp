// SPDX-License-Identifier: MIT
// Catch-up bundles from a run's deployed chain: exact values, the seed rule, and the cheapest route.
#include "dpu/CatchUp.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleManifest.h"
#include "bundle/BundleWriter.h"
#include "bundle/SafetensorsFile.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/Plan.h"
#include "chain/CatchUpBuilder.h"
#include "chain/DeployedChain.h"
#include "util/AtomicFile.h"
#include "util/Sha256Hex.h"
#include <cstring>
#include <map>

namespace dpu {

namespace {

using bundle::BundleInput;
using bundle::Kind;

bool identicalValues(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), 4 * a.size()) == 0);
}

std::vector<uint8_t> changedPositions(const std::vector<float>& from, const std::vector<float>& to)
{
    std::vector<uint8_t> m(to.size());
    for (size_t j = 0; j < m.size(); ++j)
        m[j] = std::memcmp(&from[j], &to[j], 4) != 0;
    return m;
}

// The target version's tensors and identity, exact values, unsigned until the caller signs.
BundleInput targetInput(const DeployedChain& chain, uint64_t to, const std::vector<uint8_t>& secretKey)
{
    std::map<std::string, std::string> meta;
    BundleInput in;
    in.target = bundle::SafetensorsFile::read(chain.files[to], nullptr, &meta);
    in.model = meta["dpu.model"];
    in.compat = meta["dpu.compat"];
    in.updateVersion = to;
    in.coding = bundle::ValueCoding::Fp32;
    in.exactValues = true;
    in.secretKey = secretKey;
    return in;
}

// A delta over the device's file: partial tensors (dim > 1) masked where their bits changed,
// unchanged ones copied, the others always-shipped (dense, fp32 edits or exact sections).
bundle::BundleOutput deltaFrom(const DeployedChain& chain, uint64_t from, BundleInput in)
{
    const auto base = bundle::SafetensorsFile::read(chain.files[from]);
    in.kind = Kind::Delta;
    in.baseFile = chain.files[from];
    in.masks.resize(in.target.size());
    for (size_t i = 0; i < in.target.size(); ++i)
        if (in.target[i].shape.size() >= 2 && !identicalValues(base.at(i).values, in.target[i].values))
            in.masks[i] = changedPositions(base[i].values, in.target[i].values);
    return bundle::BundleWriter::write(in);
}

// The seed rule: after a re-initialisation the target is that round's seeded model plus every
// change since, so the bundle regenerates the model (the round's seed and init rules) and ships
// the positions that differ from it.
bundle::BundleOutput reinitFrom(const DeployedRound& reinit, BundleInput in)
{
    const bundle::ManifestFacts facts = bundle::BundleManifest::read(reinit.bundle);
    if (facts.init.size() != in.target.size())
        throw Error(reinit.path + ": " + std::to_string(facts.init.size()) + " tensors, the device file has "
                    + std::to_string(in.target.size()));
    in.kind = Kind::ReinitDelta;
    in.seed = facts.seed;
    in.init = facts.init;
    in.masks.resize(in.target.size());
    for (size_t i = 0; i < in.target.size(); ++i)
        if (facts.init[i].rule != bundle::InitSpec::Rule::None)
            in.masks[i] = changedPositions(bundle::BundleWriter::initialValues(in.target[i], facts.init[i], facts.seed),
                                  in.target[i].values);
    return bundle::BundleWriter::write(in);
}

std::string bytesText(int64_t n)
{
    std::string s = std::to_string(n);
    for (int i = int(s.size()) - 3; i > 0; i -= 3)
        s.insert(size_t(i), ",");
    return s + " B";
}

void chooseRoute(CatchUpResult& r)
{
    // Ties go to what needs no new file (the chain), then to the one file per device.
    r.route = CatchUpRoute::Chain;
    int64_t best = r.chainBytes;
    if (r.catchUpBytes < best) {
        r.route = CatchUpRoute::CatchUp;
        best = r.catchUpBytes;
    }
    if (r.fullBytes < best)
        r.route = CatchUpRoute::Full;
    const size_t n = r.chainRounds.size();
    r.reason = std::string(catchUpRouteName(r.route)) + " is the smallest: catch-up bundle (" + r.kind + ") "
               + bytesText(r.catchUpBytes) + ", chain of " + std::to_string(n) + (n == 1 ? " bundle " : " bundles ")
               + bytesText(r.chainBytes) + ", full model " + bytesText(r.fullBytes);
}

} // namespace

const char* catchUpRouteName(CatchUpRoute route)
{
    switch (route) {
    case CatchUpRoute::CatchUp:
        return "catchup";
    case CatchUpRoute::Chain:
        return "chain";
    case CatchUpRoute::Full:
        return "full";
    }
    return "?";
}

CatchUpResult catchUpOf(const DeployedChain& chain, uint64_t from, uint64_t to, const std::vector<uint8_t>& secretKey)
{
    CatchUpResult r;
    r.strategy = chain.strategy;
    r.seed = chain.seed;
    r.fromVersion = from;
    r.toVersion = to;
    const BundleInput in = targetInput(chain, to, secretKey);
    bundle::BundleOutput best = deltaFrom(chain, from, in);
    r.kind = "delta";
    const DeployedRound* reinit = nullptr;
    size_t chainStart = from; // index into rounds: the first bundle the chain route sends
    for (uint64_t v = from + 1; v <= to; ++v) {
        const DeployedRound& round = chain.rounds[v - 1];
        if (round.kind != "delta")
            chainStart = v - 1; // full and reinit+delta bundles read no base: nothing before is needed
        if (round.kind == "reinit+delta")
            reinit = &round;
    }
    if (reinit) {
        bundle::BundleOutput seeded = reinitFrom(*reinit, in);
        if (seeded.bytes.size() < best.bytes.size()) {
            best = std::move(seeded);
            r.kind = "reinit+delta";
        }
    }
    bundle::BundleApplier::Options check;
    check.currentVersion = from;
    const auto applied = bundle::BundleApplier::apply(best.bytes, chain.files[from], check);
    // The writer checks its own bundle with the device's decoder: a mismatch is a defect, not input.
    DPU_INTERNAL_CHECK(applied.status == 0 && applied.file == chain.files[to],
                       "catch-up from version " + std::to_string(from) + " to " + std::to_string(to) + " of "
                           + chain.strategy + ": the device decoder "
                           + (applied.status ? "rejected it: " + applied.message : std::string("produced another file"))
                           + "; nothing was written");
    r.bundle = std::move(best.bytes);
    r.deviceSha256 = sha256Hex(applied.file);
    r.catchUpBytes = int64_t(r.bundle.size());
    for (size_t i = chainStart; i < to; ++i) {
        r.chainRounds.push_back(chain.rounds[i].round);
        r.chainBytes += int64_t(chain.rounds[i].bundle.size());
    }
    BundleInput full = in;
    full.kind = Kind::Full;
    r.fullBundle = bundle::BundleWriter::write(full).bytes;
    r.fullBytes = int64_t(r.fullBundle.size());
    chooseRoute(r);
    return r;
}

std::vector<uint8_t> chainSigningKey(const DeployedChain& chain)
{
    bool isSigned = false;
    for (const DeployedRound& r : chain.rounds)
        isSigned = isSigned || bundle::BundleManifest::read(r.bundle).isSigned;
    if (!isSigned)
        return {};
    // The run's own key, named by its plan: the one place a catch-up reads the plan.
    const std::string planPath = chain.runDir + "/plan.json";
    const std::string keyPath = loadPlanFile(planPath).bundle.secretKey;
    if (keyPath.empty())
        throw Error(planPath + ": bundle.secret_key is empty, but the run's bundles are signed (a catch-up bundle "
                    "must be signed with the same key)");
    return readSecretKeyFile(keyPath, "plan bundle.secret_key");
}



void checkVersions(const DeployedChain& chain, uint64_t from, uint64_t to, const std::string& fromField,
                   const std::string& toField)
{
    const std::string deployed = "the run deployed versions 0.." + std::to_string(chain.latest()) + " of strategy "
                                 + chain.strategy + ", seed " + std::to_string(chain.seed);
    if (to > chain.latest())
        throw Error(toField + ": version " + std::to_string(to) + " was never deployed (" + deployed + ")");
    if (from > chain.latest())
        throw Error(fromField + ": version " + std::to_string(from) + " was never deployed (" + deployed + ")");
    if (from >= to)
        throw Error(fromField + ": version " + std::to_string(from) + " must be below the target version "
                    + std::to_string(to) + (to == chain.latest() ? " (the latest)" : ""));
}

CatchUpResult buildCatchUp(const CatchUpRequest& q)
{
    const DeployedChain chain = DeployedChain::load(q.runDir, q.strategy, q.seed, q.anySeed);
    const uint64_t to = q.toLatest ? chain.latest() : q.toVersion;
    checkVersions(chain, q.fromVersion, to, "--from", "--to");
    return catchUpOf(chain, q.fromVersion, to, chainSigningKey(chain));
}

CatchUpResult writeCatchUpBundle(const CatchUpRequest& request, const std::string& outFile)
{
    CatchUpResult r = buildCatchUp(request);
    writeFileAtomic(outFile, std::string(r.bundle.begin(), r.bundle.end()));
    return r;
}

} // namespace dpu
