// SPDX-License-Identifier: MIT
// The fuzz target's seed corpus (tests/data/bundle/corpus) is current: every value coding, kind
// and compact form (format 5's I8 tensors too), byte-identical to what the writer produces now,
// and each seed applies.
//
// Regenerate after a format change: DPU_WRITE_FUZZ_CORPUS=tests/data/bundle/corpus test_bundle_corpus
#include "BundleTestUtil.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"

#include <QtTest/QtTest>
#include <fstream>
#include <iterator>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

struct Seed {
    std::string name;
    std::vector<uint8_t> bundle, base;
    std::string form; ///< what BundleInspector must show, so each seed reaches its decoder
};

std::vector<Seed> seeds()
{
    std::vector<Seed> s;
    const char* codings[] = {"", "fp32", "fp16", "q8"};
    const auto tiny = modelState("tiny", 1);
    const auto tinyBase = deviceFile(tiny, 1);
    for (int c = 1; c <= 3; ++c) {
        BundleInput in = deltaInput(tinyBase, perturbed(tiny, 2), randomMasks(tiny, 0.3, 3), ValueCoding(c), 2);
        s.push_back({std::string("delta-") + codings[c], BundleWriter::write(in).bytes, tinyBase, "sparse"});
        makeReinit(in, tiny, 99);
        s.push_back({std::string("reinit-") + codings[c], BundleWriter::write(in).bytes, {}, "init+sparse"});
        if (c == 1) {
            in.kind = Kind::Full;
            s.push_back({"full-fp32", BundleWriter::write(in).bytes, {}, "dense"});
            // A sparse model's full bundle: its nonzeros over the constant-0 rule (2.6).
            for (size_t j = 0; j < in.target[0].values.size(); j += 2)
                in.target[0].values[j] = 0.f;
            s.push_back({"full-zeros", BundleWriter::write(in).bytes, {}, "init+sparse"});
        }
    }
    // A DPU-like round with more than 256 changes: fp32 direct words, binary16 q8 centroids and
    // an always-shipped tensor as an fp32 sparse section over the base.
    std::vector<TensorData> old = {{"w", {24, 16}, {}}, {"b", {64}, {}}};
    std::mt19937 rng(4);
    fillNormal(old, rng, 0.01f);
    const auto masks = randomMasks(old, 0.8, 5);
    const auto base = deviceFile(old, 1);
    auto next = roundLike(old, masks, 6);
    for (size_t i = 0; i < old[1].values.size(); ++i)
        next[1].values[i] = old[1].values[i] * 1.001f; // small dense changes: XOR sparse wins
    s.push_back({"round-fp32-direct", BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Fp32, 2)).bytes,
                 base, "direct"});
    s.push_back({"round-q8-f16", BundleWriter::write(deltaInput(base, next, masks, ValueCoding::Q8, 2)).bytes, base,
                 "f16 centroids"});
    // Format 4's cq sections: q8c's grid over the base, q4's and ternary's tables, q8c with the
    // always-shipped tensor quantised too, and a reinit q4 (cq over the seeded model).
    const std::pair<const char*, ValueCoding> cq[] = {
        {"q8c", ValueCoding::Q8c}, {"q4", ValueCoding::Q4}, {"ternary", ValueCoding::Ternary}};
    for (const auto& [name, coding] : cq)
        s.push_back({std::string("round-") + name, BundleWriter::write(deltaInput(base, next, masks, coding, 2)).bytes,
                     base, coding == ValueCoding::Q8c ? "cq grid diff" : "levels"});
    BundleInput dense = deltaInput(base, roundLike(old, masks, 6), masks, ValueCoding::Q8c, 2);
    dense.quantiseDense = true;
    s.push_back({"round-q8c-dense", BundleWriter::write(dense).bytes, base, "cq grid diff, 64/64 changed"});
    BundleInput reinitQ4 = deltaInput(base, next, masks, ValueCoding::Q4, 2);
    makeReinit(reinitQ4, old, 5);
    s.push_back({"reinit-q4", BundleWriter::write(reinitQ4).bytes, {}, "init+sparse cq table"});
    // BatchNorm-like tensors that all change: the shared dense stream, XOR (delta) and direct (reinit).
    std::vector<TensorData> bn = withNormLayers({"conv.weight", {8, 4, 3, 3}, {}}, 8);
    fillNormal(bn, rng, 0.01f);
    const auto bnMasks = randomMasks(bn, 0.05, 7);
    const auto bnBase = deviceFile(bn, 1);
    BundleInput in = deltaInput(bnBase, perturbed(bn, 8), bnMasks, ValueCoding::Fp32, 2);
    s.push_back({"pooled-delta", BundleWriter::write(in).bytes, bnBase, "shared dense stream (here: xor)"});
    makeReinit(in, bn, 7);
    s.push_back({"pooled-reinit", BundleWriter::write(in).bytes, {}, "shared dense stream (here: direct)"});
    // Format 5's I8 tensors: raw new codes, Huffman-coded differences among the nonzeros of a
    // sparse model, and dense codes in a reinit bundle.
    const auto i8Tiny = int8State("tiny", 1);
    const auto i8TinyBase = deviceFile(i8Tiny, 1);
    const auto i8TinyMasks = randomMasks(i8Tiny, 0.4, 2);
    s.push_back({"int8-codes",
                 BundleWriter::write(deltaInput(i8TinyBase, int8Round(i8Tiny, i8TinyMasks, 3, false), i8TinyMasks,
                                                ValueCoding::Fp32, 2)).bytes,
                 i8TinyBase, "codes raw"});
    const auto i8 = int8State("conv", 4, 0.3);
    const auto i8Base = deviceFile(i8, 1);
    auto i8Masks = randomMasks(i8, 0.2, 5);
    for (size_t t = 0; t < i8.size(); ++t)
        for (size_t j = 0; j < i8Masks[t].size(); ++j)
            i8Masks[t][j] = i8Masks[t][j] && i8[t].codes[j] != 0;
    in = deltaInput(i8Base, int8Round(i8, i8Masks, 6, true), i8Masks, ValueCoding::Fp32, 2);
    s.push_back({"int8-diff-nonzero", BundleWriter::write(in).bytes, i8Base, "diff huffman"});
    makeReinit(in, i8, 8);
    s.push_back({"int8-reinit", BundleWriter::write(in).bytes, {}, "I8 dense"});
    return s;
}

// The mcu_apply fixture of format 5 (tests/data/mcu/int8): an INT8 model's chain from no device
// file, since no engine run makes one yet. Round 1 a reinit+delta (dense codes), round 2 a delta
// with raw codes, Huffman-coded differences among the nonzeros and a copied I8 tensor.
std::vector<std::vector<uint8_t>> mcuInt8Chain()
{
    auto state = int8State("conv", 11, 0.3);
    BundleInput in = deltaInput({}, state, randomMasks(state, 0.1, 12), ValueCoding::Fp32, 1);
    makeReinit(in, state, 13);
    const BundleOutput first = BundleWriter::write(in);
    auto masks = randomMasks(state, 0.2, 14);
    for (size_t t = 0; t < state.size(); ++t)
        for (size_t j = 0; j < masks[t].size(); ++j)
            masks[t][j] = masks[t][j] && state[t].codes[j] != 0 && state[t].name != "dw.weight";
    const auto next = int8Round(state, masks, 15, true);
    return {first.bytes, BundleWriter::write(deltaInput(first.targetFile, next, masks, ValueCoding::Fp32, 2)).bytes};
}

std::vector<uint8_t> readFile(const QString& path)
{
    std::ifstream f(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

} // namespace

class TestBundleCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void corpusIsCurrent()
    {
        const QString dir = qEnvironmentVariableIsSet("DPU_WRITE_FUZZ_CORPUS")
                                ? qEnvironmentVariable("DPU_WRITE_FUZZ_CORPUS")
                                : QStringLiteral(DPU_FUZZ_CORPUS_DIR);
        const bool write = qEnvironmentVariableIsSet("DPU_WRITE_FUZZ_CORPUS");
        for (const Seed& s : seeds()) {
            const auto r = BundleApplier::apply(s.bundle, s.base, {});
            QVERIFY2(r.status == 0, r.message.c_str());
            QVERIFY2(BundleInspector::inspect(s.bundle).find(s.form) != std::string::npos, s.name.c_str());
            // Input byte 0 selects the harness mode: 0 raw, 1 digests recomputed (resealed).
            for (uint8_t mode : {0, 1}) {
                std::vector<uint8_t> input{mode};
                input.insert(input.end(), s.bundle.begin(), s.bundle.end());
                const QString path = dir + "/seed-" + QString::fromStdString(s.name) + (mode ? "-resealed" : "-raw");
                if (write) {
                    std::ofstream f(path.toStdString(), std::ios::binary);
                    f.write(reinterpret_cast<const char*>(input.data()), std::streamsize(input.size()));
                    QVERIFY(bool(f));
                }
                QVERIFY2(readFile(path) == input, qPrintable(path + " is stale: regenerate (see the file header)"));
            }
        }
    }

    void mcuInt8ChainIsCurrent()
    {
        // Regenerate with DPU_WRITE_MCU_FIXTURES=tests/data/mcu test_bundle_corpus.
        const bool write = qEnvironmentVariableIsSet("DPU_WRITE_MCU_FIXTURES");
        const QString dir = (write ? qEnvironmentVariable("DPU_WRITE_MCU_FIXTURES") : QStringLiteral(DPU_MCU_FIXTURE_DIR)) +
                            "/int8";
        const auto chain = mcuInt8Chain();
        std::vector<uint8_t> file;
        for (size_t r = 0; r < chain.size(); ++r) {
            BundleApplier::Options o;
            o.currentVersion = r;
            const auto applied = BundleApplier::apply(chain[r], file, o);
            QVERIFY2(applied.status == 0, applied.message.c_str());
            file = applied.file;
            const QString path = dir + QStringLiteral("/round-%1.dpub").arg(r + 1, 3, 10, QLatin1Char('0'));
            if (write) {
                QDir().mkpath(dir);
                std::ofstream f(path.toStdString(), std::ios::binary);
                f.write(reinterpret_cast<const char*>(chain[r].data()), std::streamsize(chain[r].size()));
                QVERIFY(bool(f));
            }
            QVERIFY2(readFile(path) == chain[r], qPrintable(path + " is stale: regenerate (see the test)"));
        }
        const std::string text = BundleInspector::inspect(chain[1]);
        for (const char* form : {"codes raw", "diff huffman", "among the nonzeros", "I8 copy"})
            QVERIFY2(text.find(form) != std::string::npos, text.c_str());
    }
};

QTEST_APPLESS_MAIN(TestBundleCorpus)
#include "test_bundle_corpus.moc"
