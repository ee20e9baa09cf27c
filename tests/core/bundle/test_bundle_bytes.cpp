// SPDX-License-Identifier: MIT
// Where a bundle's bytes go (dpu-cli bundle inspect --bytes): every bit of every section counted once, positions and values as the writer coded them.
#include "BundleTestUtil.h"
#include "TestSupport.h"
#include "bundle/BundleInspector.h"
#include "bundle/SectionBytes.h"

#include <QtTest/QtTest>
#include <regex>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

struct Summary {
    uint64_t bytes = 0, envelope = 0, table = 0, header = 0;
    std::map<std::string, std::map<std::string, uint64_t>> roles; // role -> part -> bits
};

/// The summary lines of BundleInspector::inspect(..., bytes = true).
Summary summaryOf(const std::string& text)
{
    Summary s;
    std::smatch m;
    std::istringstream in(text);
    std::string line;
    static const std::regex total(R"(^where the bytes go \((\d+) bytes\):$)");
    static const std::regex part(R"(^  (envelope|tensor table|section H) (\d+) B )");
    static const std::regex role(R"(^  ([a-zA-Z1() -]+?) \d+ B \([^)]*\): (.*), (\d+) changed$)");
    static const std::regex field(R"(([a-z ]+?) (\d+)(?: \(positions and levels\))?(?:, |$))");
    while (std::getline(in, line)) {
        if (std::regex_match(line, m, total)) {
            s.bytes = std::stoull(m[1]);
        } else if (std::regex_search(line, m, part)) {
            (m[1] == "envelope" ? s.envelope : m[1] == "tensor table" ? s.table : s.header) = std::stoull(m[2]);
        } else if (s.bytes > 0 && std::regex_match(line, m, role)) {
            auto& r = s.roles[m[1]];
            const std::string parts = m[2];
            for (std::sregex_iterator it(parts.begin(), parts.end(), field), end; it != end; ++it)
                r[(*it)[1]] = std::stoull((*it)[2]);
            r["changed"] = std::stoull(m[3]);
        }
    }
    return s;
}

uint64_t sectionBits(const Summary& s)
{
    uint64_t bits = 0;
    for (const auto& [role, parts] : s.roles)
        for (const auto& [name, v] : parts)
            bits += name == "changed" ? 0 : v;
    return bits;
}

} // namespace

class TestBundleBytes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every coding and kind: the parts add up to the bundle, bit for bit, and the partial tensors'
    // positions and values are the bits the writer spent on them (its own accounting).
    void partsAddUpToTheBundle()
    {
        const auto mlp = modelState("mlp", 81);
        const auto masks = randomMasks(mlp, 0.03, 82);
        const auto next = roundLike(mlp, masks, 83);
        const std::vector<uint8_t> base = deviceFile(mlp, 1);
        for (ValueCoding c : {ValueCoding::Fp32, ValueCoding::Fp16, ValueCoding::Q8, ValueCoding::Q8c, ValueCoding::Q4}) {
            BundleInput in = deltaInput(base, next, masks, c, 2);
            const BundleOutput out = BundleWriter::write(in);
            const Summary s = summaryOf(BundleInspector::inspect(out.bytes, &base, true));
            QCOMPARE(s.bytes, uint64_t(out.bytes.size()));
            QCOMPARE(8 * (s.envelope + s.table + s.header) + sectionBits(s), 8 * uint64_t(out.bytes.size()));
            QCOMPARE(s.header, out.stats.headerBytes);
            QVERIFY(s.roles.count("weights") && s.roles.count("1-D tensors (biases)"));
            const auto& w = s.roles.at("weights");
            QCOMPARE(w.at("changed"), out.stats.changed);
            if (c == ValueCoding::Q8c || c == ValueCoding::Q4) { // one arithmetic stream
                QVERIFY(w.at("cq stream") > 0); // (a tensor q8 codes exactly travels fp32: positions too)
                continue;
            }
            QCOMPARE(w.at("positions"), out.stats.positionBits);
            QCOMPARE(w.at("values"), out.stats.valueBits);
        }
        // A reinit+delta with the biases in the shared dense stream, and a plain full bundle.
        BundleInput reinit = deltaInput({}, next, masks, ValueCoding::Fp32, 1);
        makeReinit(reinit, next, 84);
        for (const BundleInput& in : {reinit, [&] { BundleInput f = reinit; f.kind = Kind::Full; f.masks.clear(); f.init.clear(); return f; }()}) {
            const BundleOutput out = BundleWriter::write(in);
            const Summary s = summaryOf(BundleInspector::inspect(out.bytes, nullptr, true));
            QCOMPARE(8 * (s.envelope + s.table + s.header) + sectionBits(s), 8 * uint64_t(out.bytes.size()));
        }
    }

    // An INT8 model's delta: codes under "weights", the scales on their own, the codes' positions
    // and values as the writer spent them; without the base the tensors are grouped by entry.
    void int8RolesAndUnnamedDeltas()
    {
        const auto old = int8State("mlp", 85);
        const auto masks = randomMasks(old, 0.02, 86);
        const std::vector<uint8_t> base = deviceFile(old, 1);
        const BundleOutput out = BundleWriter::write(deltaInput(base, int8Round(old, masks, 87, true), masks, ValueCoding::Fp32, 2));
        const Summary named = summaryOf(BundleInspector::inspect(out.bytes, &base, true));
        QVERIFY(named.roles.count("weights") && named.roles.count("scales") && named.roles.count("1-D tensors (biases)"));
        uint64_t changed = 0;
        for (const auto& m : masks)
            changed += uint64_t(std::count(m.begin(), m.end(), uint8_t(1)));
        QCOMPARE(named.roles.at("weights").at("changed"), changed);
        QCOMPARE(8 * (named.envelope + named.table + named.header) + sectionBits(named), 8 * uint64_t(out.bytes.size()));
        const Summary unnamed = summaryOf(BundleInspector::inspect(out.bytes, nullptr, true));
        QVERIFY(unnamed.roles.count("partial tensors") && !unnamed.roles.count("weights"));
        QCOMPARE(sectionBits(unnamed), sectionBits(named));
        QVERIFY(BundleInspector::inspect(out.bytes, &base).find("where the bytes go") == std::string::npos);
    }

    // A section it cannot walk (a count past its records, a cut stream) is an Error naming the
    // tensor, never a crash or a read past the bundle.
    void malformedSectionsAreErrors()
    {
        const auto mlp = modelState("mlp", 88);
        const auto masks = randomMasks(mlp, 0.03, 89);
        const std::vector<uint8_t> base = deviceFile(mlp, 1);
        const BundleOutput out = BundleWriter::write(deltaInput(base, roundLike(mlp, masks, 90), masks, ValueCoding::Fp32, 2));
        const auto spans = sectionSpans(out.bytes);
        std::vector<uint8_t> b = out.bytes;
        b[spans[1].first + 6] = 1; // the first tensor's change count: 2^48, past the tensor
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, BundleInspector::inspect(b, &base, true), "tensor #0");
        SectionBytes sections(out.bytes);
        QVERIFY_THROWS_EXCEPTION(dpu::Error, sections.sparse(0, spans[1].first, spans[1].second / 2, DPU_CODING_FP32, 256 * 784));
        QVERIFY_THROWS_EXCEPTION(dpu::Error, sections.sparse(0, out.bytes.size() - 4, 10, DPU_CODING_FP32, 256 * 784));
    }
};

QTEST_GUILESS_MAIN(TestBundleBytes)
#include "test_bundle_bytes.moc"
