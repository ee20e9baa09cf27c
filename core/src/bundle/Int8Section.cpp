// SPDX-License-Identifier: MIT
// I8 tensors in format-5 bundles: the writer's sparse i8 sections and the choice of copy, dense or sparse.
#include "bundle/Int8Section.h"
#include "dpu/InternalCheck.h"
#include "bundle/BitWriter.h"
#include "bundle/HuffmanCode.h"
#include "bundle/SparseEncoder.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"

namespace dpu::bundle {

namespace {

// The shorter of the two words per change, `raw` (new codes) or `diff` (differences mod 256),
// each with its plane coded raw or Huffman as SparseEncoder::planeCodes decides; leaves the
// chosen words in `raw` and sets `planeMask` (bit 0 Huffman, DPU_SPARSE_DIFF for differences).
// Retrained int8 codes often move by a few steps: their differences concentrate near 0 and code
// shorter; a code unrelated to its old one codes no worse raw.
void chooseWords(std::vector<uint32_t>& raw, std::vector<uint32_t>& diff, std::vector<HuffmanCode>& codes,
                 unsigned& planeMask)
{
    std::vector<HuffmanCode> diffCodes;
    unsigned diffMask = 0;
    if (SparseEncoder::planeCodes(diff, 1, diffCodes, diffMask) < SparseEncoder::planeCodes(raw, 1, codes, planeMask)) {
        raw.swap(diff);
        codes.swap(diffCodes);
        planeMask = diffMask | DPU_SPARSE_DIFF;
    }
}

} // namespace

std::vector<uint8_t> Int8Section::encode(const std::vector<int8_t>& source, const std::vector<int8_t>& target,
                                         const std::vector<uint8_t>& mask, std::vector<int8_t>& applied,
                                         BundleStats& stats)
{
    applied = source;
    std::vector<uint64_t> pos, gaps;
    std::vector<uint32_t> raw, diff;
    for (uint64_t i = 0, next = 0; i < mask.size(); ++i)
        if (mask[i]) {
            pos.push_back(i);
            gaps.push_back(i - next);
            next = i + 1;
            raw.push_back(uint8_t(target[i]));
            diff.push_back(uint8_t(uint8_t(target[i]) - uint8_t(source[i]))); // mod 256
            applied[i] = target[i];
        }
    std::vector<HuffmanCode> codes;
    unsigned planeMask = 0;
    chooseWords(raw, diff, codes, planeMask);
    // A sparse deployed model changes only its nonzero codes: the gaps among those are shorter.
    // The float copy is exact (|code| <= 128) and zero exactly where the code is.
    const unsigned k = SparseEncoder::chooseGaps(std::vector<float>(source.begin(), source.end()), pos, gaps, planeMask);
    BitWriter w;
    SparseEncoder::writeHead(w, pos.size(), k, planeMask);
    if (planeMask & 1u)
        codes[0].writeTable(w);
    for (size_t c = 0; c < pos.size(); ++c) {
        const uint64_t before = w.bits();
        w.rice(gaps[c], k);
        const uint64_t mid = w.bits();
        if (planeMask & 1u)
            codes[0].write(w, raw[c]);
        else
            w.byte(uint8_t(raw[c]));
        stats.positionBits += mid - before;
        stats.valueBits += w.bits() - mid;
    }
    stats.changed += pos.size();
    stats.partialWeights += mask.size();
    return w.finish();
}

PlannedTensor Int8Section::plan(const BundleInput& in, const std::vector<TensorData>& base, size_t i,
                                BundleOutput& out)
{
    const TensorData& t = in.target[i];
    const bool masked = in.kind != Kind::Full && !in.masks[i].empty();
    DPU_INTERNAL_CHECK(!masked || in.masks[i].size() == t.codes.size(), "bundle: mask of " + t.name + " has " +
                                                                          std::to_string(in.masks[i].size()) + " entries, tensor " +
                                                                          std::to_string(t.codes.size()));
    PlannedTensor p;
    if (in.kind != Kind::Delta) {
        p.section.assign(t.codes.begin(), t.codes.end());
        out.stats.denseBytes += p.section.size();
        return p;
    }
    const std::vector<int8_t>& old = base[i].codes;
    std::vector<uint8_t> changed = masked ? in.masks[i] : std::vector<uint8_t>(old.size());
    bool any = false;
    for (size_t j = 0; j < changed.size(); ++j) {
        if (!masked)
            changed[j] = old[j] != t.codes[j];
        any |= changed[j] != 0;
    }
    if (!any) { // nothing to change: the device's own codes
        p.mode = DPU_MODE_COPY;
        out.applied[i].codes = old;
        return p;
    }
    BundleStats s;
    std::vector<int8_t> applied;
    std::vector<uint8_t> sparse = encode(old, t.codes, changed, applied, s);
    if (sparse.size() < applied.size()) {
        p.mode = DPU_MODE_SPARSE;
        p.coding = DPU_CODING_I8;
        p.section.swap(sparse);
    } else { // nearly every code changed: the codes themselves are smaller
        p.section.assign(applied.begin(), applied.end());
    }
    if (masked && p.mode == DPU_MODE_SPARSE) {
        out.stats.positionBits += s.positionBits;
        out.stats.valueBits += s.valueBits;
        out.stats.changed += s.changed;
        out.stats.partialWeights += s.partialWeights;
        out.stats.sparseBytes += p.section.size();
    } else {
        out.stats.denseBytes += p.section.size();
    }
    out.applied[i].codes.swap(applied);
    return p;
}

} // namespace dpu::bundle
