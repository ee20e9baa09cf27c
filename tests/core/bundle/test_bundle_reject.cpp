// SPDX-License-Identifier: MIT
// Hostile and wrong input: every single-byte change and every truncation of a small valid bundle
// is rejected; wrong base, wrong key, replayed versions and wrong compatibility are refused.
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

struct Fixture {
    std::vector<uint8_t> base;
    BundleOutput out;
};

Fixture smallBundle(ValueCoding coding, const std::vector<uint8_t>& secretKey, Kind kind = Kind::Delta)
{
    Fixture f;
    const auto old = modelState("tiny", 1);
    f.base = deviceFile(old, 1);
    BundleInput in = deltaInput(f.base, perturbed(old, 2), randomMasks(old, 0.3, 3), coding, 2);
    in.secretKey = secretKey;
    if (kind == Kind::ReinitDelta)
        makeReinit(in, old, 99);
    f.out = BundleWriter::write(in);
    return f;
}

/// A bundle whose shared dense stream (eight normalisation layers pooled) rides on entry 1, bn0;
/// `base` the device file of version 1 (what a delta applies to).
Fixture denseStreamBundle(Kind kind)
{
    std::vector<TensorData> bn = withNormLayers({"w", {8, 4}, {}}, 8);
    std::mt19937 rng(9);
    fillNormal(bn, rng, 0.05f);
    const auto masks = randomMasks(bn, 0.1, 10);
    const auto base = deviceFile(bn, 1);
    BundleInput in = deltaInput(base, perturbed(bn, 11), masks, ValueCoding::Fp32, 2);
    if (kind == Kind::ReinitDelta)
        makeReinit(in, bn, 3);
    return {base, BundleWriter::write(in)};
}

} // namespace

class TestBundleReject : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyByteChangeRejected()
    {
        std::vector<uint8_t> sk, pk;
        BundleWriter::generateKeyPair(sk, pk);
        for (int coding = 1; coding <= 3; ++coding)
            for (int variant = 0; variant < 3; ++variant) {
                // 0: unsigned delta, no key; 1: signed delta, key; 2: signed reinit, key
                const bool sign = variant > 0;
                const Fixture f = smallBundle(ValueCoding(coding), sign ? sk : std::vector<uint8_t>{},
                                              variant == 2 ? Kind::ReinitDelta : Kind::Delta);
                BundleApplier::Options o;
                o.currentVersion = 1;
                if (sign)
                    o.publicKey = pk;
                QCOMPARE(BundleApplier::apply(f.out.bytes, f.base, o).status, 0);
                std::vector<uint8_t> b = f.out.bytes;
                for (size_t i = 0; i < b.size(); ++i) {
                    const uint8_t orig = b[i];
                    // all 255 changes for fp32; single-bit flips and inversion for the others
                    for (unsigned x = 1; x < 256; ++x) {
                        if (coding != 1 && (x & (x - 1)) != 0 && x != 0xff)
                            continue;
                        b[i] = uint8_t(orig ^ x);
                        const auto r = BundleApplier::apply(b, f.base, o);
                        if (r.status == 0)
                            QFAIL(qPrintable(QStringLiteral("coding %1 variant %2: byte %3 ^ %4 accepted")
                                                 .arg(coding).arg(variant).arg(i).arg(x)));
                        QVERIFY(r.file.empty());
                    }
                    b[i] = orig;
                }
            }
    }

    /// Positions among the nonzeros (DPU_SPARSE_NONZERO) on a base with fewer nonzeros than
    /// the gaps skip (a lab signer's bundle for another base): the decoder names the position
    /// and never reads past the tensor.
    void nonzeroGapsPastTheLastNonzeroRejected()
    {
        std::vector<TensorData> old = {{"w", {16, 16}, std::vector<float>(256, 0.0f)},
                                       {"b", {16}, std::vector<float>(16, 0.5f)}};
        for (int i = 0; i < 10; ++i)
            old[0].values[size_t(20 * i)] = 0.1f * float(i + 1); // 10 nonzeros: 0, 20, ..., 180
        std::vector<std::vector<uint8_t>> masks = {std::vector<uint8_t>(256, 0), {}};
        masks[0][180] = 1; // the last nonzero: a gap of 9 among the nonzeros, 180 over all
        auto target = old;
        target[0].values[180] = -2.0f;
        const auto base = deviceFile(old, 1);
        const BundleOutput out = BundleWriter::write(deltaInput(base, target, masks, ValueCoding::Fp32, 2));
        QVERIFY(BundleInspector::inspect(out.bytes, &base).find("among the nonzeros") != std::string::npos);
        BundleApplier::Options o;
        o.currentVersion = 1;
        QCOMPARE(BundleApplier::apply(out.bytes, base, o).status, 0);
        // The same bundle, resealed for a base whose last nonzero is pruned: 9 nonzeros, a gap of 9.
        auto fewer = old;
        fewer[0].values[180] = 0.0f;
        const auto other = deviceFile(fewer, 1);
        uint8_t baseHash[32], otherHash[32];
        dpu_sha256_buf(base.data(), base.size(), baseHash);
        dpu_sha256_buf(other.data(), other.size(), otherHash);
        std::vector<uint8_t> b = out.bytes;
        const auto at = std::search(b.begin(), b.end(), baseHash, baseHash + 32);
        QVERIFY(at != b.end());
        std::copy(otherHash, otherHash + 32, at);
        reseal(b);
        const auto r = BundleApplier::apply(b, other, o);
        QCOMPARE(r.status, int(DPU_E_POSITION));
        QVERIFY2(QString::fromStdString(r.message).contains(QStringLiteral("nonzeros")), r.message.c_str());
        QVERIFY(r.file.empty());
    }

    /// Sections with their gaps among the nonzeros under payload mutations with recomputed
    /// digests (the nonzero search crosses the decoder's chunks): rejected or harmless.
    void resealedMutationsAmongTheNonzeros()
    {
        std::vector<TensorData> old = {{"w", {40, 30}, {}}, {"b", {30}, {}}};
        std::mt19937 rng(11);
        fillNormal(old, rng, 0.05f);
        std::vector<std::vector<uint8_t>> masks = {std::vector<uint8_t>(1200, 0), {}};
        for (size_t i = 0; i < 1200; ++i) {
            if (rng() % 3 == 0)
                old[0].values[i] = 0.0f;
            else if (rng() % 4 == 0)
                masks[0][i] = 1;
        }
        const auto base = deviceFile(old, 1);
        for (ValueCoding coding : {ValueCoding::Fp32, ValueCoding::Q8}) {
            const BundleOutput out = BundleWriter::write(deltaInput(base, roundLike(old, masks, 12), masks, coding, 2));
            QVERIFY(BundleInspector::inspect(out.bytes, &base).find("among the nonzeros") != std::string::npos);
            const auto [secOff, secLen] = sectionSpans(out.bytes).at(1);
            mutateResealed(out, base, secOff, std::min<uint64_t>(secLen, 400), {0x01u, 0x20u, 0x80u, 0xffu});
        }
    }

    void resealedPayloadMutationsNeverCrash()
    {
        // Digests recomputed after each mutation, as a hostile lab signer could: the payload
        // decoders themselves must then reject (or, at worst, the target hash does), never crash.
        for (int coding = 1; coding <= 3; ++coding) {
            const Fixture f = smallBundle(ValueCoding(coding), {});
            const std::vector<uint8_t>& good = f.out.bytes;
            const uint64_t entry0 = 16 + DPU_MANIFEST_FIXED_SIZE + 4 + 8;
            const auto [secOff, secLen] = sectionSpans(good).at(1);
            QCOMPARE(good[entry0] & 3, int(DPU_MODE_SPARSE));
            mutateResealed(f.out, f.base, secOff, secLen, {0x01u, 0x10u, 0x80u, 0xffu});
        }
    }

    void resealedMutationsOfCompactForms()
    {
        // Format 2's fp32 direct words and binary16 q8 tables (more than 256 distinct values)
        // under payload mutations with recomputed digests: rejected or harmless, never a crash.
        std::vector<TensorData> old = {{"w", {24, 16}, {}}, {"b", {16}, {}}};
        std::mt19937 rng(4);
        fillNormal(old, rng, 0.01f);
        const auto masks = randomMasks(old, 0.8, 5);
        const auto base = deviceFile(old, 1);
        for (ValueCoding coding : {ValueCoding::Fp32, ValueCoding::Q8}) {
            const BundleOutput out = BundleWriter::write(deltaInput(base, roundLike(old, masks, 6), masks, coding, 2));
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            QVERIFY2(text.find(coding == ValueCoding::Fp32 ? "direct" : "f16 centroids") != std::string::npos,
                     text.c_str());
            const std::vector<uint8_t>& good = out.bytes;
            const auto [secOff, secLen] = sectionSpans(good).at(1);
            mutateResealed(out, base, secOff, std::min<uint64_t>(secLen, 600), {0x01u, 0x10u, 0x80u, 0xffu});
        }
    }

    void resealedHeaderEditMutations()
    {
        // Section H as an edit of the base header (u64 length, prefix, suffix, then the literal):
        // any mutation, digests recomputed, is rejected or, at worst, caught by the target hash.
        for (int coding = 1; coding <= 3; ++coding) {
            const Fixture f = smallBundle(ValueCoding(coding), {});
            const std::vector<uint8_t>& good = f.out.bytes;
            QCOMPARE(le(good, 16 + 116, 4), uint64_t(DPU_HEADER_BASE_EDIT));
            const uint64_t hOff = le(good, 16 + 120, 8), hLen = le(good, 16 + 128, 8);
            for (uint64_t i = hOff; i < hOff + hLen; ++i)
                for (unsigned x : {0x01u, 0x02u, 0x10u, 0x80u, 0xffu}) {
                    std::vector<uint8_t> b = good;
                    b[i] ^= uint8_t(x);
                    reseal(b);
                    const auto r = BundleApplier::apply(b, f.base, {});
                    QVERIFY(r.status != 0 || r.file == f.out.targetFile);
                    QVERIFY(r.status == 0 || r.file.empty());
                }
        }
    }

    void resealedTableMutationsRejectedOrHarmless()
    {
        // The compact tensor table (varints) with digests recomputed after each change: every
        // bit flip and inversion of every table byte, for delta and reinit bundles.
        for (Kind kind : {Kind::Delta, Kind::ReinitDelta}) {
            const Fixture f = smallBundle(ValueCoding::Q8, {}, kind);
            const std::vector<uint8_t>& good = f.out.bytes;
            const uint64_t table = 16 + DPU_MANIFEST_FIXED_SIZE + good[16 + 168] + good[16 + 169];
            const uint64_t end = 16 + le(good, 8, 4);
            QVERIFY(end > table + 4);
            for (uint64_t i = table; i < end; ++i)
                for (unsigned x : {0x01u, 0x02u, 0x04u, 0x08u, 0x10u, 0x20u, 0x40u, 0x80u, 0xffu}) {
                    std::vector<uint8_t> b = good;
                    b[i] ^= uint8_t(x);
                    try {
                        reseal(b);
                    } catch (const std::exception&) { // spans outside the bundle: manifest digest only
                        const uint64_t m = le(b, 8, 4);
                        dpu_sha256_buf(b.data(), 16 + m, b.data() + 16 + m);
                    }
                    const auto r = BundleApplier::apply(b, f.base, {});
                    QVERIFY(r.status != 0 || r.file == f.out.targetFile);
                    QVERIFY(r.status == 0 || r.file.empty());
                }
        }
    }

    void resealedDenseStreamMutations()
    {
        // The shared dense stream (flags, tables, plane symbols), digests recomputed after each
        // change, for XOR (delta) and direct (reinit) streams: rejected or harmless, never a crash.
        for (Kind kind : {Kind::Delta, Kind::ReinitDelta}) {
            const Fixture f = denseStreamBundle(kind);
            const BundleOutput& out = f.out;
            const std::vector<uint8_t> devBase = kind == Kind::Delta ? f.base : std::vector<uint8_t>{};
            const auto spans = sectionSpans(out.bytes);
            const auto [off, len] = spans.at(2); // bn0: the first pooled tensor carries the stream
            QVERIFY2(len > 0 && spans.at(3).second == 0, BundleInspector::inspect(out.bytes).c_str());
            const std::string text = BundleInspector::inspect(out.bytes, &f.base);
            QVERIFY2(text.find("  bn0 [64]") != std::string::npos &&
                         text.find("shared dense stream (here: ") != std::string::npos,
                     text.c_str());
            for (uint64_t i = off; i < off + len; ++i)
                for (unsigned x : {0x01u, 0x10u, 0x80u, 0xffu}) {
                    std::vector<uint8_t> b = out.bytes;
                    b[i] ^= uint8_t(x);
                    reseal(b);
                    const auto r = BundleApplier::apply(b, devBase, {});
                    QVERIFY(r.status != 0 || r.file == out.targetFile);
                    QVERIFY(r.status == 0 || r.file.empty());
                    if (i == off && x == 0x10u) // the DIRECT flag flipped
                        QCOMPARE(r.status, kind == Kind::Delta ? int(DPU_E_TARGET_HASH) : int(DPU_E_PLANES));
                }
        }
    }

    /// The shared dense stream's flags byte has two faults with their own text: a bit that is no
    /// plane and not DIRECT, and XOR words outside a delta. A delta may XOR, so an unknown bit in
    /// a delta's stream must not read "XOR needs a base".
    void denseStreamFlagFaultsNamed()
    {
        for (Kind kind : {Kind::Delta, Kind::ReinitDelta}) {
            const Fixture f = denseStreamBundle(kind);
            const BundleOutput& out = f.out;
            const std::vector<uint8_t> devBase = kind == Kind::Delta ? f.base : std::vector<uint8_t>{};
            const uint64_t flags = sectionSpans(out.bytes).at(2).first; // entry 1, bn0, carries the stream
            QCOMPARE(bool(out.bytes[flags] & DPU_SPARSE_DIRECT), kind == Kind::ReinitDelta);
            for (unsigned bit : {0x20u, 0x40u, 0x80u}) {
                std::vector<uint8_t> b = out.bytes;
                b[flags] ^= uint8_t(bit);
                reseal(b);
                const auto r = BundleApplier::apply(b, devBase, {});
                QCOMPARE(r.status, int(DPU_E_PLANES));
                QVERIFY2(r.message.find("unknown bits") != std::string::npos &&
                             r.message.find("XOR") == std::string::npos &&
                             r.message.find("(tensor 1)") != std::string::npos,
                         r.message.c_str());
            }
            if (kind == Kind::ReinitDelta) { // DIRECT cleared: XOR words with no base to XOR with
                std::vector<uint8_t> b = out.bytes;
                b[flags] ^= uint8_t(DPU_SPARSE_DIRECT);
                reseal(b);
                const auto r = BundleApplier::apply(b, devBase, {});
                QCOMPARE(r.status, int(DPU_E_PLANES));
                QVERIFY2(r.message.find("XOR words without a base") != std::string::npos, r.message.c_str());
            }
        }
    }

    /// The produced file's "dpu.update_version" must be the manifest's update version: a device
    /// reads its current version (the rollback check of the next bundle) from that file. A bundle
    /// whose manifest names another version, resealed, is refused by name before anything is
    /// written, with section H verbatim (reinit+delta) and as an edit of the base header (delta);
    /// so is a header whose entry is missing or no decimal number.
    void updateVersionOfTheProducedFileChecked()
    {
        for (Kind kind : {Kind::Delta, Kind::ReinitDelta}) {
            const Fixture f = smallBundle(ValueCoding::Fp32, {}, kind);
            const std::vector<uint8_t> base = kind == Kind::Delta ? f.base : std::vector<uint8_t>{};
            QCOMPARE(le(f.out.bytes, 16 + 116, 4),
                     uint64_t(kind == Kind::Delta ? DPU_HEADER_BASE_EDIT : DPU_HEADER_VERBATIM));
            QCOMPARE(le(f.out.bytes, 16 + 8, 8), uint64_t(2));
            BundleApplier::Options o;
            o.currentVersion = 1;
            QCOMPARE(BundleApplier::apply(f.out.bytes, base, o).status, 0);
            for (uint64_t v : {uint64_t(3), uint64_t(20), uint64_t(1) << 40, ~uint64_t(0)}) {
                std::vector<uint8_t> b = f.out.bytes;
                for (int k = 0; k < 8; ++k)
                    b[16 + 8 + size_t(k)] = uint8_t(v >> (8 * k));
                reseal(b);
                const auto r = BundleApplier::apply(b, base, o);
                QCOMPARE(r.status, int(DPU_E_UPDATE_VERSION));
                QVERIFY2(r.message.find("dpu.update_version of the produced header") != std::string::npos,
                         r.message.c_str());
                QVERIFY(r.file.empty());
            }
        }
        // Section H verbatim, its metadata entry changed at equal length.
        const Fixture f = smallBundle(ValueCoding::Fp32, {}, Kind::ReinitDelta);
        const std::string key = "\"dpu.update_version\":\"2\"";
        const auto at = std::search(f.out.bytes.begin(), f.out.bytes.end(), key.begin(), key.end());
        QVERIFY(at != f.out.bytes.end());
        const size_t digit = size_t(at - f.out.bytes.begin()) + key.size() - 2;
        const std::pair<size_t, char> edits[] = {{digit, '3'},       // another version
                                                 {digit, 'x'},       // no decimal number
                                                 {digit - 4, 'N'}};  // "dpu.update_versioN": no entry
        for (const auto& [pos, c] : edits) {
            std::vector<uint8_t> b = f.out.bytes;
            b[pos] = uint8_t(c);
            reseal(b);
            const auto r = BundleApplier::apply(b, {}, {});
            QCOMPARE(r.status, int(DPU_E_UPDATE_VERSION));
            QVERIFY2(r.message.find("dpu.update_version") != std::string::npos, r.message.c_str());
        }
    }

    void hostileVarintsNamed()
    {
        // Hand-made table entries, resealed: each is refused with its own status.
        const Fixture f = smallBundle(ValueCoding::Fp32, {});
        const std::vector<uint8_t>& good = f.out.bytes;
        const uint64_t table = 16 + DPU_MANIFEST_FIXED_SIZE + good[16 + 168] + good[16 + 169];
        QCOMPARE(good[table] & 3, int(DPU_MODE_SPARSE));
        QCOMPARE(good[table + 1], uint8_t(32)); // numel of the 4x8 tensor, one byte
        // Rebuilds the bundle with entry 0's numel varint replaced (manifest length adjusted).
        auto withNumel = [&](const std::vector<uint8_t>& numel) {
            std::vector<uint8_t> b(good.begin(), good.begin() + std::ptrdiff_t(table + 1));
            b.insert(b.end(), numel.begin(), numel.end());
            b.insert(b.end(), good.begin() + std::ptrdiff_t(table + 2), good.end());
            const int64_t grow = int64_t(numel.size()) - 1;
            const uint64_t m = le(good, 8, 4) + uint64_t(grow);
            for (int k = 0; k < 4; ++k)
                b[8 + size_t(k)] = uint8_t(m >> (8 * k));
            const uint64_t sOff = le(good, 16 + 120, 8) + uint64_t(grow);
            for (int k = 0; k < 8; ++k)
                b[16 + 120 + size_t(k)] = uint8_t(sOff >> (8 * k));
            reseal(b);
            return BundleApplier::apply(b, f.base, {});
        };
        QCOMPARE(withNumel({32}).status, 0); // the rebuild itself is faithful
        QCOMPARE(withNumel({0xa0, 0x00}).status, int(DPU_E_TENSOR_ENTRY));      // overlong 32
        QCOMPARE(withNumel({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}).status,
                 int(DPU_E_TENSOR_ENTRY));                                       // 11 bytes
        QCOMPARE(withNumel({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20}).status,
                 int(DPU_E_TENSOR_SHAPE));                                       // 2^61
        QCOMPARE(withNumel({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}).status,
                 int(DPU_E_TENSOR_ENTRY));                                       // above 2^64
        QCOMPARE(withNumel({33}).status, int(DPU_E_TENSOR_LAYOUT));             // sizes disagree
        std::vector<uint8_t> reserved = good;
        reserved[table] |= 0x40;
        reseal(reserved);
        QCOMPARE(BundleApplier::apply(reserved, f.base, {}).status, int(DPU_E_TENSOR_ENTRY));
    }

    void everyTruncationRejected()
    {
        for (int coding = 1; coding <= 3; ++coding) {
            const Fixture f = smallBundle(ValueCoding(coding), {});
            for (size_t n = 0; n < f.out.bytes.size(); ++n) {
                const std::vector<uint8_t> b(f.out.bytes.begin(), f.out.bytes.begin() + std::ptrdiff_t(n));
                QVERIFY(BundleApplier::apply(b, f.base, {}).status != 0);
            }
            std::vector<uint8_t> longer = f.out.bytes;
            longer.push_back(0);
            QCOMPARE(BundleApplier::apply(longer, f.base, {}).status, int(DPU_E_SECTION_LAYOUT));
        }
    }

    void wrongBaseKeyVersionCompat()
    {
        std::vector<uint8_t> sk, pk, sk2, pk2;
        BundleWriter::generateKeyPair(sk, pk);
        BundleWriter::generateKeyPair(sk2, pk2);
        const Fixture f = smallBundle(ValueCoding::Q8, sk);
        BundleApplier::Options o;
        o.publicKey = pk;
        o.currentVersion = 1;
        QCOMPARE(BundleApplier::apply(f.out.bytes, f.base, o).status, 0);

        std::vector<uint8_t> otherBase = f.base;
        otherBase.back() ^= 1;
        QCOMPARE(BundleApplier::apply(f.out.bytes, otherBase, o).status, int(DPU_E_BASE_HASH));
        otherBase.push_back(0);
        QCOMPARE(BundleApplier::apply(f.out.bytes, otherBase, o).status, int(DPU_E_BASE_SIZE));

        BundleApplier::Options wrongKey = o;
        wrongKey.publicKey = pk2;
        const auto r = BundleApplier::apply(f.out.bytes, f.base, wrongKey);
        QCOMPARE(r.status, int(DPU_E_SIGNATURE));
        QVERIFY(r.message.find("signature") != std::string::npos);

        const Fixture unsignedBundle = smallBundle(ValueCoding::Q8, {});
        QCOMPARE(BundleApplier::apply(unsignedBundle.out.bytes, f.base, o).status, int(DPU_E_UNSIGNED));

        for (uint64_t current : {2, 3, 1000}) { // same version (replay) or older bundle
            BundleApplier::Options replay = o;
            replay.currentVersion = current;
            QCOMPARE(BundleApplier::apply(f.out.bytes, f.base, replay).status, int(DPU_E_ROLLBACK));
        }
        BundleApplier::Options compat = o;
        compat.checkCompat = true;
        compat.compat = "compat-1";
        QCOMPARE(BundleApplier::apply(f.out.bytes, f.base, compat).status, 0);
        compat.compat = "compat-2";
        QCOMPARE(BundleApplier::apply(f.out.bytes, f.base, compat).status, int(DPU_E_COMPAT));
    }

    // The library formats nothing: an error comes back as status, a static "what", the tensor
    // and the bundle offset, here the byte after a sparse section's 10-byte header.
    void errorNamesFieldTensorAndOffset()
    {
        const Fixture f = smallBundle(ValueCoding::Fp32, {});
        std::vector<uint8_t> bad = f.out.bytes;
        const auto spans = sectionSpans(bad);
        const uint64_t entry0 = 16 + DPU_MANIFEST_FIXED_SIZE + bad.at(16 + 168) + bad.at(16 + 169);
        QCOMPARE(bad.at(entry0) & 3, int(DPU_MODE_SPARSE)); // tensor 0 ("w") travels sparse
        const uint64_t sec = spans[1].first;
        bad.at(sec + 8) = 32; // Golomb-Rice parameter above 31
        reseal(bad);
        auto rd = [](void* u, uint64_t off, uint8_t* buf, size_t len) -> int {
            const auto* v = static_cast<const std::vector<uint8_t>*>(u);
            if (off > v->size() || len > v->size() - off)
                return -1;
            std::memcpy(buf, v->data() + off, len);
            return 0;
        };
        auto wr = [](void*, const uint8_t*, size_t) -> int { return 0; };
        dpu_apply_io io{};
        io.read_bundle = rd;
        io.bundle_user = &bad;
        io.bundle_size = bad.size();
        io.read_base = rd;
        io.base_user = const_cast<std::vector<uint8_t>*>(&f.base);
        io.base_size = f.base.size();
        io.write_target = wr;
        dpu_apply_options opt{};
        dpu_apply_ctx ctx;
        QCOMPARE(dpu_apply_init(&ctx), DPU_OK);
        QCOMPARE(dpu_bundle_verify(&ctx, &io, &opt), DPU_OK); // payload bits are not read yet
        QCOMPARE(dpu_bundle_apply(&ctx, &io, &opt), DPU_E_RICE_PARAM);
        dpu_apply_error e{};
        QCOMPARE(dpu_apply_last_error(&ctx, &e), DPU_OK);
        QCOMPARE(e.status, DPU_E_RICE_PARAM);
        QCOMPARE(std::string(e.what), std::string("rice parameter"));
        QCOMPARE(e.tensor, uint64_t(0));
        QCOMPARE(e.offset, sec + 10);
        // a changed manifest byte points at the stored digest it fails against
        std::vector<uint8_t> entry = f.out.bytes;
        QVERIFY(dpu_apply_init(&ctx) == DPU_OK);
        io.bundle_user = &entry;
        entry.at(16 + 4) ^= 1; // tensor count, digest not recomputed
        QCOMPARE(dpu_bundle_verify(&ctx, &io, &opt), DPU_E_MANIFEST_DIGEST);
        QCOMPARE(dpu_apply_last_error(&ctx, &e), DPU_OK);
        QCOMPARE(e.tensor, DPU_NO_TENSOR);
        QCOMPARE(e.offset, uint64_t(16 + (bad.at(8) | bad.at(9) << 8))); // the stored digest
        const auto message = BundleApplier::apply(bad, f.base, {}).message;
        QVERIFY2(message.find("Golomb-Rice parameter out of range: rice parameter (tensor 0) at bundle byte " +
                              std::to_string(sec + 10)) != std::string::npos, message.c_str());
    }

    void terminalErrorState()
    {
        const Fixture f = smallBundle(ValueCoding::Fp32, {});
        std::vector<uint8_t> bad = f.out.bytes;
        bad[0] = 'X';
        dpu_apply_ctx ctx;
        dpu_apply_init(&ctx);
        struct Mem { const std::vector<uint8_t>* v; };
        auto rd = [](void* u, uint64_t off, uint8_t* buf, size_t len) -> int {
            const auto* v = static_cast<const std::vector<uint8_t>*>(u);
            if (off + len > v->size())
                return -1;
            std::memcpy(buf, v->data() + off, len);
            return 0;
        };
        dpu_apply_io io{};
        io.read_bundle = rd;
        io.bundle_user = &bad;
        io.bundle_size = bad.size();
        dpu_apply_options opt{};
        QCOMPARE(dpu_bundle_verify(&ctx, &io, &opt), DPU_E_MAGIC);
        dpu_apply_error e{};
        QCOMPARE(dpu_apply_last_error(&ctx, &e), DPU_OK);
        QCOMPARE(e.status, DPU_E_MAGIC);
        QCOMPARE(std::string(e.what), std::string("magic"));
        QCOMPARE(e.tensor, DPU_NO_TENSOR);
        QCOMPARE(e.offset, uint64_t(0)); // the preamble
        uint64_t consumed = 0, written = 1;
        QCOMPARE(dpu_apply_progress(&ctx, &consumed, &written), DPU_OK);
        QCOMPARE(consumed, uint64_t(DPU_BUNDLE_PREAMBLE_SIZE));
        QCOMPARE(written, uint64_t(0));
        io.bundle_user = const_cast<std::vector<uint8_t>*>(&f.out.bytes); // even with good input
        QCOMPARE(dpu_bundle_verify(&ctx, &io, &opt), DPU_E_MAGIC);
        QCOMPARE(dpu_bundle_apply(&ctx, &io, &opt), DPU_E_MAGIC);
        for (int s = 0; s < DPU_E_STATUS_COUNT; ++s) // every status has its own message
            for (int t = 0; t < s; ++t)
                QVERIFY(std::string(dpu_status_message(dpu_status(s))) != dpu_status_message(dpu_status(t)));
        dpu_apply_ctx fresh{}; // never initialised
        QCOMPARE(dpu_bundle_verify(&fresh, &io, &opt), DPU_E_STATE);
        QCOMPARE(dpu_apply_last_error(&fresh, &e), DPU_E_STATE);
        QCOMPARE(dpu_apply_init(nullptr), DPU_E_ARGUMENT);
        QCOMPARE(dpu_apply_last_error(&ctx, nullptr), DPU_E_ARGUMENT);
        QCOMPARE(dpu_apply_info(nullptr, nullptr), DPU_E_ARGUMENT);
        // a clean context reports no error, and after a good verify the bundle's facts
        QCOMPARE(dpu_apply_init(&ctx), DPU_OK);
        QCOMPARE(dpu_apply_last_error(&ctx, &e), DPU_OK);
        QCOMPARE(e.status, DPU_OK);
        QCOMPARE(std::string(e.what), std::string());
        io.read_base = rd;
        io.base_user = const_cast<std::vector<uint8_t>*>(&f.base);
        io.base_size = f.base.size();
        QCOMPARE(dpu_bundle_verify(&ctx, &io, &opt), DPU_OK);
        dpu_bundle_info info{};
        QCOMPARE(dpu_apply_info(&ctx, &info), DPU_OK);
        QCOMPARE(info.kind, uint32_t(DPU_KIND_DELTA));
        QCOMPARE(info.target_size, uint64_t(f.out.targetFile.size()));
        QCOMPARE(dpu_apply_progress(&ctx, &consumed, nullptr), DPU_OK);
        QVERIFY(consumed >= f.out.bytes.size()); // every byte was read at least once
    }
};

QTEST_APPLESS_MAIN(TestBundleReject)
#include "test_bundle_reject.moc"
