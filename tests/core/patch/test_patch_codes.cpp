// SPDX-License-Identifier: MIT
// The device's primitives against known vectors and against the writer's encoders.
#include "bundle/BitWriter.h"
#include "bundle/HalfFloat.h"
#include "bundle/HuffmanCode.h"
#include "dpu_codes.h"
#include "dpu_init.h"
#include "dpu_sha256.h"

#include <QtTest/QtTest>
#include <cmath>
#include <cstring>
#include <random>

using namespace dpu::bundle;

namespace {

std::string hexDigest(const std::string& msg, size_t split = 0)
{
    dpu_sha256 s;
    uint8_t d[32];
    dpu_sha256_init(&s);
    if (split > msg.size())
        split = msg.size();
    dpu_sha256_update(&s, msg.data(), split); // any split must give the same digest
    dpu_sha256_update(&s, msg.data() + split, msg.size() - split);
    dpu_sha256_final(&s, d);
    char out[65];
    for (int i = 0; i < 32; ++i)
        std::snprintf(out + 2 * i, 3, "%02x", d[i]);
    return out;
}

int readVec(void* user, uint64_t off, uint8_t* buf, size_t len)
{
    const auto* v = static_cast<const std::vector<uint8_t>*>(user);
    if (off + len > v->size())
        return -1;
    std::memcpy(buf, v->data() + off, len);
    return 0;
}

} // namespace

class TestPatchCodes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sha256Vectors()
    {
        // FIPS 180-4 / NIST CAVP examples.
        QCOMPARE(hexDigest(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(hexDigest("abc", 1), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        const std::string m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        for (size_t split : {0, 1, 55, 56})
            QCOMPARE(hexDigest(m448, split),
                     std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(hexDigest(std::string(1000000, 'a'), 333333),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        QCOMPARE(hexDigest(std::string(64, 'x'), 64).size(), size_t(64));
    }

    void riceAndBitsRoundTrip()
    {
        std::mt19937_64 rng(7);
        for (unsigned k = 0; k < 32; k += 3) {
            BitWriter w;
            std::vector<uint64_t> v;
            for (int i = 0; i < 300; ++i) {
                v.push_back((rng() >> (40 - (k > 20 ? 20 : k))) % (uint64_t(1) << (k + 4)));
                w.rice(v.back(), k);
                w.put(uint32_t(i) & 0x1f, 5);
            }
            const std::vector<uint8_t> bytes = w.finish();
            dpu_bits b;
            dpu_bits_init(&b, readVec, const_cast<std::vector<uint8_t>*>(&bytes), 0, bytes.size());
            for (int i = 0; i < 300; ++i) {
                int ok = 0;
                QCOMPARE(dpu_rice_get(&b, k, UINT64_MAX >> 1, &ok), v[size_t(i)]);
                QVERIFY(ok);
                QCOMPARE(dpu_bits_get(&b, 5), uint32_t(i) & 0x1f);
            }
            QVERIFY(dpu_bits_at_clean_end(&b));
        }
    }

    void riceLimitStopsLongRuns()
    {
        const std::vector<uint8_t> ones(64, 0xff);
        dpu_bits b;
        dpu_bits_init(&b, readVec, const_cast<std::vector<uint8_t>*>(&ones), 0, ones.size());
        int ok = 1;
        dpu_rice_get(&b, 0, 10, &ok);
        QVERIFY(!ok);
        QVERIFY(b.pos < 4); // gave up after about limit bits, not at the end of the data
    }

    void huffmanRoundTrip()
    {
        std::mt19937 rng(3);
        for (int trial = 0; trial < 40; ++trial) {
            std::array<uint64_t, 256> freq{};
            const int used = trial < 3 ? trial + 1 : 1 + int(rng() % 256);
            for (int i = 0; i < used; ++i)
                freq[rng() % 256] += trial % 2 ? (uint64_t(1) << (rng() % 40)) : 1 + rng() % 100;
            HuffmanCode code(freq);
            uint8_t lengths[256];
            for (unsigned s = 0; s < 256; ++s)
                lengths[s] = uint8_t(code.length(s));
            dpu_huff h;
            QCOMPARE(dpu_huff_build(&h, lengths), DPU_OK);
            BitWriter w;
            std::vector<unsigned> syms;
            for (unsigned s = 0; s < 256; ++s)
                if (freq[s])
                    for (int r = 0; r < 3; ++r) {
                        syms.push_back(s);
                        code.write(w, s);
                    }
            const std::vector<uint8_t> bytes = w.finish();
            dpu_bits b;
            dpu_bits_init(&b, readVec, const_cast<std::vector<uint8_t>*>(&bytes), 0, bytes.size());
            for (unsigned s : syms)
                QCOMPARE(dpu_huff_get(&h, &b), int(s));
        }
    }

    void huffmanRejectsBadTables()
    {
        uint8_t l[256] = {0};
        dpu_huff h;
        QCOMPARE(dpu_huff_build(&h, l), DPU_E_HUFF_TABLE); // empty
        l[0] = 1;
        l[1] = 1;
        l[2] = 1;
        QCOMPARE(dpu_huff_build(&h, l), DPU_E_HUFF_TABLE); // over-subscribed
        l[2] = 0;
        l[1] = 2;
        QCOMPARE(dpu_huff_build(&h, l), DPU_E_HUFF_TABLE); // incomplete
        l[1] = 0;
        l[0] = 2;
        QCOMPARE(dpu_huff_build(&h, l), DPU_E_HUFF_TABLE); // lone symbol must have length 1
        l[0] = 16;
        QCOMPARE(dpu_huff_build(&h, l), DPU_E_HUFF_TABLE); // too long
    }

    // The library computes 1/sqrt(fan-in) without libm: its integer square root must be the
    // correctly rounded sqrtf for every fan-in it accepts, or reinit bundles would differ.
    void initBoundMatchesSqrtfEverywhere()
    {
        for (uint32_t n = 1; n <= (1u << 24); ++n) {
            volatile float f = float(n);
            f = std::sqrt(float(f));
            f = 1.0f / f;
            if (dpu_init_bound(n) != f)
                QFAIL(qPrintable(QString("fan-in %1: %2 instead of %3").arg(n).arg(double(dpu_init_bound(n)), 0, 'a')
                                     .arg(double(f), 0, 'a')));
        }
        QCOMPARE(dpu_init_bound(0), 0.0f);
        QCOMPARE(dpu_init_bound((1u << 24) + 1u), 0.0f);
    }

    void halfFloat()
    {
        // Every half round-trips exactly through float and back.
        for (uint32_t h = 0; h < 65536; ++h) {
            const float f = dpu_half_to_float(uint16_t(h));
            if (f != f)
                continue; // NaN
            QCOMPARE(uint32_t(HalfFloat::fromFloat(f)), h);
        }
        QCOMPARE(dpu_half_to_float(0x3c00), 1.0f);
        QCOMPARE(dpu_half_to_float(0x0001), 5.9604644775390625e-8f);
        QCOMPARE(HalfFloat::fromFloat(1.0f + 1.0f / 2048.f), uint16_t(0x3c00)); // tie to even
        QCOMPARE(HalfFloat::fromFloat(70000.f), uint16_t(0x7c00));               // overflow
    }
};

QTEST_APPLESS_MAIN(TestPatchCodes)
#include "test_patch_codes.moc"
