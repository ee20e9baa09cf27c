// SPDX-License-Identifier: MIT
// Bundle format 5: I8 tensors of an INT8 deployed model round-trip through the writer and the C
// decoder, and hostile I8 entries and sections are rejected, never a crash.
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>

using namespace dpu::bundle;
using namespace dpu::test;

class TestBundleInt8 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void int8CopyDenseSparseRoundTrip()
    {
        // An INT8 deployed model (format 5): I8 weight codes with F32 scales. Every I8 mode and
        // word form, applied by the C decoder to exactly the writer's file; unmasked codes kept.
        const struct {
            const char* shape;
            double k;
            bool small;
            const char* form; // what the inspector shows for the first weight
        } cases[] = {{"mlp", 0.01, true, "I8 sparse i8"}, {"mlp", 0.01, true, ", diff huffman"},
                     {"conv", 0.2, false, ", codes"}, {"conv", 0.0, false, "I8 copy"},
                     {"mlp", 1.0, false, "I8 dense"}};
        for (const auto& c : cases) {
            const auto old = int8State(c.shape, 3);
            const auto base = deviceFile(old, 1);
            const auto masks = randomMasks(old, c.k, 4);
            const auto next = int8Round(old, masks, 5, c.small);
            const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Fp32, 2));
            QCOMPARE(int(out.bytes[4]), 5); // an I8 tensor: format 5
            BundleApplier::Options o;
            o.currentVersion = 1;
            const auto r = BundleApplier::apply(out.bytes, base, o);
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == out.targetFile);
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            const std::string line = text.substr(text.find(old[0].name + " ["));
            QVERIFY2(line.substr(0, line.find('\n')).find(c.form) != std::string::npos, text.c_str());
            const auto read = SafetensorsFile::read(r.file);
            for (size_t t = 0; t < old.size(); ++t) {
                QCOMPARE(int(read[t].dtype), int(old[t].dtype));
                QVERIFY(read[t].codes == out.applied[t].codes);
                for (size_t i = 0; i < old[t].codes.size(); ++i)
                    QCOMPARE(out.applied[t].codes[i], masks[t][i] ? next[t].codes[i] : old[t].codes[i]);
            }
        }
        // Unmasked I8 tensors (always shipped) travel as their changed codes, and F32-only
        // bundles keep their formats (3, and 4 with cq), byte for byte what older writers made.
        auto old = int8State("tiny", 6);
        const auto base = deviceFile(old, 1);
        auto next = old;
        next[0].codes[3] = int8_t(next[0].codes[3] + 1);
        const BundleOutput shipped = BundleWriter::write(deltaInput(base, next, {{}, {}, {}}, ValueCoding::Fp32, 2));
        QVERIFY(BundleApplier::apply(shipped.bytes, base, {}).file == shipped.targetFile);
        QVERIFY(SafetensorsFile::read(shipped.targetFile)[0].codes == next[0].codes);
        const auto f32 = modelState("mlp", 6); // q8c needs more than 256 distinct values to take cq
        const auto f32Base = deviceFile(f32, 1);
        const auto f32Masks = randomMasks(f32, 0.05, 7);
        for (ValueCoding coding : {ValueCoding::Fp32, ValueCoding::Q8c})
            QCOMPARE(int(BundleWriter::write(deltaInput(f32Base, roundLike(f32, f32Masks, 8), f32Masks, coding, 2)).bytes[4]),
                     coding == ValueCoding::Q8c ? 4 : 3);
    }

    void int8NonzeroFullAndReinit()
    {
        // A sparse INT8 model: changes only on nonzero codes take gaps among the nonzeros.
        const auto old = int8State("mlp", 9, 0.5);
        const auto base = deviceFile(old, 1);
        auto masks = randomMasks(old, 0.1, 10);
        for (size_t t = 0; t < old.size(); ++t)
            for (size_t i = 0; i < masks[t].size(); ++i)
                masks[t][i] = masks[t][i] && old[t].codes[i] != 0;
        const BundleOutput out = BundleWriter::write(deltaInput(base, int8Round(old, masks, 11, true), masks, ValueCoding::Fp32, 2));
        QVERIFY2(BundleInspector::inspect(out.bytes, &base).find("among the nonzeros") != std::string::npos,
                 BundleInspector::inspect(out.bytes, &base).c_str());
        BundleApplier::Options o;
        o.currentVersion = 1;
        auto r = BundleApplier::apply(out.bytes, base, o);
        QVERIFY2(r.status == 0, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
        // Full and reinit+delta bundles carry I8 tensors as dense codes (no seeded int8 model).
        BundleInput in = deltaInput(base, int8Round(old, masks, 12, false), masks, ValueCoding::Q8, 2);
        makeReinit(in, old, 77);
        for (Kind kind : {Kind::ReinitDelta, Kind::Full}) {
            in.kind = kind;
            const BundleOutput fresh = BundleWriter::write(in);
            r = BundleApplier::apply(fresh.bytes, {}, {});
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == fresh.targetFile);
            QVERIFY(SafetensorsFile::read(r.file)[0].codes == in.target[0].codes);
            QVERIFY(BundleInspector::inspect(fresh.bytes).find("I8 dense") != std::string::npos);
        }
    }

    void int8EntriesRefuseFloatCodings()
    {
        // Format 5: an I8 tensor never takes a float coding, an init rule or the shared dense
        // stream, coding i8 is for I8 tensors only, and formats 3 and 4 reserve the dtype bit.
        const auto old = int8State("tiny", 1);
        const auto base = deviceFile(old, 1);
        const auto masks = randomMasks(old, 0.4, 3);
        const BundleOutput out = BundleWriter::write(deltaInput(base, int8Round(old, masks, 4, false), masks, ValueCoding::Fp32, 2));
        const uint64_t entry0 = 16 + DPU_MANIFEST_FIXED_SIZE + 4 + 8; // model "test", compat "compat-1"
        const unsigned i8Sparse = DPU_ENTRY_DTYPE_I8 | DPU_ENTRY_CODING_HIGH | 1u << 2 | DPU_MODE_SPARSE;
        QCOMPARE(unsigned(out.bytes[entry0]), i8Sparse);
        auto status = [&](unsigned flags, uint8_t version) { // the sections stay: only the manifest's digest changes
            std::vector<uint8_t> b = out.bytes;
            b[4] = version;
            b[entry0] = uint8_t(flags);
            dpu_sha256_buf(b.data(), 16 + le(b, 8, 4), b.data() + 16 + le(b, 8, 4));
            return BundleApplier::apply(b, base, {}).status;
        };
        QCOMPARE(status(i8Sparse, 5), 0);
        for (unsigned coding = 1; coding <= 4; ++coding) // fp32, fp16, q8, cq
            QCOMPARE(status(DPU_ENTRY_DTYPE_I8 | (coding & 3u) << 2 | (coding & 4u ? DPU_ENTRY_CODING_HIGH : 0u) |
                                DPU_MODE_SPARSE, 5),
                     int(DPU_E_TENSOR_MODE));
        QCOMPARE(status(i8Sparse | 1u << 4, 5), int(DPU_E_TENSOR_MODE));                     // init rule uniform
        QCOMPARE(status(i8Sparse | DPU_MODE_INIT_SPARSE, 5), int(DPU_E_TENSOR_MODE));        // init+sparse
        QCOMPARE(status(DPU_ENTRY_DTYPE_I8 | 1u << 2 | DPU_MODE_DENSE, 5), int(DPU_E_TENSOR_MODE)); // pooled
        QCOMPARE(status(i8Sparse & ~DPU_ENTRY_DTYPE_I8, 5), int(DPU_E_TENSOR_MODE));         // i8 on F32
        QCOMPARE(status(i8Sparse, 4), int(DPU_E_TENSOR_ENTRY));
        QCOMPARE(status(i8Sparse, 3), int(DPU_E_TENSOR_ENTRY));
        QCOMPARE(status(i8Sparse, 6), int(DPU_E_FORMAT_VERSION));
        // Section flags: a second plane, DIRECT's neighbours and the reserved bits are DPU_E_PLANES.
        const auto [off, len] = sectionSpans(out.bytes).at(1);
        QVERIFY(len > 10);
        for (unsigned bit : {0x02u, 0x40u, 0x80u}) {
            std::vector<uint8_t> b = out.bytes;
            b[off + 9] = uint8_t(b[off + 9] | bit);
            reseal(b);
            QCOMPARE(BundleApplier::apply(b, base, {}).status, int(DPU_E_PLANES));
        }
    }

    void int8SectionsTruncatedOrMutatedNeverCrash()
    {
        // Raw codes (tiny, unrelated new codes) and Huffman-coded differences among the nonzeros of
        // a sparse model (conv, small moves): every bit pattern of every I8 section, resealed, is
        // rejected or gives the target; every truncation of the bundle is rejected.
        for (const char* shape : {"tiny", "conv"}) {
            const bool conv = std::string(shape) == "conv";
            const auto old = int8State(shape, 5, conv ? 0.3 : 0.0);
            const auto base = deviceFile(old, 1);
            auto masks = randomMasks(old, 0.2, 6);
            for (size_t t = 0; t < old.size(); ++t)
                for (size_t i = 0; i < masks[t].size(); ++i)
                    masks[t][i] = masks[t][i] && old[t].codes[i] != 0;
            const BundleOutput out = BundleWriter::write(deltaInput(base, int8Round(old, masks, 7, conv), masks, ValueCoding::Fp32, 2));
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            QVERIFY2(text.find(conv ? "diff huffman" : "codes raw") != std::string::npos, text.c_str());
            QVERIFY2(!conv || text.find("among the nonzeros") != std::string::npos, text.c_str());
            const auto spans = sectionSpans(out.bytes);
            for (size_t t = 0; t < old.size(); ++t)
                if (old[t].dtype == DType::I8)
                    mutateResealed(out, base, spans[t + 1].first, spans[t + 1].second, {0x01, 0x10, 0x20, 0x80, 0xff});
            if (conv)
                continue;
            for (size_t n = 0; n < out.bytes.size(); ++n) {
                const std::vector<uint8_t> b(out.bytes.begin(), out.bytes.begin() + std::ptrdiff_t(n));
                QVERIFY(BundleApplier::apply(b, base, {}).status != 0);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestBundleInt8)
#include "test_bundle_int8.moc"
