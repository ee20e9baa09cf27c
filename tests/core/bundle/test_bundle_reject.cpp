// SPDX-License-Identifier: MIT
// Hostile and wrong input: every single-byte change and every truncation of a small valid bundle
// is rejected; wrong base, wrong key, replayed versions and wrong compatibility are refused
// (mutations resealed with valid digests: test_bundle_reseal).
#include "BundleRejectFixtures.h"
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>

using namespace dpu::bundle;
using namespace dpu::test;

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
