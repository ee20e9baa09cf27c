// SPDX-License-Identifier: MIT
// Format 4's cq sections (q8c, q4, ternary): the arithmetic coder round trip, writer output applied
// by the device code byte for byte, q8c's error within q8's at fewer bytes, and hostile sections
// (truncations, bad header fields, streams too short or too long) refused with their status.
#include "BundleTestUtil.h"
#include "bundle/ArithEncoder.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "bundle/CqEncoder.h"
#include "dpu_bundle.h"
#include "dpu_cq.h"

#include <QtTest/QtTest>
#include <cmath>
#include <cstring>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

int readVec(void* user, uint64_t off, uint8_t* buf, size_t len)
{
    const auto* v = static_cast<const std::vector<uint8_t>*>(user);
    if (off > v->size() || len > v->size() - off)
        return -1;
    std::memcpy(buf, v->data() + off, len);
    return 0;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

// A DPU-like round: more than 256 changes per partial tensor (so q8 is lossy), every bias moved.
struct Round {
    std::vector<TensorData> old, next;
    std::vector<std::vector<uint8_t>> masks;
    std::vector<uint8_t> base;
};

Round dpuRound(uint32_t seed, double k = 0.05)
{
    Round r;
    r.old = {{"fc1.weight", {64, 96}, {}}, {"fc1.bias", {64}, {}}, {"fc2.weight", {10, 64}, {}}, {"fc2.bias", {10}, {}}};
    std::mt19937 rng(seed);
    fillNormal(r.old, rng, 0.05f);
    r.masks = randomMasks(r.old, k, seed + 1);
    r.masks[2] = randomMasks(r.old, 0.5, seed + 2)[2];
    r.next = roundLike(r.old, r.masks, seed + 3);
    r.base = deviceFile(r.old, 1);
    return r;
}

uint16_t formatVersion(const std::vector<uint8_t>& b) { return uint16_t(b.at(4) | b.at(5) << 8); }

double changedSquaredError(const BundleOutput& out, const Round& r, bool partialOnly)
{
    double se = 0;
    for (size_t t = 0; t < r.old.size(); ++t)
        for (size_t i = 0; i < r.old[t].values.size(); ++i)
            if (!sameBits(r.old[t].values[i], r.next[t].values[i]) && (!partialOnly || !r.masks[t].empty())) {
                const double d = double(out.applied[t].values[i]) - double(r.next[t].values[i]);
                se += d * d;
            }
    return se;
}

// The offset of tensor 0's section and the bundle with `edit` applied to it, digests recomputed.
std::vector<uint8_t> editSection(const std::vector<uint8_t>& good, size_t at, uint8_t value)
{
    std::vector<uint8_t> b = good;
    b.at(sectionSpans(good).at(1).first + at) = value;
    reseal(b);
    return b;
}

} // namespace

class TestBundleCq : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void arithmeticCoderRoundTrip()
    {
        // Skewed, balanced and switching sources under several count limits: the C decoder reads
        // back every bit and exactly the encoder's bytes (no more: the section must end there).
        std::mt19937 rng(1);
        for (unsigned limit : {2u, 8u, 14u})
            for (double p : {0.001, 0.02, 0.5, 0.97}) {
                std::bernoulli_distribution bd(p), flip(0.5);
                std::vector<unsigned> bits(20000), ctx(bits.size());
                for (size_t i = 0; i < bits.size(); ++i) {
                    ctx[i] = unsigned(i % 3);
                    bits[i] = ctx[i] == 2 ? unsigned(flip(rng)) : unsigned(bd(rng));
                }
                ArithEncoder enc;
                dpu_arith_model em[3] = {}, dm[3] = {};
                double ideal = 0;
                for (size_t i = 0; i < bits.size(); ++i) {
                    ideal += ArithEncoder::cost(bits[i], em[ctx[i]]);
                    enc.encode(bits[i], em[ctx[i]], limit);
                }
                const std::vector<uint8_t> bytes = enc.finish();
                QVERIFY(8.0 * double(bytes.size()) < ideal + 40); // the flush costs four bytes
                dpu_bits b;
                dpu_bits_init(&b, readVec, const_cast<std::vector<uint8_t>*>(&bytes), 0, bytes.size());
                dpu_arith a;
                QCOMPARE(dpu_arith_start(&a, &b), DPU_OK);
                for (size_t i = 0; i < bits.size(); ++i)
                    QCOMPARE(dpu_arith_get(&a, &b, &dm[ctx[i]], limit), bits[i]);
                QCOMPARE(b.error, 0);
                QVERIFY(dpu_bits_at_clean_end(&b));
            }
    }

    void arithmeticDecoderRefusesImpossibleStarts()
    {
        // No encoder output starts with four 0xff bytes (the code value stays below 2^32 - 1);
        // fewer than four bytes cannot start at all.
        for (const std::vector<uint8_t>& bytes : {std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff, 0},
                                                  std::vector<uint8_t>{0, 0, 0}}) {
            dpu_bits b;
            dpu_bits_init(&b, readVec, const_cast<std::vector<uint8_t>*>(&bytes), 0, bytes.size());
            dpu_arith a;
            QCOMPARE(dpu_arith_start(&a, &b), DPU_E_ARITH);
        }
        dpu_arith_model m{16383, 0};
        QVERIFY(dpu_arith_p1(&m) >= 1 && dpu_arith_p1(&m) < 65536);
        m = {0, 16383};
        QVERIFY(dpu_arith_p1(&m) >= 1 && dpu_arith_p1(&m) < 65536);
    }

    void gridLevelsAreExact()
    {
        // step * i for every |i| with m * |i| < 2^24 is one exact float: no second rounding, so
        // any compiler (FMA contraction or not) gets the same value as the writer.
        for (unsigned m : {1u, 128u, 255u})
            for (unsigned x : {1u, 100u, 127u, 230u})
                for (uint32_t mag : {0u, 1u, 3u, 65535u, (1u << 24) / 255u - 1u}) {
                    if (uint64_t(m) * mag >= DPU_CQ_MAX_LEVEL)
                        continue;
                    const double exact = double(m) * double(mag) * std::ldexp(1.0, int(x) - 127);
                    QCOMPARE(double(dpu_cq_grid_level(m, x, mag, 0)), exact);
                    QCOMPARE(double(dpu_cq_grid_level(m, x, mag, 1)), -exact);
                }
        unsigned m = 0, x = 0;
        QVERIFY(CqEncoder::stepCode(0.00123, m, x));
        QVERIFY(m >= 128 && m <= 255);
        const double step = double(m) * std::ldexp(1.0, int(x) - 127);
        QVERIFY(step <= 0.00123 && step > 0.00123 * (1 - 1.0 / 128));
        QVERIFY(!CqEncoder::stepCode(0.0, m, x));
        QVERIFY(!CqEncoder::stepCode(1e300, m, x));
    }

    void cqCodingsRoundTrip()
    {
        // Every cq coding, delta and reinit, MLP- and CNN-shaped, sparse to dense masks: the
        // device's file equals the writer's, unchanged weights keep their source values, and
        // each coding's values are what it promises.
        for (ValueCoding coding : {ValueCoding::Q8c, ValueCoding::Q4, ValueCoding::Ternary})
            for (const char* shape : {"mlp", "conv"})
                for (double k : {0.002, 0.05, 0.6})
                    for (bool reinit : {false, true}) {
                        const auto old = modelState(shape, 3);
                        const auto base = deviceFile(old, 1);
                        const auto masks = randomMasks(old, k, 4);
                        const auto next = roundLike(old, masks, 5);
                        BundleInput in = deltaInput(base, next, masks, coding, 2);
                        if (reinit)
                            makeReinit(in, old, 77);
                        const BundleOutput out = BundleWriter::write(in);
                        BundleApplier::Options o;
                        o.currentVersion = 1;
                        const auto r = BundleApplier::apply(out.bytes, reinit ? std::vector<uint8_t>{} : base, o);
                        QVERIFY2(r.status == 0, r.message.c_str());
                        QVERIFY(r.file == out.targetFile);
                        for (size_t t = 0; t < old.size(); ++t) {
                            if (masks[t].empty())
                                continue;
                            const auto src = reinit ? BundleWriter::initialValues(old[t], in.init[t], 77) : old[t].values;
                            std::vector<float> levels;
                            for (size_t i = 0; i < src.size(); ++i) {
                                const float a = out.applied[t].values[i];
                                if (!masks[t][i]) {
                                    QVERIFY(sameBits(a, src[i]));
                                    continue;
                                }
                                if (coding == ValueCoding::Ternary && next[t].values[i] != src[i])
                                    QVERIFY((a < src[i]) == (next[t].values[i] < src[i])); // the change's sign
                                else if (coding == ValueCoding::Q4)
                                    levels.push_back(a);
                                QVERIFY(std::abs(a - next[t].values[i]) < 0.5f);
                            }
                            std::sort(levels.begin(), levels.end());
                            levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
                            if (coding == ValueCoding::Q4) // at most 16 distinct values
                                QVERIFY(levels.size() <= 16);
                        }
                    }
    }

    void q8cKeepsQ8sErrorInFewerBytes()
    {
        for (uint32_t seed : {1u, 2u, 3u}) {
            const Round r = dpuRound(seed);
            const BundleOutput q8 = BundleWriter::write(deltaInput(r.base, r.next, r.masks, ValueCoding::Q8, 2));
            const BundleOutput q8c = BundleWriter::write(deltaInput(r.base, r.next, r.masks, ValueCoding::Q8c, 2));
            const auto applied = BundleApplier::apply(q8c.bytes, r.base, {});
            QVERIFY2(applied.status == 0, applied.message.c_str());
            QVERIFY(applied.file == q8c.targetFile);
            QCOMPARE(formatVersion(q8.bytes), uint16_t(3)); // no cq section: format-3 devices apply it
            QCOMPARE(formatVersion(q8c.bytes), uint16_t(4));
            const double e8 = changedSquaredError(q8, r, true), e8c = changedSquaredError(q8c, r, true);
            QVERIFY2(e8 > 0 && e8c <= e8, qPrintable(QStringLiteral("q8 %1 q8c %2").arg(e8).arg(e8c)));
            QVERIFY2(q8c.bytes.size() < q8.bytes.size(),
                     qPrintable(QStringLiteral("q8 %1 q8c %2").arg(q8.bytes.size()).arg(q8c.bytes.size())));
            // the biases travel exactly unless asked otherwise
            for (size_t t : {size_t(1), size_t(3)})
                for (size_t i = 0; i < r.next[t].values.size(); ++i)
                    QVERIFY(sameBits(q8c.applied[t].values[i], r.next[t].values[i]));
            const std::string text = BundleInspector::inspect(q8c.bytes, &r.base);
            QVERIFY2(text.find("cq grid diff") != std::string::npos, text.c_str());
        }
    }

    void quantisedDenseTensorsShareTheBudget()
    {
        const Round r = dpuRound(4);
        BundleInput in = deltaInput(r.base, r.next, r.masks, ValueCoding::Q8c, 2);
        const BundleOutput exact = BundleWriter::write(in);
        const BundleOutput q8 = BundleWriter::write(deltaInput(r.base, r.next, r.masks, ValueCoding::Q8, 2));
        in.quantiseDense = true;
        const BundleOutput dense = BundleWriter::write(in);
        const auto applied = BundleApplier::apply(dense.bytes, r.base, {});
        QVERIFY2(applied.status == 0, applied.message.c_str());
        QVERIFY(applied.file == dense.targetFile);
        QVERIFY(dense.bytes.size() < exact.bytes.size());
        // the error over every changed value (biases included) stays within q8's on the weights
        QVERIFY(changedSquaredError(dense, r, false) <= changedSquaredError(q8, r, true));
        bool biasMoved = false;
        for (size_t i = 0; i < r.next[1].values.size(); ++i)
            biasMoved |= !sameBits(dense.applied[1].values[i], r.next[1].values[i]);
        QVERIFY(biasMoved);
    }

    void q8cIsExactWhereQ8Is()
    {
        // At most 256 changes per tensor: q8 holds them exactly, so q8c ships exact fp32 values.
        const auto old = modelState("tiny", 1);
        const auto base = deviceFile(old, 1);
        const auto masks = randomMasks(old, 0.3, 3);
        const auto next = perturbed(old, 2);
        const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Q8c, 2));
        QCOMPARE(formatVersion(out.bytes), uint16_t(3));
        for (size_t i = 0; i < next[0].values.size(); ++i)
            QVERIFY(sameBits(out.applied[0].values[i], masks[0][i] ? next[0].values[i] : old[0].values[i]));
    }

    void format3RefusesCodingBitAndFormat4RefusesUnknownCodings()
    {
        const Round r = dpuRound(5);
        const BundleOutput q8c = BundleWriter::write(deltaInput(r.base, r.next, r.masks, ValueCoding::Q8c, 2));
        const uint64_t entry0 = 16 + DPU_MANIFEST_FIXED_SIZE + 4 + 8; // model "test", compat "compat-1"
        QCOMPARE(int(q8c.bytes[entry0] & DPU_ENTRY_CODING_HIGH), int(DPU_ENTRY_CODING_HIGH));
        auto status = [&](std::vector<uint8_t> b) {
            const uint64_t m = uint64_t(b[8]) | uint64_t(b[9]) << 8 | uint64_t(b[10]) << 16;
            dpu_sha256_buf(b.data(), 16 + m, b.data() + 16 + m);
            return BundleApplier::apply(b, r.base, {}).status;
        };
        std::vector<uint8_t> b = q8c.bytes;
        b[4] = 3; // the same entries claimed as format 3: bit 6 is reserved there
        QCOMPARE(status(b), int(DPU_E_TENSOR_ENTRY));
        b = q8c.bytes;
        b[4] = 5; // format 5 only adds I8 tensors: the same entries read the same
        QCOMPARE(status(b), 0);
        b[4] = 6;
        QCOMPARE(status(b), int(DPU_E_FORMAT_VERSION));
        b = q8c.bytes;
        b[entry0] = uint8_t(b[entry0] | 1u << 2); // coding 5
        QCOMPARE(status(b), int(DPU_E_TENSOR_MODE));
        b = q8c.bytes;
        b[entry0] = uint8_t(b[entry0] | 0x80u); // the I8 dtype bit of format 5
        QCOMPARE(status(b), int(DPU_E_TENSOR_ENTRY));
    }

    void hostileCqHeadersGetTheirStatus()
    {
        for (ValueCoding coding : {ValueCoding::Q8c, ValueCoding::Q4}) {
            const Round r = dpuRound(6);
            const std::vector<uint8_t> good =
                BundleWriter::write(deltaInput(r.base, r.next, r.masks, coding, 2)).bytes;
            const auto [off, len] = sectionSpans(good).at(1);
            QVERIFY(len > DPU_CQ_HEADER_SIZE + 8);
            auto status = [&](const std::vector<uint8_t>& b) { return BundleApplier::apply(b, r.base, {}).status; };
            QCOMPARE(status(good), 0);
            const uint64_t numel = r.old[0].values.size();
            std::vector<uint8_t> b = good; // count above numel
            for (int i = 0; i < 8; ++i)
                b[off + uint64_t(i)] = uint8_t((numel + 1) >> (8 * i));
            reseal(b);
            QCOMPARE(status(b), int(DPU_E_COUNT));
            QCOMPARE(status(editSection(good, 8, 2)), int(DPU_E_CQ_MODEL));           // form
            QCOMPARE(status(editSection(good, 9, 2)), int(DPU_E_CQ_MODEL));           // flags
            QCOMPARE(status(editSection(good, 10, 0x11)), int(DPU_E_CQ_MODEL));       // limits 1
            QCOMPARE(status(editSection(good, 10, 0xef)), int(DPU_E_CQ_MODEL));       // limit 15
            QCOMPARE(status(editSection(good, 11, 1)), int(DPU_E_CQ_MODEL));          // reserved
            b = good;                                                                  // row length 0
            for (int i = 12; i < 16; ++i)
                b[off + uint64_t(i)] = 0;
            reseal(b);
            QCOMPARE(status(b), int(DPU_E_CQ_MODEL));
            QCOMPARE(status(editSection(good, 15, 0xff)), int(DPU_E_CQ_MODEL));       // row > numel
            if (coding == ValueCoding::Q8c) {
                QCOMPARE(status(editSection(good, 16, 0)), int(DPU_E_CQ_MODEL));      // step m 0
                QCOMPARE(status(editSection(good, 17, 0)), int(DPU_E_CQ_MODEL));      // step x 0
                QCOMPARE(status(editSection(good, 17, 231)), int(DPU_E_CQ_MODEL));    // step x 231
            } else {
                QCOMPARE(status(editSection(good, 16, 0)), int(DPU_E_CENTROIDS));     // 0 centroids
                QCOMPARE(status(editSection(good, 17, 1)), int(DPU_E_CENTROIDS));     // 16 + 256 centroids
                QCOMPARE(status(editSection(good, 18, 2)), int(DPU_E_CENTROIDS));     // table form 2
            }
        }
    }

    void truncatedAndPaddedStreamsRefused()
    {
        // The section length in the table is what the device trusts: a stream cut short runs out
        // (DPU_E_ARITH), one with a byte too many leaves it over (DPU_E_SECTION_TRAILING).
        const Round r = dpuRound(7);
        const BundleOutput out = BundleWriter::write(deltaInput(r.base, r.next, r.masks, ValueCoding::Q4, 2));
        const auto spans = sectionSpans(out.bytes);
        const auto [off, len] = spans.at(1);
        for (int delta : {-1, +1}) {
            std::vector<uint8_t> b = out.bytes;
            if (delta < 0)
                b.erase(b.begin() + std::ptrdiff_t(off + len - 1));
            else
                b.insert(b.begin() + std::ptrdiff_t(off + len), uint8_t(0));
            // the table's section length (entry 0: flags, numel varint, length varint)
            const uint64_t entry0 = 16 + DPU_MANIFEST_FIXED_SIZE + 4 + 8;
            uint64_t p = entry0 + 1;
            while (b[p] & 0x80)
                ++p;
            ++p;
            uint64_t v = 0, shift = 0, q = p;
            do {
                v |= uint64_t(b[q] & 0x7f) << shift;
                shift += 7;
            } while (b[q++] & 0x80);
            const uint64_t nv = uint64_t(int64_t(v) + delta);
            QCOMPARE(q - p, uint64_t(nv < 128 ? 1 : nv < 16384 ? 2 : 3)); // same varint width
            for (uint64_t i = p, x = nv; i < q; ++i, x >>= 7)
                b[i] = uint8_t((x & 0x7f) | (i + 1 < q ? 0x80 : 0));
            reseal(b);
            const auto res = BundleApplier::apply(b, r.base, {});
            QCOMPARE(res.status, int(delta < 0 ? DPU_E_ARITH : DPU_E_SECTION_TRAILING));
            QVERIFY(res.file.empty());
        }
        for (size_t n = 0; n < out.bytes.size(); n += 7) {
            const std::vector<uint8_t> cut(out.bytes.begin(), out.bytes.begin() + std::ptrdiff_t(n));
            QVERIFY(BundleApplier::apply(cut, r.base, {}).status != 0);
        }
    }

    void resealedCqMutationsNeverCrash()
    {
        // Every bit flip and inversion of every byte of q8c, q4 and ternary sections (digests
        // recomputed, as a hostile lab signer could): rejected or harmless, never a crash.
        for (ValueCoding coding : {ValueCoding::Q8c, ValueCoding::Q4, ValueCoding::Ternary}) {
            const Round r = dpuRound(8, 0.02);
            const BundleOutput out = BundleWriter::write(deltaInput(r.base, r.next, r.masks, coding, 2));
            const auto [off, len] = sectionSpans(out.bytes).at(1);
            for (uint64_t i = off; i < off + std::min<uint64_t>(len, 400); ++i)
                for (unsigned x : {0x01u, 0x08u, 0x40u, 0x80u, 0xffu}) {
                    std::vector<uint8_t> b = out.bytes;
                    b[i] ^= uint8_t(x);
                    reseal(b);
                    const auto res = BundleApplier::apply(b, r.base, {});
                    QVERIFY(res.status != 0 || res.file == out.targetFile);
                    QVERIFY(res.status == 0 || res.file.empty());
                }
        }
    }
};

QTEST_APPLESS_MAIN(TestBundleCq)
#include "test_bundle_cq.moc"
