// SPDX-License-Identifier: MIT
// Bundle assembly: decide each tensor's mode, encode sections, then preamble, manifest, digest
// and signature (docs/bundle-format.md, "Layout").
#include "bundle/BundleWriter.h"
#include "dpu/InternalCheck.h"
#include "bundle/BundleEnvelope.h"
#include "bundle/CqPlanner.h"
#include "bundle/DenseStream.h"
#include "bundle/ExactSection.h"
#include "bundle/FullZeros.h"
#include "bundle/HeaderSection.h"
#include "bundle/Int8Section.h"
#include "bundle/SafetensorsFile.h"
#include "bundle/SparseEncoder.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"
#include "dpu_init.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#ifdef DPU_PATCH_WITH_SODIUM
#include <sodium.h> // generateKeyPair
#endif

namespace dpu::bundle {

namespace {

using Planned = PlannedTensor;
using envelope::le;
using envelope::put;

bool cqCoding(ValueCoding c)
{
    return c == ValueCoding::Q8c || c == ValueCoding::Q4 || c == ValueCoding::Ternary;
}

// The q8c grid, shared by every tensor of the bundle.
struct Grid {
    bool ok = false;
    CqGrid g;
};

std::vector<uint8_t> floatBytes(const std::vector<float>& v)
{
    std::vector<uint8_t> out;
    out.reserve(v.size() * 4);
    for (float f : v)
        le(out, dpu_float_bits(f), 4);
    return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), 4 * a.size()) == 0);
}

// Changed always-shipped tensors (biases, BatchNorm) into one shared dense stream when that is
// smaller than their own sections: many small tensors then share one set of code tables. A
// tensor whose own section is cheaper than its share (a few changed values) keeps it.
void poolDenseTensors(const BundleInput& in, const std::vector<TensorData>& base, std::vector<Planned>& plan,
                      BundleStats& stats)
{
    std::vector<size_t> pool;
    uint64_t values = 0;
    for (size_t i = 0; i < plan.size(); ++i)
        if (in.masks[i].empty() && plan[i].mode != DPU_MODE_COPY && plan[i].coding != DPU_CODING_CQ &&
            in.target[i].dtype == DType::F32) { // the stream's words are f32: I8 codes travel on their own
            pool.push_back(i);
            values += in.target[i].values.size();
        }
    auto streamOf = [&](const std::vector<size_t>& set) {
        std::vector<const std::vector<float>*> targets, bases;
        for (size_t i : set) {
            targets.push_back(&in.target[i].values);
            if (in.kind == Kind::Delta)
                bases.push_back(&base[i].values);
        }
        return DenseStream::encode(targets, bases);
    };
    if (pool.empty())
        return;
    const double bitsPerValue = 8.0 * double(streamOf(pool).size()) / double(std::max<uint64_t>(values, 1));
    std::vector<size_t> kept;
    for (size_t i : pool)
        if (8.0 * double(plan[i].section.size()) >= bitsPerValue * double(in.target[i].values.size()))
            kept.push_back(i);
    if (kept.empty())
        return;
    std::vector<uint8_t> stream = streamOf(kept);
    uint64_t own = 0;
    for (size_t i : kept)
        own += plan[i].section.size();
    if (stream.size() >= own)
        return;
    stats.denseBytes = stats.denseBytes - own + stream.size();
    for (size_t j = 0; j < kept.size(); ++j) {
        Planned& p = plan[kept[j]];
        p.mode = DPU_MODE_DENSE;
        p.coding = DPU_CODING_FP32; // pooled: the first carries the stream, the others nothing
        p.section = j == 0 ? stream : std::vector<uint8_t>{};
    }
}

// The input's own consistency: counts, strings, version (docs/bundle-format.md, "Limits").
void checkInput(const BundleInput& in)
{
    const size_t n = in.target.size();
    if (n == 0 || n > DPU_MAX_TENSORS)
        throw Error("bundle: tensor count " + std::to_string(n) + " outside 1.." + std::to_string(DPU_MAX_TENSORS));
    if (in.model.empty() || in.model.size() > DPU_MAX_STRING || in.compat.size() > DPU_MAX_STRING ||
        in.model.find('\0') != std::string::npos || in.compat.find('\0') != std::string::npos)
        throw Error("bundle: model must be 1..255 bytes and compat 0..255 bytes, without NUL");
    if (in.updateVersion == 0)
        throw Error("bundle: update version must be at least 1");
    // The engine builds the masks, init rules and codes itself: a mismatch is a defect.
    DPU_INTERNAL_CHECK(in.kind == Kind::Full || in.masks.size() == n,
                       "bundle: " + std::to_string(in.masks.size()) + " masks for " + std::to_string(n) + " tensors");
    DPU_INTERNAL_CHECK(in.kind != Kind::ReinitDelta || in.init.size() == n, "bundle: reinit needs one init rule per tensor");
    for (const TensorData& t : in.target)
        DPU_INTERNAL_CHECK(t.dtype != DType::I8 || t.values.empty(),
                           "bundle: I8 tensor " + t.name + " has float values (its codes go in `codes`)");
}

// A delta's base: the device's current file, tensor for tensor like the target.
std::vector<TensorData> readBase(const BundleInput& in, uint64_t& baseDataStart)
{
    std::vector<TensorData> base = SafetensorsFile::read(in.baseFile, &baseDataStart);
    if (base.size() != in.target.size())
        throw Error("bundle: base file has " + std::to_string(base.size()) + " tensors, target " +
                    std::to_string(in.target.size()));
    for (size_t i = 0; i < base.size(); ++i)
        if (base[i].name != in.target[i].name || base[i].shape != in.target[i].shape ||
            base[i].dtype != in.target[i].dtype)
            throw Error("bundle: tensor " + std::to_string(i) + " (" + in.target[i].name +
                        ") differs in name, shape or dtype from the base file's " + base[i].name);
    return base;
}

// A partially updated tensor (non-empty mask): a sparse section over the base (delta) or over
// the seeded model (reinit), or its plain values when nearly every element changed. Records
// in out.applied[i] what the device will hold.
Planned planPartialTensor(const BundleInput& in, std::vector<float> source, size_t i, const Grid& grid,
                          BundleOutput& out)
{
    const TensorData& t = in.target[i];
    Planned p;
    p.mode = in.kind == Kind::Delta ? DPU_MODE_SPARSE : DPU_MODE_INIT_SPARSE;
    p.coding = uint8_t(in.coding);
    BundleStats s;
    if (in.exactValues) {
        ExactChoice c = ExactSection::encode(source, t.values, in.masks[i], CqEncoder::rowLength(t.shape, t.values.size()), s);
        p.coding = c.coding;
        p.section.swap(c.section);
        out.applied[i].values = t.values;
    } else if (cqCoding(in.coding)) {
        const CqChanges c{&source, &t.values, &in.masks[i], true, CqEncoder::rowLength(t.shape, t.values.size())};
        if (in.coding != ValueCoding::Q8c || grid.ok)
            p.section = CqPlanner::section(in.coding, c, grid.g, out.applied[i].values, s);
        p.coding = DPU_CODING_CQ;
        if (p.section.empty()) { // q8 would be exact here, or the levels overflow the grid
            s = BundleStats{};
            p.coding = DPU_CODING_FP32;
        }
    }
    if (!in.exactValues && p.coding != DPU_CODING_CQ)
        p.section = SparseEncoder::encode(source, t.values, in.masks[i],
                                          cqCoding(in.coding) ? ValueCoding::Fp32 : in.coding,
                                          out.applied[i].values, s);
    if (!in.exactValues && in.coding == ValueCoding::Q8 && s.changed <= 256) {
        // Up to 256 changed values are each their own centroid (an exact f32 table): fp16
        // values are smaller, and their rounding (2^-11 relative) is far below 8-bit
        // quantisation's, so a q8 bundle takes them for such tensors when they are.
        std::vector<float> half;
        BundleStats hs;
        std::vector<uint8_t> alt = SparseEncoder::encode(source, t.values, in.masks[i], ValueCoding::Fp16, half, hs);
        if (alt.size() < p.section.size()) {
            p.section.swap(alt);
            p.coding = DPU_CODING_FP16;
            out.applied[i].values.swap(half);
            s = hs;
        }
    }
    if (p.section.size() < 4 * t.values.size()) {
        out.stats.positionBits += s.positionBits;
        out.stats.valueBits += s.valueBits;
        out.stats.changed += s.changed;
        out.stats.partialWeights += s.partialWeights;
        out.stats.sparseBytes += p.section.size();
    } else { // nearly every element changed: the values alone are smaller (and exact)
        for (size_t j = 0; j < source.size(); ++j)
            if (in.masks[i][j])
                source[j] = t.values[j];
        p = Planned{};
        p.section = floatBytes(source);
        out.applied[i].values = source;
        out.stats.denseBytes += p.section.size();
    }
    return p;
}

// An always-shipped tensor (biases, BatchNorm; every tensor of a full bundle): nothing when a
// delta leaves it unchanged, else its fp32 values, or in a delta an exact fp32 sparse section
// over the base values when that is smaller (unchanged elements cost a position bit, not 32).
Planned planAlwaysShippedTensor(const BundleInput& in, const std::vector<TensorData>& base, size_t i, BundleStats& stats)
{
    const TensorData& t = in.target[i];
    Planned p;
    if (in.kind == Kind::Delta && sameBits(base[i].values, t.values)) {
        p.mode = DPU_MODE_COPY; // an unchanged always-shipped tensor costs nothing
        return p;
    }
    p.section = floatBytes(t.values);
    if (in.kind == Kind::Delta) {
        std::vector<uint8_t> changed(t.values.size());
        for (size_t j = 0; j < changed.size(); ++j)
            changed[j] = std::memcmp(&t.values[j], &base[i].values[j], 4) != 0;
        std::vector<float> decoded;
        BundleStats ignored; // dense bytes are accounted below, not as changed positions
        std::vector<uint8_t> sparse =
            SparseEncoder::encode(base[i].values, t.values, changed, ValueCoding::Fp32, decoded, ignored);
        if (sparse.size() < p.section.size()) {
            p.mode = DPU_MODE_SPARSE;
            p.coding = DPU_CODING_FP32;
            p.section.swap(sparse);
        }
    }
    if (in.exactValues && in.kind == Kind::Delta && p.mode != DPU_MODE_COPY) {
        // Catch-up: changes that coded rounds made (dense_tensors "coded") may beat exact fp32.
        ExactChoice c = ExactSection::encodeChanges(base[i].values, t);
        if (c.section.size() < p.section.size())
            p = {DPU_MODE_SPARSE, c.coding, std::move(c.section)};
    }
    stats.denseBytes += p.section.size();
    return p;
}

// Every partial tensor's source: the base file's values (delta) or the seeded model's (reinit).
std::vector<std::vector<float>> partialSources(const BundleInput& in, const std::vector<TensorData>& base)
{
    std::vector<std::vector<float>> sources(in.target.size());
    if (in.kind == Kind::Full)
        return sources;
    for (size_t i = 0; i < in.target.size(); ++i) {
        const TensorData& t = in.target[i];
        if (in.masks[i].empty() || t.dtype == DType::I8) // I8: its codes are their own source (Int8Section)
            continue;
        DPU_INTERNAL_CHECK(in.masks[i].size() == t.values.size(), "bundle: mask of " + t.name + " has " +
                                                                      std::to_string(in.masks[i].size()) + " entries, tensor " +
                                                                      std::to_string(t.values.size()));
        if (in.kind == Kind::Delta) {
            sources[i] = base[i].values;
        } else {
            DPU_INTERNAL_CHECK(in.init[i].rule != InitSpec::Rule::None, "bundle: partial tensor " + t.name + " has no init rule");
            sources[i] = BundleWriter::initialValues(t, in.init[i], in.seed);
        }
    }
    return sources;
}

// q8c: the bundle's grid step (CqPlanner::bundleStep).
Grid chooseGrid(const BundleInput& in, const std::vector<TensorData>& base,
                const std::vector<std::vector<float>>& sources, std::vector<std::vector<uint8_t>>& denseMasks)
{
    Grid g;
    g.ok = CqPlanner::bundleStep(in, base, sources, denseMasks, g.g);
    return g;
}

// A changed always-shipped tensor quantised on the q8c grid (quantiseDense): a cq section over
// the base, or its exact planning when the levels do not fit.
Planned planQuantisedDense(const BundleInput& in, const std::vector<TensorData>& base, size_t i, const Grid& grid,
                           const std::vector<uint8_t>& mask, BundleOutput& out)
{
    const TensorData& t = in.target[i];
    Planned p;
    p.mode = DPU_MODE_SPARSE;
    p.coding = DPU_CODING_CQ;
    BundleStats s;
    std::vector<float> applied;
    p.section = CqPlanner::section(ValueCoding::Q8c,
                                   {&base[i].values, &t.values, &mask, false, CqEncoder::rowLength(t.shape, t.values.size())},
                                   grid.g, applied, s);
    if (p.section.empty() || p.section.size() >= 4 * t.values.size())
        return planAlwaysShippedTensor(in, base, i, out.stats);
    out.applied[i].values = applied;
    out.stats.denseBytes += p.section.size();
    return p;
}

// Whether a planned sparse section counts its gaps among the source's nonzeros (section 4's
// flags byte, after the u64 count and the Rice parameter; cq sections have no such flag).
bool usesNonzero(const Planned& p)
{
    return (p.mode == DPU_MODE_SPARSE || p.mode == DPU_MODE_INIT_SPARSE) && p.coding != DPU_CODING_CQ &&
           p.section.size() >= 10 && (p.section[9] & DPU_SPARSE_NONZERO) != 0;
}

// The lowest format that has every feature the bundle uses: 3; 4 with a cq section; 5 with an I8
// tensor or a NONZERO section. A device whose decoder predates a feature then refuses the bundle
// by its version (DPU_E_FORMAT_VERSION: unsupported) before reading any of it, instead of meeting
// the feature inside a section (NONZERO came after the first format-4 decoders, which refuse it
// as an unknown plane bit, DPU_E_PLANES: corruption, as far as they can tell). Every other bundle
// keeps the format, and the bytes, that older writers gave it.
unsigned formatOf(const BundleInput& in, const std::vector<Planned>& plan)
{
    unsigned version = DPU_BUNDLE_FORMAT_MIN;
    for (size_t i = 0; i < plan.size(); ++i) {
        if (in.target[i].dtype == DType::I8)
            version = std::max(version, DPU_BUNDLE_FORMAT_VERSION);
        if (usesNonzero(plan[i]))
            version = std::max(version, DPU_BUNDLE_FORMAT_NONZERO);
        if (plan[i].coding == DPU_CODING_CQ)
            version = std::max(version, DPU_BUNDLE_FORMAT_CQ);
    }
    return version;
}

// The bundle for a checked input: every tensor's plan and section, then the envelope.
BundleOutput assemble(const BundleInput& in)
{
    const size_t n = in.target.size();
    uint64_t baseDataStart = 0;
    const std::vector<TensorData> base = in.kind == Kind::Delta ? readBase(in, baseDataStart) : std::vector<TensorData>{};

    BundleOutput out;
    out.applied = in.target;
    std::vector<Planned> plan(n);
    const std::vector<std::vector<float>> sources = partialSources(in, base);
    std::vector<std::vector<uint8_t>> denseMasks(n);
    const Grid grid = chooseGrid(in, base, sources, denseMasks);
    for (size_t i = 0; i < n; ++i) {
        if (in.target[i].dtype == DType::I8)
            plan[i] = Int8Section::plan(in, base, i, out);
        else if (in.kind != Kind::Full && !in.masks[i].empty())
            plan[i] = planPartialTensor(in, sources[i], i, grid, out);
        else if (!denseMasks[i].empty())
            plan[i] = planQuantisedDense(in, base, i, grid, denseMasks[i], out);
        else
            plan[i] = planAlwaysShippedTensor(in, base, i, out.stats);
    }
    if (in.kind != Kind::Full)
        poolDenseTensors(in, base, plan, out.stats);
    const unsigned version = formatOf(in, plan);

    const auto meta = SafetensorsFile::deviceMetadata(in.model, in.compat, in.updateVersion);
    out.targetFile = SafetensorsFile::write(out.applied, meta);
    const std::vector<uint8_t> fullHeader = SafetensorsFile::header(out.applied, meta);
    uint32_t headerForm = DPU_HEADER_VERBATIM;
    const std::vector<uint8_t> header =
        in.kind == Kind::Delta ? HeaderSection::encode(in.baseFile, baseDataStart, fullHeader, headerForm) : fullHeader;

    std::array<uint8_t, 32> sectionsDigest{};
    const std::vector<uint8_t> table = envelope::tensorTable(in, plan, header, sectionsDigest);
    const uint64_t manifestSize = DPU_MANIFEST_FIXED_SIZE + in.model.size() + in.compat.size() + table.size();
    if (manifestSize > DPU_MAX_MANIFEST)
        throw Error("bundle: manifest of " + std::to_string(manifestSize) + " bytes too large");
    const bool sign = !in.secretKey.empty();
    ManifestFields fields;
    fields.targetFile = &out.targetFile;
    fields.baseDataStart = baseDataStart;
    fields.headerForm = headerForm;
    fields.sectionsStart = DPU_BUNDLE_PREAMBLE_SIZE + manifestSize + 32 + (sign ? 64 : 0);
    fields.headerSize = header.size();
    fields.sectionsDigest = sectionsDigest;
    const std::vector<uint8_t> m = envelope::manifest(in, fields, table);

    std::vector<uint8_t>& b = out.bytes;
    envelope::appendEnvelope(b, m, in.secretKey, version);
    put(b, header.data(), header.size());
    for (const Planned& p : plan)
        put(b, p.section.data(), p.section.size());
    out.stats.totalBytes = b.size();
    out.stats.headerBytes = header.size();
    out.stats.envelopeBytes = fields.sectionsStart;
    return out;
}

} // namespace

std::vector<float> BundleWriter::initialValues(const TensorData& t, const InitSpec& spec, uint64_t seed)
{
    std::vector<float> v(t.values.size());
    if (spec.rule == InitSpec::Rule::Uniform) {
        if (spec.fanIn == 0 || spec.fanIn > (1u << 24))
            throw Error("tensor " + t.name + ": fan-in " + std::to_string(spec.fanIn) + " outside 1..2^24");
        dpu_init_uniform(v.data(), v.size(), dpu_init_key(seed, spec.index), 0, dpu_init_bound(spec.fanIn));
    } else {
        dpu_init_constant(v.data(), v.size(), spec.constant);
    }
    return v;
}

BundleOutput BundleWriter::write(const BundleInput& in)
{
    checkInput(in);
    BundleOutput out = assemble(in);
    // A full bundle of a model with zeros (a sparse deployed model) would ship them as 32 bits
    // each: its nonzeros and their positions over the constant-0 rule are smaller, and every
    // decoder of format 3 on applies them (docs/bundle-format.md 2.6). The smaller one travels.
    // A whole new model written as a delta (a sparse model's full update) changes nearly every
    // nonzero of base and target, each as a position and an XOR word: the zero-coded full
    // deployment of the target, which needs no base, is smaller (0.44 of a dense full bundle
    // against 0.52 measured), and again the smaller one travels.
    std::optional<BundleInput> zeros;
    if (in.kind == Kind::Full) {
        zeros = FullZeros::asZeroSeeded(in);
    } else if (in.kind == Kind::Delta && in.wholeModel) {
        BundleInput full = in;
        full.kind = Kind::Full;
        full.masks.clear();
        full.init.clear();
        full.baseFile.clear();
        zeros = FullZeros::asZeroSeeded(full);
    }
    if (zeros) {
        BundleOutput coded = assemble(*zeros);
        if (coded.bytes.size() < out.bytes.size())
            return coded;
    }
    return out;
}

void BundleWriter::generateKeyPair(std::vector<uint8_t>& secretKey, std::vector<uint8_t>& publicKey)
{
#ifdef DPU_PATCH_WITH_SODIUM
    if (sodium_init() < 0)
        throw Error("libsodium failed to initialise");
    secretKey.resize(crypto_sign_SECRETKEYBYTES);
    publicKey.resize(crypto_sign_PUBLICKEYBYTES);
    crypto_sign_keypair(publicKey.data(), secretKey.data());
#else
    (void)secretKey;
    (void)publicKey;
    throw Error("Ed25519 keys need libsodium (built without it)");
#endif
}

} // namespace dpu::bundle
