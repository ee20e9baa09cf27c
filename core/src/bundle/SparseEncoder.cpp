// SPDX-License-Identifier: MIT
// Sparse section layout (docs/bundle-format.md, "Sparse sections"): count, Rice parameter,
// plane mask, q8 centroids, Huffman length tables, then per change: gap code + value codes.
#include "bundle/SparseEncoder.h"
#include "bundle/BitWriter.h"
#include "bundle/HalfFloat.h"
#include "bundle/HuffmanCode.h"
#include "bundle/Quantizer.h"
#include "dpu_codes.h"

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
    std::vector<uint32_t> word(pos.size());
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
    std::vector<std::array<uint64_t, 256>> freq(planes);
    for (auto& f : freq)
        f.fill(0);
    for (uint32_t w : word)
        for (unsigned p = 0; p < planes; ++p)
            freq[p][(w >> (8 * p)) & 0xffu]++;
    std::vector<HuffmanCode> codes;
    unsigned planeMask = 0;
    for (unsigned p = 0; p < planes; ++p) {
        codes.emplace_back(freq[p]);
        if (!pos.empty() && codes[p].cost(freq[p]) < 8 * uint64_t(pos.size()))
            planeMask |= 1u << p; // Huffman beats raw bytes, table included
    }
    const unsigned k = bestRiceParameter(gaps);

    BitWriter w;
    for (int i = 0; i < 8; ++i)
        w.byte(uint8_t(uint64_t(pos.size()) >> (8 * i)));
    w.byte(uint8_t(k));
    w.byte(uint8_t(planeMask));
    if (coding == ValueCoding::Q8) {
        const auto& c = q->centroids();
        w.byte(uint8_t(c.size()));
        w.byte(uint8_t(c.size() >> 8));
        for (float f : c)
            for (int i = 0; i < 4; ++i)
                w.byte(uint8_t(dpu_float_bits(f) >> (8 * i)));
    }
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
                codes[p].write(w, sym);
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
