// SPDX-License-Identifier: MIT
// Round trips of the format's rarer modes (copy sections, q8's f32 centroid table, the constant
// init rule, a full bundle with a shared dense stream), one case each, through the C decoder,
// each with a rejection of a broken variant.
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/DenseStream.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>
#include <array>
#include <cstring>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

void putLe(std::vector<uint8_t>& b, uint64_t off, uint64_t v, int n)
{
    for (int i = 0; i < n; ++i)
        b.at(off + uint64_t(i)) = uint8_t(v >> (8 * i));
}

void varint(std::vector<uint8_t>& out, uint64_t v)
{
    for (; v >= 0x80; v >>= 7)
        out.push_back(uint8_t(v | 0x80));
    out.push_back(uint8_t(v));
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

/// A full bundle's tensors re-assembled as one shared dense stream (direct words, as the format
/// allows for every kind: 2.5), everything else (header section, strings, versions) kept.
std::vector<uint8_t> pooledFull(const std::vector<uint8_t>& full, const std::vector<TensorData>& target, bool direct)
{
    std::vector<const std::vector<float>*> values;
    for (const auto& t : target)
        values.push_back(&t.values);
    std::vector<uint8_t> stream = DenseStream::encode(values, {});
    if (!direct)
        stream.at(0) &= uint8_t(~DPU_SPARSE_DIRECT);
    const auto spans = sectionSpans(full);
    const uint64_t strings = full.at(16 + 168) + full.at(16 + 169);
    std::vector<uint8_t> m(full.begin() + 16, full.begin() + 16 + long(DPU_MANIFEST_FIXED_SIZE + strings));
    for (size_t i = 0; i < target.size(); ++i) {
        m.push_back(uint8_t(DPU_MODE_DENSE | DPU_CODING_FP32 << 2));
        varint(m, target[i].values.size());
        varint(m, i == 0 ? stream.size() : 0);
    }
    const std::vector<uint8_t> header(full.begin() + long(spans[0].first),
                                      full.begin() + long(spans[0].first + spans[0].second));
    std::vector<uint8_t> b(full.begin(), full.begin() + 16);
    putLe(b, 8, m.size(), 4);
    b.insert(b.end(), m.begin(), m.end());
    putLe(b, 16 + 120, 16 + m.size() + 32, 8); // section H starts the sections
    b.resize(b.size() + 32);                     // manifest digest, set by reseal
    b.insert(b.end(), header.begin(), header.end());
    b.insert(b.end(), stream.begin(), stream.end());
    reseal(b);
    return b;
}

} // namespace

class TestBundleModes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Unchanged always-shipped tensors of a delta travel as copy entries: no section, the
    // device copies its own bytes. A device file that differs there is refused before any copy.
    void copySections()
    {
        const auto old = modelState("conv", 21);
        auto next = perturbed(old, 22);
        for (size_t i : {1, 2, 6}) // bn1.weight, bn1.bias, fc.bias unchanged
            next[i] = old[i];
        const auto base = deviceFile(old, 1);
        const BundleOutput out = BundleWriter::write(deltaInput(base, next, randomMasks(old, 0.05, 23), ValueCoding::Fp32, 2));
        const auto at = entryOffsets(out.bytes);
        const auto spans = sectionSpans(out.bytes);
        for (size_t i : {1, 2, 6}) {
            QCOMPARE(out.bytes.at(at[i]) & 3, int(DPU_MODE_COPY));
            QCOMPARE(spans[i + 1].second, uint64_t(0)); // no section
        }
        const auto r = BundleApplier::apply(out.bytes, base, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
        const auto file = SafetensorsFile::read(r.file);
        for (size_t i : {1, 2, 6})
            for (size_t j = 0; j < old[i].values.size(); ++j)
                QVERIFY(sameBits(file[i].values[j], old[i].values[j]));

        std::vector<uint8_t> otherBase = base;
        uint64_t dataStart = 0;
        SafetensorsFile::read(base, &dataStart);
        otherBase.at(dataStart + 4 * old[0].values.size()) ^= 1; // bn1.weight's first value
        const auto bad = BundleApplier::apply(out.bytes, otherBase, {});
        QCOMPARE(bad.status, int(DPU_E_BASE_HASH));
        QVERIFY(bad.file.empty());
    }

    // q8 with more than 256 changes but few distinct values quantises exactly: the centroid
    // table is then form 0 (C raw f32), and every change arrives bit for bit.
    void q8FloatCentroidTable()
    {
        auto old = modelState("mlp", 31);
        auto next = old;
        const auto masks = randomMasks(old, 0.05, 32);
        const float palette[] = {0.1f, -0.3f, 1.0f / 3.0f, 7e-5f, -2.5f}; // 1/3 is no binary16
        size_t changes = 0;
        for (size_t j = 0; j < next[0].values.size(); ++j)
            if (masks[0][j])
                next[0].values[j] = palette[changes++ % 5];
        QVERIFY(changes > 256); // else the writer prefers fp16 values
        const auto base = deviceFile(old, 1);
        BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Q8, 2));
        const auto at = entryOffsets(out.bytes);
        QCOMPARE((out.bytes.at(at[0]) >> 2) & 3, int(DPU_CODING_Q8));
        const uint64_t sec = sectionSpans(out.bytes)[1].first;
        // sparse header: u64 count, u8 Rice parameter, u8 plane mask; then u16 C, u8 form
        QCOMPARE(le(out.bytes, sec + 10, 2), uint64_t(5));
        QCOMPARE(int(out.bytes.at(sec + 12)), int(DPU_CENTROIDS_F32));
        const auto r = BundleApplier::apply(out.bytes, base, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
        const auto file = SafetensorsFile::read(r.file);
        for (size_t j = 0; j < next[0].values.size(); ++j)
            QVERIFY(sameBits(file[0].values[j], next[0].values[j]));

        out.bytes.at(sec + 12) = 2; // no such table form
        reseal(out.bytes);
        QCOMPARE(BundleApplier::apply(out.bytes, base, {}).status, int(DPU_E_CENTROIDS));
        out.bytes.at(sec + 12) = DPU_CENTROIDS_F32;
        putLe(out.bytes, sec + 10, 0, 2); // zero centroids
        reseal(out.bytes);
        QCOMPARE(BundleApplier::apply(out.bytes, base, {}).status, int(DPU_E_CENTROIDS));
    }

    // A reinit bundle whose partial tensor starts from a constant (rule 2): unchanged positions
    // hold the constant exactly; rule 3 does not exist.
    void constantInitRule()
    {
        const auto old = modelState("mlp", 41);
        const auto masks = randomMasks(old, 0.1, 42);
        BundleInput in = deltaInput({}, perturbed(old, 43), masks, ValueCoding::Fp16, 1);
        makeReinit(in, old, 44);
        in.init[2].rule = InitSpec::Rule::Constant; // fc2.weight: a constant start
        in.init[2].constant = 0.375f;
        const BundleOutput out = BundleWriter::write(in);
        const auto at = entryOffsets(out.bytes);
        QCOMPARE(out.bytes.at(at[2]) & 3, int(DPU_MODE_INIT_SPARSE));
        QCOMPARE((out.bytes.at(at[2]) >> 4) & 3, int(DPU_INIT_CONSTANT));
        const auto r = BundleApplier::apply(out.bytes, {}, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
        const auto file = SafetensorsFile::read(r.file);
        size_t kept = 0;
        for (size_t j = 0; j < masks[2].size(); ++j)
            if (!masks[2][j]) {
                QVERIFY(sameBits(file[2].values[j], 0.375f));
                ++kept;
            }
        QVERIFY(kept > 0);

        std::vector<uint8_t> bad = out.bytes;
        bad.at(at[2]) |= 0x30; // init rule 3
        reseal(bad);
        QCOMPARE(BundleApplier::apply(bad, {}, {}).status, int(DPU_E_TENSOR_MODE));
    }

    // The format lets a full bundle pool its tensors in one shared dense stream of direct
    // words (2.5); the writer does not, so the bundle is re-assembled from a written one. The
    // stream's XOR form needs a base, which a full bundle has not.
    void fullBundleWithSharedDenseStream()
    {
        const auto target = modelState("conv", 51);
        BundleInput in;
        in.kind = Kind::Full;
        in.model = "test";
        in.compat = "compat-1";
        in.updateVersion = 5;
        in.target = target;
        const BundleOutput out = BundleWriter::write(in);
        const std::vector<uint8_t> pooled = pooledFull(out.bytes, target, true);
        const auto at = entryOffsets(pooled);
        QCOMPARE(int(pooled.at(at[0])), int(DPU_MODE_DENSE | DPU_CODING_FP32 << 2));
        const auto r = BundleApplier::apply(pooled, {}, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == out.targetFile);

        const auto xorForm = BundleApplier::apply(pooledFull(out.bytes, target, false), {}, {});
        QCOMPARE(xorForm.status, int(DPU_E_PLANES));
        std::vector<uint8_t> second = pooled; // a second tensor claiming the stream
        const auto spans = sectionSpans(pooled);
        QVERIFY(spans[2].second == 0);
        QCOMPARE(int(second.at(at[1] + 2)), 0); // numel 16 fits one byte, then the length 0
        second.at(at[1] + 2) = 1;
        second.push_back(0);
        reseal(second);
        QCOMPARE(BundleApplier::apply(second, {}, {}).status, int(DPU_E_SECTION_SIZE));
    }
};

QTEST_APPLESS_MAIN(TestBundleModes)
#include "test_bundle_modes.moc"
