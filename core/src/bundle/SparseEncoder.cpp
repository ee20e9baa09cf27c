// SPDX-License-Identifier: MIT
// Sparse section layout (docs/bundle-format.md, "Sparse sections"): count, Rice parameter,
// plane mask, q8 centroids, Huffman length tables, then per change: gap code + value codes.
#include "bundle/SparseEncoder.h"
#include "bundle/BitWriter.h"
#include "bundle/HalfFloat.h"
#include "bundle/HuffmanCode.h"
#include "bundle/Quantizer.h"
#include "dpu_bundle.h"
#include "dpu_codes.h"

#include <algorithm>
#include <array>
#include <memory>

namespace dpu::bundle {

unsigned SparseEncoder::bestRiceParameter(const std::vector<uint64_t>& gaps, uint64_t* bits)
{
    unsigned best = 0;
    uint64_t bestBits = UINT64_MAX;
    for (unsigned k = 0; k < 32; ++k) {
        uint64_t total = 0;
        for (uint64_t g : gaps)
            total += (g >> k) + 1 + k;
        if (total < bestBits) { // all 32 tried: cheap, and no convexity assumption
            bestBits = total;
            best = k;
        }
    }
    if (bits)
        *bits = gaps.empty() ? 0 : bestBits;
    return best;
}

uint64_t SparseEncoder::planeCodes(const std::vector<uint32_t>& word, unsigned planes,
                                   std::vector<HuffmanCode>& codes, unsigned& planeMask)
{
    std::vector<std::array<uint64_t, 256>> freq(planes);
    for (auto& f : freq)
        f.fill(0);
    for (uint32_t w : word)
        for (unsigned p = 0; p < planes; ++p)
            freq[p][(w >> (8 * p)) & 0xffu]++;
    codes.clear();
    codes.reserve(planes);
    planeMask = 0;
    uint64_t bits = 0;
    for (unsigned p = 0; p < planes; ++p) {
        codes.emplace_back(freq[p]);
        const uint64_t huff = codes[p].cost(freq[p]), raw = 8 * uint64_t(word.size());
        if (!word.empty() && huff < raw)
            planeMask |= 1u << p; // Huffman beats raw bytes, table included
        bits += std::min(huff, raw);
    }
    return bits;
}

void SparseEncoder::writeCentroids(BitWriter& w, const std::vector<float>& centroids, bool half)
{
    w.byte(uint8_t(centroids.size()));
    w.byte(uint8_t(centroids.size() >> 8));
    w.byte(uint8_t(half ? DPU_CENTROIDS_F16 : DPU_CENTROIDS_F32));
    if (!half) {
        for (float f : centroids)
            for (int i = 0; i < 4; ++i)
                w.byte(uint8_t(dpu_float_bits(f) >> (8 * i)));
        return;
    }
    // Sorted centroids have non-decreasing order-preserving keys: code the first, then the steps.
    std::vector<uint32_t> keys;
    for (float f : centroids) {
        const uint32_t h = HalfFloat::fromFloat(f);
        keys.push_back((h & 0x8000u) ? (~h & 0x7fffu) : (h | 0x8000u));
    }
    unsigned best = 0;
    uint64_t bestBits = UINT64_MAX;
    for (unsigned r = 0; r < 16; ++r) {
        uint64_t bits = 0;
        for (size_t i = 1; i < keys.size(); ++i)
            bits += ((keys[i] - keys[i - 1]) >> r) + 1 + r;
        if (bits < bestBits) {
            bestBits = bits;
            best = r;
        }
    }
    w.byte(uint8_t(best));
    w.byte(uint8_t(keys[0]));
    w.byte(uint8_t(keys[0] >> 8));
    for (size_t i = 1; i < keys.size(); ++i)
        w.rice(keys[i] - keys[i - 1], best);
    w.align();
}

bool SparseEncoder::nonzeroGapsOf(const std::vector<float>& source, const std::vector<uint64_t>& positions,
                                   std::vector<uint64_t>& gaps)
{
    gaps.clear();
    if (std::find(source.begin(), source.end(), 0.0f) == source.end())
        return false; // a dense source: the same gaps
    uint64_t skipped = 0; // nonzeros passed since the last change
    size_t c = 0;
    for (uint64_t i = 0; i < source.size() && c < positions.size(); ++i) {
        if (source[i] == 0.0f) { // -0.0 too, as the decoder compares
            if (i == positions[c])
                return false; // a zero changes: not expressible among the nonzeros
            continue;
        }
        if (i == positions[c]) {
            gaps.push_back(skipped);
            skipped = 0;
            ++c;
        } else {
            ++skipped;
        }
    }
    return c == positions.size();
}

unsigned SparseEncoder::chooseGaps(const std::vector<float>& source, const std::vector<uint64_t>& positions,
                                   std::vector<uint64_t>& gaps, unsigned& planeMask)
{
    uint64_t over = 0;
    unsigned k = bestRiceParameter(gaps, &over);
    // A sparse deployed model's updates change only nonzeros: counting the gaps over those
    // alone (the device reads them from its own file) codes fewer and shorter gaps.
    std::vector<uint64_t> nonzeroGaps;
    if (nonzeroGapsOf(source, positions, nonzeroGaps)) {
        uint64_t among = 0;
        const unsigned kn = bestRiceParameter(nonzeroGaps, &among);
        if (among < over) {
            gaps.swap(nonzeroGaps);
            k = kn;
            planeMask |= DPU_SPARSE_NONZERO;
        }
    }
    return k;
}

void SparseEncoder::writeHead(BitWriter& w, uint64_t count, unsigned k, unsigned planeMask)
{
    for (int i = 0; i < 8; ++i)
        w.byte(uint8_t(count >> (8 * i)));
    w.byte(uint8_t(k));
    w.byte(uint8_t(planeMask));
}

std::vector<uint8_t> SparseEncoder::encode(const std::vector<float>& source, const std::vector<float>& target,
                                           const std::vector<uint8_t>& mask, ValueCoding coding,
                                           std::vector<float>& applied, BundleStats& stats)
{
    const unsigned planes = coding == ValueCoding::Fp32 ? 4 : coding == ValueCoding::Fp16 ? 2 : 1;
    applied = source;
    std::vector<uint64_t> pos, gaps;
    std::vector<float> newValues;
    for (uint64_t i = 0, next = 0; i < mask.size(); ++i)
        if (mask[i]) {
            pos.push_back(i);
            gaps.push_back(i - next);
            next = i + 1;
            newValues.push_back(target[i]);
        }
    // Symbols per change and plane; applied values exactly as the device will decode them.
    std::unique_ptr<Quantizer> q;
    if (coding == ValueCoding::Q8)
        q = std::make_unique<Quantizer>(newValues);
    std::vector<uint32_t> word(pos.size()), direct;
    // Lossy anyway unless exact: a binary16 table costs about a quarter of an f32 one.
    const bool halfTable = coding == ValueCoding::Q8 && !q->exact() && q->roundToHalf();
    for (size_t c = 0; c < pos.size(); ++c) {
        const float nv = newValues[c];
        if (coding == ValueCoding::Fp32) {
            word[c] = dpu_float_bits(nv) ^ dpu_float_bits(source[pos[c]]);
            applied[pos[c]] = nv;
        } else if (coding == ValueCoding::Fp16) {
            word[c] = HalfFloat::fromFloat(nv);
            applied[pos[c]] = dpu_half_to_float(uint16_t(word[c]));
        } else {
            word[c] = q->index(nv);
            applied[pos[c]] = q->centroids()[word[c]];
        }
    }
    std::vector<HuffmanCode> codes;
    unsigned planeMask = 0;
    const uint64_t wordBits = planeCodes(word, planes, codes, planeMask);
    if (coding == ValueCoding::Fp32) {
        // A DPU round's changed weights move by more than their own size (top-k by change), so
        // their bits share little with the old value: then the new bits themselves code smaller.
        direct.resize(pos.size());
        for (size_t c = 0; c < pos.size(); ++c)
            direct[c] = dpu_float_bits(newValues[c]);
        std::vector<HuffmanCode> directCodes;
        unsigned directMask = 0;
        if (planeCodes(direct, planes, directCodes, directMask) < wordBits) {
            word.swap(direct);
            codes.swap(directCodes);
            planeMask = directMask | DPU_SPARSE_DIRECT;
        }
    }
    const unsigned k = chooseGaps(source, pos, gaps, planeMask);
    BitWriter w;
    writeHead(w, pos.size(), k, planeMask);
    if (coding == ValueCoding::Q8)
        writeCentroids(w, q->centroids(), halfTable);
    for (unsigned p = 0; p < planes; ++p)
        if (planeMask >> p & 1u)
            codes[p].writeTable(w);
    for (size_t c = 0; c < pos.size(); ++c) {
        const uint64_t before = w.bits();
        w.rice(gaps[c], k);
        const uint64_t mid = w.bits();
        for (unsigned p = 0; p < planes; ++p) {
            const unsigned sym = (word[c] >> (8 * p)) & 0xffu;
            if (planeMask >> p & 1u)
                codes[p].write(w, sym); // bit 4 (DPU_SPARSE_DIRECT) is no plane: p < 4
            else
                w.byte(uint8_t(sym));
        }
        stats.positionBits += mid - before;
        stats.valueBits += w.bits() - mid;
    }
    stats.changed += pos.size();
    stats.partialWeights += mask.size();
    return w.finish();
}

} // namespace dpu::bundle
