// SPDX-License-Identifier: MIT
// Hostile input with valid digests: payload, header, table and dense-stream mutations of small valid bundles, resealed so that only the decoder's checks stand, are rejected with their fault named or are harmless.
#include "BundleRejectFixtures.h"
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>

using namespace dpu::bundle;
using namespace dpu::test;

class TestBundleReseal : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
};

QTEST_APPLESS_MAIN(TestBundleReseal)
#include "test_bundle_reseal.moc"
