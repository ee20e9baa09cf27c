// SPDX-License-Identifier: MIT
// A full bundle of a model with zeros (a sparse deployed model) ships its nonzeros and their positions over the constant-0 rule (docs/bundle-format.md 2.6).
#include "BundleTestUtil.h"
#include "TestSupport.h"
#include "bundle/FullZeros.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cstring>
#include <functional>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

/// Zeroes the smaller-magnitude `share` of every tensor of two or more dimensions (magnitude
/// pruning per tensor, as plan `deployed: sparse` does).
std::vector<TensorData> pruned(std::vector<TensorData> t, double share)
{
    for (auto& x : t) {
        if (x.shape.size() < 2)
            continue;
        std::vector<float> mags;
        for (float v : x.values)
            mags.push_back(std::abs(v));
        const size_t cut = size_t(share * double(mags.size()));
        std::nth_element(mags.begin(), mags.begin() + long(cut), mags.end());
        const float threshold = mags[cut];
        for (float& v : x.values)
            v = std::abs(v) < threshold ? 0.f : v;
    }
    return t;
}

BundleInput fullInput(const std::vector<TensorData>& target, uint64_t version)
{
    BundleInput in;
    in.kind = Kind::Full;
    in.model = "test";
    in.compat = "compat-1";
    in.updateVersion = version;
    in.target = target;
    return in;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

/// `b` changed by `edit`, resealed as a hostile lab signer could, applied without a base file.
BundleApplier::Result applyEdited(std::vector<uint8_t> b, const std::function<void(std::vector<uint8_t>&)>& edit)
{
    edit(b);
    reseal(b);
    return BundleApplier::apply(b, {}, {});
}

} // namespace

class TestBundleFullZeros : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A 50 %-sparse MLP: kind reinit+delta (format 3, seed 0, initialiser version 1) whose weight
    // tensors are init+sparse sections over the constant 0, the biases dense; exact to the bit
    // (a -0.0 weight too), at most 0.55 of the dense model's full bundle.
    void sparseModelShipsItsNonzeros()
    {
        const auto dense = modelState("mlp", 61);
        auto sparse = pruned(dense, 0.5);
        sparse[0].values[5] = -0.f; // not the rule's value: it must travel
        sparse[2].values[7] = -0.f;
        const BundleOutput out = BundleWriter::write(fullInput(sparse, 3));
        const std::vector<uint8_t>& b = out.bytes;
        QCOMPARE(le(b, 4, 2), uint64_t(3));
        QCOMPARE(int(b.at(16)), int(Kind::ReinitDelta));
        QCOMPARE(le(b, 16 + 104, 8), uint64_t(0)); // seed
        QCOMPARE(le(b, 16 + 112, 4), uint64_t(1)); // initialiser version
        const auto at = entryOffsets(b);
        for (size_t i : {0, 2}) {
            QCOMPARE(b.at(at[i]) & 3, int(DPU_MODE_INIT_SPARSE));
            QCOMPARE((b.at(at[i]) >> 4) & 3, int(DPU_INIT_CONSTANT));
            QCOMPARE(le(b, at[i + 1] - 4, 4), uint64_t(0)); // the constant +0.0
        }
        for (size_t i : {1, 3})
            QCOMPARE(b.at(at[i]) & 3, int(DPU_MODE_DENSE));

        const auto r = BundleApplier::apply(b, {}, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
        QVERIFY(r.file == SafetensorsFile::write(sparse, SafetensorsFile::deviceMetadata("test", "compat-1", 3)));
        const auto file = SafetensorsFile::read(r.file);
        QVERIFY(sameBits(file[0].values[5], -0.f) && sameBits(file[2].values[7], -0.f));

        const BundleOutput full = BundleWriter::write(fullInput(dense, 3));
        QCOMPARE(int(full.bytes.at(16)), int(Kind::Full));
        const double ratio = double(b.size()) / double(full.bytes.size());
        QVERIFY2(ratio <= 0.55, qPrintable(QString::number(ratio)));
        uint64_t nonzeros = 0; // -0.0 included
        for (size_t i : {0, 2})
            for (float v : sparse[i].values)
                nonzeros += !sameBits(v, 0.f);
        QCOMPARE(out.stats.changed, nonzeros);
    }

    // Without zeros worth their positions (fewer than one element in 32, or only in I8 codes) a
    // full bundle is what it always was: kind full, every tensor dense.
    void denseModelKeepsItsFullBundle()
    {
        QVERIFY(!FullZeros::worthCoding(1, 32) && FullZeros::worthCoding(2, 32) && !FullZeros::worthCoding(0, 0));
        auto state = modelState("conv", 62);
        for (size_t j = 0; j < 14; ++j) // conv2.weight: 14 of 4,608 zero
            state[3].values[j * 300] = 0.f;
        const BundleOutput out = BundleWriter::write(fullInput(state, 1));
        QCOMPARE(int(out.bytes.at(16)), int(Kind::Full));
        QCOMPARE(le(out.bytes, 4, 2), uint64_t(3));
        uint64_t values = 0;
        for (const auto& t : state)
            values += 4 * t.values.size();
        QCOMPARE(uint64_t(out.bytes.size()), out.stats.envelopeBytes + out.stats.headerBytes + values);
        QVERIFY(!FullZeros::asZeroSeeded(fullInput(state, 1)));

        const auto int8 = int8State("conv", 63, 0.5); // half of the codes 0: I8 tensors stay dense
        const BundleOutput codes = BundleWriter::write(fullInput(int8, 1));
        QCOMPARE(int(codes.bytes.at(16)), int(Kind::Full));
        QVERIFY(BundleApplier::apply(codes.bytes, {}, {}).file == codes.targetFile);
    }

    // Zeros tensor by tensor: a pruned convolution and an all-zero BatchNorm shift are coded
    // (the latter as a section of no change), a tensor with one zero stays dense in the same bundle.
    void zerosInSomeTensors()
    {
        auto state = modelState("conv", 64);
        state[3] = pruned({state[3]}, 0.9)[0];                   // conv2.weight
        std::fill(state[2].values.begin(), state[2].values.end(), 0.f); // bn1.bias
        state[5].values[0] = 0.f;                                 // fc.weight: 1 of 320
        const BundleOutput out = BundleWriter::write(fullInput(state, 2));
        QCOMPARE(int(out.bytes.at(16)), int(Kind::ReinitDelta));
        const auto at = entryOffsets(out.bytes);
        const auto spans = sectionSpans(out.bytes);
        QCOMPARE(out.bytes.at(at[3]) & 3, int(DPU_MODE_INIT_SPARSE));
        QCOMPARE(out.bytes.at(at[2]) & 3, int(DPU_MODE_INIT_SPARSE));
        QCOMPARE(le(out.bytes, spans[3].first, 8), uint64_t(0)); // bn1.bias: no nonzero
        QCOMPARE(out.bytes.at(at[5]) & 3, int(DPU_MODE_DENSE));
        QCOMPARE(out.bytes.at(at[0]) & 3, int(DPU_MODE_DENSE));
        const auto r = BundleApplier::apply(out.bytes, {}, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == SafetensorsFile::write(state, SafetensorsFile::deviceMetadata("test", "compat-1", 2)));
    }

    // Hostile sections of a zero-coded full bundle, resealed: counts past the tensor, a count
    // one too high, a bad Rice parameter, another constant, a cut section, the kind set back to
    // full; each refused with its status and nothing written. Every truncation and every flipped
    // byte of the sections is refused or harmless.
    void hostileZeroSections()
    {
        std::vector<TensorData> state = {{"b", {4}, {}}, {"w", {4, 8}, {}}};
        std::mt19937 rng(65);
        fillNormal(state, rng, 0.05f);
        state = pruned(state, 0.5);
        const BundleOutput out = BundleWriter::write(fullInput(state, 1));
        QCOMPARE(int(out.bytes.at(16)), int(Kind::ReinitDelta));
        const auto at = entryOffsets(out.bytes);
        const auto spans = sectionSpans(out.bytes);
        const uint64_t sec = spans[2].first, len = spans[2].second; // w's section, the last
        QCOMPARE(sec + len, uint64_t(out.bytes.size()));
        auto status = [&](const std::function<void(std::vector<uint8_t>&)>& edit) {
            const auto r = applyEdited(out.bytes, edit);
            return r.file.empty() ? r.status : -1;
        };
        QCOMPARE(status([&](auto& b) { b[sec] = 33; }), int(DPU_E_COUNT)); // 33 of 32
        QVERIFY(status([&](auto& b) { b[sec] = uint8_t(b[sec] + 1); }) > 0); // records run out
        QCOMPARE(status([&](auto& b) { b[sec + 8] = 32; }), int(DPU_E_RICE_PARAM));
        QCOMPARE(status([&](auto& b) { b[at[2] - 1] = 0x3f; }), int(DPU_E_TARGET_HASH)); // constant 0.5
        QCOMPARE(status([&](auto& b) {
                     b[16] = uint8_t(Kind::Full);
                     b[16 + 112] = 0; // a full bundle's initialiser version
                 }),
                 int(DPU_E_TENSOR_MODE));
        QCOMPARE(status([&](auto& b) { b[16 + 112] = 0; }), int(DPU_E_INIT_VERSION));
        QCOMPARE(len < 128, true); // one varint byte: cut the section and say so in its length
        for (uint64_t cut = 1; cut < len; ++cut)
            QVERIFY(status([&](auto& b) {
                        b.resize(b.size() - cut);
                        b[at[2] - 6] = uint8_t(len - cut); // flags, numel, LENGTH, index, constant
                    }) > 0);
        for (size_t n = 0; n < out.bytes.size(); ++n) {
            std::vector<uint8_t> b(out.bytes.begin(), out.bytes.begin() + long(n));
            QVERIFY(BundleApplier::apply(b, {}, {}).status != DPU_OK);
        }
        mutateResealed(out, {}, spans[1].first, uint64_t(out.bytes.size()) - spans[1].first, {1, 0x10, 0x80, 0xff});
    }

    // dpu-apply installs a sparse model from its zero-coded full bundle onto a device without a
    // weight file, then applies a delta among its nonzeros on top.
    // A sparse model's full update written as a delta (BundleInput::wholeModel): a retrained and
    // re-pruned model changes nearly every nonzero of base and target, and the writer sends the
    // zero-coded full deployment of the target instead, byte for byte the one a full bundle gets,
    // because it is smaller; a partial update with the flag stays the delta, which is smaller.
    void wholeModelDeltaTakesTheSmaller()
    {
        const auto deployed = pruned(modelState("mlp", 69), 0.5);
        const auto retrained = pruned(modelState("mlp", 70), 0.5);
        const std::vector<uint8_t> base = deviceFile(deployed, 3);
        auto changedMasks = [&](const std::vector<TensorData>& target) {
            std::vector<std::vector<uint8_t>> m(target.size());
            for (size_t t = 0; t < target.size(); ++t)
                if (target[t].shape.size() >= 2)
                    for (size_t j = 0; j < target[t].values.size(); ++j)
                        m[t].push_back(!sameBits(target[t].values[j], deployed[t].values[j]));
            return m;
        };
        BundleInput in = deltaInput(base, retrained, changedMasks(retrained), ValueCoding::Fp32, 4);
        const BundleOutput delta = BundleWriter::write(in);
        in.wholeModel = true;
        const BundleOutput chosen = BundleWriter::write(in);
        const BundleOutput full = BundleWriter::write(fullInput(retrained, 4));
        QCOMPARE(int(delta.bytes.at(16)), int(Kind::Delta));
        QVERIFY2(full.bytes.size() < delta.bytes.size(),
                 qPrintable(QString("zero-coded full %1, delta %2").arg(full.bytes.size()).arg(delta.bytes.size())));
        QCOMPARE(chosen.bytes.size(), std::min(full.bytes.size(), delta.bytes.size()));
        QVERIFY(chosen.bytes == full.bytes);
        QCOMPARE(int(chosen.bytes.at(16)), int(Kind::ReinitDelta));
        const auto r = BundleApplier::apply(chosen.bytes, base, {});
        QVERIFY2(r.status == DPU_OK, r.message.c_str());
        QVERIFY(r.file == delta.targetFile && r.file == deviceFile(retrained, 4));

        auto masks = randomMasks(deployed, 0.05, 71); // a partial update: the delta is smaller
        for (size_t t = 0; t < deployed.size(); ++t)
            for (size_t j = 0; j < masks[t].size(); ++j)
                masks[t][j] = masks[t][j] && deployed[t].values[j] != 0.f;
        BundleInput partial = deltaInput(base, roundLike(deployed, masks, 72), masks, ValueCoding::Fp32, 4);
        const BundleOutput plain = BundleWriter::write(partial);
        partial.wholeModel = true;
        const BundleOutput kept = BundleWriter::write(partial);
        QVERIFY(kept.bytes == plain.bytes);
        QCOMPARE(int(kept.bytes.at(16)), int(Kind::Delta));
        QVERIFY(kept.bytes.size() < BundleWriter::write(fullInput(partial.target, 4)).bytes.size());
    }

    void dpuApplyInstallsTheSparseModel()
    {
        QTemporaryDir dir;
        const auto sparse = pruned(modelState("mlp", 66), 0.5);
        const BundleOutput first = BundleWriter::write(fullInput(sparse, 1));
        QCOMPARE(int(first.bytes.at(16)), int(Kind::ReinitDelta));
        auto masks = randomMasks(sparse, 0.2, 67);
        for (size_t t = 0; t < sparse.size(); ++t)
            for (size_t j = 0; j < masks[t].size(); ++j)
                masks[t][j] = masks[t][j] && sparse[t].values[j] != 0.f;
        const auto next = roundLike(sparse, masks, 68);
        const BundleOutput second = BundleWriter::write(deltaInput(first.targetFile, next, masks, ValueCoding::Fp32, 2));
        const std::string weights = dir.filePath("model.safetensors").toStdString();
        const std::vector<uint8_t>* expected[] = {&first.targetFile, &second.targetFile};
        const std::vector<uint8_t>* bundles[] = {&first.bytes, &second.bytes};
        for (int round = 0; round < 2; ++round) {
            const std::string path = dir.filePath(QStringLiteral("r%1.dpub").arg(round + 1)).toStdString();
            writeFile(path, *bundles[round]);
            QProcess p;
            p.start(QStringLiteral(DPU_APPLY_EXE), {QString::fromStdString(path), QString::fromStdString(weights),
                                                    "--current-version", QString::number(round), "--compat", "compat-1"});
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
            QVERIFY(readFile(weights) == *expected[round]);
        }
    }
};

QTEST_GUILESS_MAIN(TestBundleFullZeros)
#include "test_bundle_full_zeros.moc"
