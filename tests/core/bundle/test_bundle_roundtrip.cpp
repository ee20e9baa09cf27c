// SPDX-License-Identifier: MIT
// Writer output applied by the device code gives exactly the writer's expected file, for every
// kind and value coding over many masks; position codes stay near the entropy bound.
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "bundle/SparseEncoder.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>
#include <cmath>
#include <cstring>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

double entropy(double k)
{
    return k <= 0 || k >= 1 ? 0.0 : -k * std::log2(k) - (1 - k) * std::log2(1 - k);
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

} // namespace

class TestBundleRoundTrip : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deltaAllCodings()
    {
        const double ks[] = {0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.35, 0.5};
        for (const char* shape : {"mlp", "conv"})
            for (int coding = 1; coding <= 3; ++coding)
                for (double k : ks)
                    for (uint32_t seed = 1; seed <= 2; ++seed) {
                        const auto old = modelState(shape, seed);
                        const auto base = deviceFile(old, 1);
                        const auto next = perturbed(old, seed + 100);
                        const auto masks = randomMasks(old, k, seed + 200);
                        const BundleOutput out =
                            BundleWriter::write(deltaInput(base, next, masks, ValueCoding(coding), 2));
                        BundleApplier::Options o;
                        o.currentVersion = 1;
                        const auto r = BundleApplier::apply(out.bytes, base, o);
                        QVERIFY2(r.status == 0, r.message.c_str());
                        QVERIFY(r.file == out.targetFile);
                        QVERIFY(SafetensorsFile::read(r.file).size() == old.size());
                        // Semantics: unmasked weights keep the old value; masked ones the new
                        // value (exactly for fp32, within the coding's error otherwise).
                        for (size_t t = 0; t < old.size(); ++t)
                            for (size_t i = 0; i < old[t].values.size(); ++i) {
                                const float a = out.applied[t].values[i];
                                if (masks[t].empty()) {
                                    QVERIFY(sameBits(a, next[t].values[i]));
                                } else if (!masks[t][i]) {
                                    QVERIFY(sameBits(a, old[t].values[i]));
                                } else if (coding == 1) {
                                    QVERIFY(sameBits(a, next[t].values[i]));
                                } else {
                                    QVERIFY(std::abs(a - next[t].values[i]) < (coding == 2 ? 1e-3f : 0.05f));
                                }
                            }
                    }
    }

    void compactFormsOfFormat2()
    {
        // fp32 words as the new bits when they share little with the old (DPU-like values), as
        // XOR otherwise; q8 tables in binary16 past 256 distinct values, exact f32 otherwise;
        // changed dense tensors as exact fp32 sparse sections over the base.
        const auto old = modelState("mlp", 31);
        const auto masks = randomMasks(old, 0.05, 33);
        const auto base = deviceFile(old, 1);
        auto few = perturbed(old, 34); // q8 exact: at most 256 distinct new values
        for (size_t t = 0; t < few.size(); ++t)
            for (size_t i = 0; i < few[t].values.size(); ++i)
                if (!masks[t].empty())
                    few[t].values[i] = masks[t][i] ? float(int(i % 200)) / 1024.f : old[t].values[i];
        const struct {
            std::vector<TensorData> next;
            ValueCoding coding;
            const char* form;
            bool exact;
        } cases[] = {{roundLike(old, masks, 32), ValueCoding::Fp32, "direct", true},
                     {perturbed(old, 35), ValueCoding::Fp32, "xor", true},
                     {roundLike(old, masks, 36), ValueCoding::Q8, "256 f16 centroids", false},
                     {few, ValueCoding::Q8, "200 f32 centroids", true},
                     {roundLike(old, masks, 37), ValueCoding::Fp16, "fp16", false}};
        for (const auto& c : cases) {
            const BundleOutput out = BundleWriter::write(deltaInput(base, c.next, masks, c.coding, 2));
            const auto r = BundleApplier::apply(out.bytes, base, {});
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == out.targetFile);
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            const auto weightLine = text.substr(text.find("fc1.weight"));
            QVERIFY2(weightLine.substr(0, weightLine.find('\n')).find(c.form) != std::string::npos, text.c_str());
            // Small dense changes code smaller as XOR over the base; never larger than raw f32.
            const auto biasLine = text.substr(text.find("fc1.bias"));
            if (std::string(c.form) == "xor")
                QVERIFY2(biasLine.substr(0, biasLine.find('\n')).find("shared dense stream (here: xor)") != std::string::npos,
                         text.c_str());
            QVERIFY(out.stats.denseBytes <= 4 * (256 + 10));
            double worst = 0;
            for (size_t t = 0; t < old.size(); ++t)
                for (size_t i = 0; i < old[t].values.size(); ++i) {
                    const float a = out.applied[t].values[i], want = c.next[t].values[i];
                    if (!masks[t].empty() && !masks[t][i])
                        QVERIFY(sameBits(a, old[t].values[i]));
                    else if (masks[t].empty() || c.exact)
                        QVERIFY(sameBits(a, want)); // exact: dense, fp32, q8 with its values as table
                    else
                        worst = std::max(worst, double(std::abs(a - want)));
                }
            // q8: 256 centroids over about +-0.35, rounded to binary16, stay within a few 1e-3.
            QVERIFY2(worst < (c.coding == ValueCoding::Fp16 ? 1e-3 : 0.01), qPrintable(QString::number(worst)));
        }
    }

    void alwaysShippedTensorsShareOneDenseStream()
    {
        // BatchNorm-like tensors that all change: one stream with one set of code tables, exact,
        // XOR over the base in a delta and the new bits in a reinit bundle; a tensor with a single
        // changed value keeps its own (smaller) sparse section, an unchanged one is copied.
        std::vector<TensorData> old = {{"conv1.weight", {64, 16, 3, 3}, {}}};
        for (int l = 1; l <= 10; ++l)
            for (const char* b : {"weight", "bias", "running_mean", "running_var"})
                old.push_back({"bn" + std::to_string(l) + "." + b, {64}, {}});
        old.push_back({"fc.bias", {10}, {}});
        std::mt19937 rng(81);
        fillNormal(old, rng, 0.05f);
        const auto masks = randomMasks(old, 0.02, 82);
        auto next = perturbed(old, 83);
        next[2] = old[2];
        next[2].values[5] += 0.25f; // bn1.bias: one changed value
        next[4] = old[4];           // bn1.running_var: unchanged
        const auto base = deviceFile(old, 1);
        auto line = [](const std::string& text, const std::string& name) {
            const size_t at = text.find("  " + name + " [");
            return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
        };
        uint64_t rawDense = 0;
        for (size_t t = 0; t < old.size(); ++t)
            if (masks[t].empty() && t != 2 && t != 4)
                rawDense += 4 * old[t].values.size();
        for (Kind kind : {Kind::Delta, Kind::ReinitDelta}) {
            BundleInput in = deltaInput(base, next, masks, ValueCoding::Fp32, 2);
            if (kind == Kind::ReinitDelta)
                makeReinit(in, old, 5);
            const BundleOutput out = BundleWriter::write(in);
            const auto r = BundleApplier::apply(out.bytes, kind == Kind::Delta ? base : std::vector<uint8_t>{}, {});
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == out.targetFile);
            for (size_t t = 0; t < next.size(); ++t)
                if (masks[t].empty())
                    QVERIFY(std::memcmp(out.applied[t].values.data(), next[t].values.data(),
                                        4 * next[t].values.size()) == 0); // exact
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            QVERIFY2(line(text, "bn1.weight").find(kind == Kind::Delta ? "shared dense stream (here: xor)"
                                                                       : "shared dense stream (here: direct)") !=
                         std::string::npos,
                     text.c_str());
            QVERIFY2(line(text, "bn7.running_mean").find("in the shared dense stream, 0 bytes") != std::string::npos,
                     text.c_str());
            QVERIFY2(line(text, "fc.bias").find("in the shared dense stream, 0 bytes") != std::string::npos, text.c_str());
            if (kind == Kind::Delta) {
                QVERIFY2(line(text, "bn1.bias").find("sparse fp32, 1/64 changed") != std::string::npos, text.c_str());
                QVERIFY2(line(text, "bn1.running_var").find("copy") != std::string::npos, text.c_str());
                QVERIFY(out.stats.denseBytes < rawDense);
            }
        }
    }

    void q8TakesFp16ForTensorsWithFewChanges()
    {
        // With at most 256 changes a q8 table would hold every value exactly as f32; fp16 values
        // are smaller and round by at most 2^-11 relative. Larger tensors stay q8.
        const auto old = modelState("mlp", 71);
        const auto masks = randomMasks(old, 0.02, 72); // fc1: about 4000 changes, fc2: about 50
        const auto base = deviceFile(old, 1);
        const auto next = roundLike(old, masks, 73);
        const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Q8, 2));
        const auto r = BundleApplier::apply(out.bytes, base, {});
        QVERIFY2(r.status == 0, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
        const std::string text = BundleInspector::inspect(out.bytes, &base);
        auto line = [&text](const std::string& name) {
            const size_t at = text.find("  " + name + " [");
            return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
        };
        QVERIFY2(line("fc1.weight").find("sparse q8") != std::string::npos, text.c_str());
        QVERIFY2(line("fc2.weight").find("sparse fp16") != std::string::npos, text.c_str());
        for (size_t i = 0; i < next[2].values.size(); ++i) {
            const float a = out.applied[2].values[i], want = next[2].values[i];
            if (masks[2][i])
                QVERIFY(std::abs(a - want) <= std::abs(want) / 2048.f);
            else
                QVERIFY(sameBits(a, old[2].values[i]));
        }
        // ... because it is smaller than the exact q8 table would have been
        std::vector<float> decoded;
        BundleStats st;
        const size_t q8Bytes =
            SparseEncoder::encode(old[2].values, next[2].values, masks[2], ValueCoding::Q8, decoded, st).size();
        const size_t fp16Bytes =
            SparseEncoder::encode(old[2].values, next[2].values, masks[2], ValueCoding::Fp16, decoded, st).size();
        QVERIFY2(fp16Bytes < q8Bytes, qPrintable(QStringLiteral("%1 vs %2").arg(fp16Bytes).arg(q8Bytes)));
        QVERIFY2(line("fc2.weight").find(", " + std::to_string(fp16Bytes) + " bytes") != std::string::npos, text.c_str());
    }

    void headerTravelsAsAnEditOfTheBase()
    {
        // Only the update version digits differ between base and target headers, also when their
        // count (and so the padding or the header length) changes.
        const auto old = modelState("conv", 51);
        const auto next = perturbed(old, 52);
        const auto masks = randomMasks(old, 0.05, 53);
        for (auto [from, to] : {std::pair<uint64_t, uint64_t>{1, 2}, {9, 10}, {99, 100}, {7, 123456789012ull}}) {
            const auto base = deviceFile(old, from);
            const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Fp32, to));
            BundleApplier::Options o;
            o.currentVersion = from;
            const auto r = BundleApplier::apply(out.bytes, base, o);
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == out.targetFile);
            uint64_t baseStart = 0, targetStart = 0;
            SafetensorsFile::read(base, &baseStart);
            SafetensorsFile::read(out.targetFile, &targetStart);
            if (baseStart == targetStart) { // same padded length: the fields and the new digits
                QVERIFY(BundleInspector::inspect(out.bytes).find("an edit of the base header") != std::string::npos);
                QVERIFY(out.stats.headerBytes < DPU_HEADER_EDIT_FIELDS + 16);
            }
            QVERIFY(out.stats.headerBytes <= targetStart); // never more than the header itself
        }
    }

    void fullyChangedMaskedTensorTravelsDense()
    {
        // Every element of fc2.weight changed to incompressible bit patterns: positions and
        // value codes would exceed the raw floats, so the writer ships it dense, and the other
        // tensors keep their masks' semantics.
        const auto old = modelState("mlp", 41);
        auto masks = randomMasks(old, 0.01, 42);
        std::fill(masks[2].begin(), masks[2].end(), uint8_t(1));
        auto next = roundLike(old, masks, 43);
        std::mt19937 rng(44);
        for (float& v : next[2].values) {
            uint32_t u = rng();
            if ((u & 0x7f800000u) == 0x7f800000u)
                u ^= 0x00800000u; // finite
            std::memcpy(&v, &u, 4);
        }
        const auto base = deviceFile(old, 1);
        {
            const ValueCoding coding = ValueCoding::Fp32; // q8 indices would still compress
            const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, coding, 2));
            const auto r = BundleApplier::apply(out.bytes, base, {});
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == out.targetFile);
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            const auto line = text.substr(text.find("fc2.weight"));
            QVERIFY2(line.substr(0, line.find('\n')).find("dense") != std::string::npos, text.c_str());
            for (size_t i = 0; i < next[2].values.size(); ++i)
                QVERIFY(sameBits(out.applied[2].values[i], next[2].values[i]));
            for (size_t i = 0; i < old[0].values.size(); ++i)
                if (!masks[0][i])
                    QVERIFY(sameBits(out.applied[0].values[i], old[0].values[i]));
        }
    }

    void reinitAndFull()
    {
        for (int coding = 1; coding <= 3; ++coding)
            for (double k : {0.0, 0.001, 0.01, 0.3})
                for (const char* shape : {"mlp", "conv"}) {
                    const auto target = modelState(shape, 5);
                    BundleInput in;
                    in.kind = Kind::ReinitDelta;
                    in.coding = ValueCoding(coding);
                    in.model = "test";
                    in.updateVersion = 7;
                    in.seed = 12345;
                    in.target = target;
                    in.masks = randomMasks(target, k, 9);
                    in.init = initRules(target);
                    const BundleOutput out = BundleWriter::write(in);
                    const auto r = BundleApplier::apply(out.bytes, {}, {});
                    QVERIFY2(r.status == 0, r.message.c_str());
                    QVERIFY(r.file == out.targetFile);
                    // Unmasked weights are the portable initialiser's values.
                    for (size_t t = 0; t < target.size(); ++t)
                        if (!in.masks[t].empty()) {
                            const auto init = BundleWriter::initialValues(target[t], in.init[t], in.seed);
                            for (size_t i = 0; i < init.size(); ++i)
                                if (!in.masks[t][i])
                                    QVERIFY(sameBits(out.applied[t].values[i], init[i]));
                        }
                    in.kind = Kind::Full;
                    const BundleOutput full = BundleWriter::write(in);
                    const auto rf = BundleApplier::apply(full.bytes, {}, {});
                    QVERIFY2(rf.status == 0, rf.message.c_str());
                    QVERIFY(rf.file == SafetensorsFile::write(target, SafetensorsFile::deviceMetadata("test", "", 7)));
                }
    }

    void unchangedDenseTensorsAreCopied()
    {
        const auto old = modelState("conv", 3);
        auto next = perturbed(old, 4);
        next[7] = old[7]; // running_mean unchanged
        const auto base = deviceFile(old, 1);
        const BundleOutput out = BundleWriter::write(deltaInput(base, next, randomMasks(old, 0.01, 1), ValueCoding::Fp32, 2));
        // Names come from the produced header, rebuilt from the base's; without it, numbers.
        auto lineOf = [](const std::string& text, const std::string& label) {
            const size_t at = text.find("  " + label + " ");
            return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
        };
        const std::string named = BundleInspector::inspect(out.bytes, &base);
        QVERIFY2(lineOf(named, "bn1.running_mean [16]").find(" copy, 0 bytes") != std::string::npos, named.c_str());
        QVERIFY2(lineOf(named, "conv1.weight [16x3x3x3]").find(" sparse fp32") != std::string::npos, named.c_str());
        const std::string numbered = BundleInspector::inspect(out.bytes);
        QVERIFY2(lineOf(numbered, "#7 [16 values]").find(" copy, 0 bytes") != std::string::npos, numbered.c_str());
        QVERIFY(numbered.find("names and shapes: inspect with the base file") != std::string::npos);
        const auto r = BundleApplier::apply(out.bytes, base, {});
        QVERIFY2(r.status == 0, r.message.c_str());
        QVERIFY(r.file == out.targetFile);
    }

    void positionCodeNearEntropy()
    {
        const size_t n = 400000;
        for (double k : {0.0005, 0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.38, 0.45, 0.5}) {
            std::vector<TensorData> t = {{"w", {int64_t(n / 400), 400}, std::vector<float>(n, 0.25f)}};
            const auto masks = randomMasks(t, k, 11);
            uint64_t changed = 0;
            for (uint8_t b : masks[0])
                changed += b;
            auto next = t;
            for (float& v : next[0].values)
                v = 0.5f;
            const auto base = deviceFile(t, 1);
            const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Fp32, 2));
            const double bound = 1.05 * entropy(double(changed) / double(n)) * double(n) + 64;
            QVERIFY2(double(out.stats.positionBits) <= bound,
                     qPrintable(QStringLiteral("k=%1: %2 bits > %3").arg(k).arg(out.stats.positionBits).arg(bound)));
        }
    }

    /// A sparse deployed model's update (issue 26): every changed position is a nonzero of the
    /// base, so the writer counts the gaps among the nonzeros (DPU_SPARSE_NONZERO): fewer
    /// position bits than over all weights, applied exactly by the device decoder, the zeros
    /// kept. A mask that also touches a zero keeps the gaps over all weights.
    void positionsAmongTheNonzeros()
    {
        auto old = modelState("mlp", 7);
        std::mt19937 rng(8);
        for (auto& t : old)
            if (t.shape.size() > 1)
                for (auto& v : t.values)
                    if (rng() & 1u)
                        v = 0.0f; // half pruned, at random
        const auto base = deviceFile(old, 1);
        std::vector<std::vector<uint8_t>> masks(old.size());
        uint64_t allGapBits = 0;
        for (size_t t = 0; t < old.size(); ++t) {
            if (old[t].shape.size() < 2)
                continue;
            masks[t].resize(old[t].values.size());
            std::vector<uint64_t> gaps;
            for (uint64_t i = 0, next = 0; i < masks[t].size(); ++i)
                if (old[t].values[i] != 0.0f && rng() % 5 == 0) {
                    masks[t][i] = 1;
                    gaps.push_back(i - next);
                    next = i + 1;
                }
            uint64_t bits = 0;
            SparseEncoder::bestRiceParameter(gaps, &bits);
            allGapBits += bits;
        }
        const auto next = roundLike(old, masks, 9);
        for (ValueCoding coding : {ValueCoding::Fp32, ValueCoding::Fp16, ValueCoding::Q8}) {
            const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, coding, 2));
            const std::string text = BundleInspector::inspect(out.bytes, &base);
            QVERIFY2(text.find("among the nonzeros") != std::string::npos, text.c_str());
            QVERIFY2(out.stats.positionBits < allGapBits * 9 / 10,
                     qPrintable(QStringLiteral("%1 position bits, %2 over all weights").arg(out.stats.positionBits).arg(allGapBits)));
            BundleApplier::Options o;
            o.currentVersion = 1;
            const auto r = BundleApplier::apply(out.bytes, base, o);
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY(r.file == out.targetFile);
            // NONZERO came after format 4's first decoders: the writer labels the bundle 5, so that
            // they refuse it as unsupported (DPU_E_FORMAT_VERSION) rather than as a bad section;
            // format-3 and -4 bundles with NONZERO, as writers made them before, still apply.
            QCOMPARE(int(out.bytes[4]), int(DPU_BUNDLE_FORMAT_NONZERO));
            for (uint8_t older : {uint8_t(3), uint8_t(4)}) {
                std::vector<uint8_t> relabelled = out.bytes;
                relabelled[4] = older;
                reseal(relabelled);
                const auto ro = BundleApplier::apply(relabelled, base, o);
                QVERIFY2(ro.status == 0 && ro.file == out.targetFile, ro.message.c_str());
            }
            for (size_t t = 0; t < old.size(); ++t)
                for (size_t i = 0; i < old[t].values.size(); ++i)
                    if (!masks[t].empty() && old[t].values[i] == 0.0f)
                        QVERIFY(out.applied[t].values[i] == 0.0f);
        }
        // One change on a zero in every partial tensor: the plain gaps, as before.
        auto touching = masks;
        for (size_t t = 0; t < old.size(); ++t)
            for (size_t i = 0; i < touching[t].size(); ++i)
                if (old[t].values[i] == 0.0f) {
                    touching[t][i] = 1;
                    break;
                }
        const BundleOutput plain =
            BundleWriter::write(deltaInput(base, roundLike(old, touching, 9), touching, ValueCoding::Fp32, 2));
        QVERIFY(BundleInspector::inspect(plain.bytes, &base).find("among the nonzeros") == std::string::npos);
        QCOMPARE(int(plain.bytes[4]), 3); // without NONZERO (or cq, or I8): format 3, as before
        BundleApplier::Options o;
        o.currentVersion = 1;
        QCOMPARE(BundleApplier::apply(plain.bytes, base, o).status, 0);
    }

    void sizesAgainstAnalytic()
    {
        // MLP-shaped delta at k = 0.01: report real bytes beside 32 kI + H(k) I (+ dense).
        const auto old = modelState("mlp", 21);
        const auto next = perturbed(old, 22);
        const auto masks = randomMasks(old, 0.01, 23);
        const auto base = deviceFile(old, 1);
        for (int coding = 1; coding <= 3; ++coding) {
            const BundleOutput out = BundleWriter::write(deltaInput(base, next, masks, ValueCoding(coding), 2));
            const double I = double(out.stats.partialWeights), k = double(out.stats.changed) / I;
            const double analytic = (32 * k * I + entropy(k) * I) / 8 + double(out.stats.denseBytes);
            qInfo("coding %d: bundle %llu bytes (positions %llu bits, values %llu bits, dense %llu, envelope %llu, "
                  "header %llu); analytic fp32 %.0f bytes",
                  coding, (unsigned long long)out.stats.totalBytes, (unsigned long long)out.stats.positionBits,
                  (unsigned long long)out.stats.valueBits, (unsigned long long)out.stats.denseBytes,
                  (unsigned long long)out.stats.envelopeBytes, (unsigned long long)out.stats.headerBytes, analytic);
            if (coding == 1)
                QVERIFY(double(out.stats.totalBytes) < analytic * 1.05 + 2048);
        }
    }
};

QTEST_APPLESS_MAIN(TestBundleRoundTrip)
#include "test_bundle_roundtrip.moc"
