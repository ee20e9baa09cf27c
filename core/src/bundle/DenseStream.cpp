// SPDX-License-Identifier: MIT
// Shared dense stream: byte planes of every pooled value under one set of Huffman tables, so that
// many small always-shipped tensors (BatchNorm) do not each pay for their own tables.
#include "bundle/DenseStream.h"
#include "dpu/InternalCheck.h"
#include "bundle/BitWriter.h"
#include "bundle/HuffmanCode.h"
#include "bundle/SparseEncoder.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"
#include "dpu_codes.h"

namespace dpu::bundle {

std::vector<uint8_t> DenseStream::encode(const std::vector<const std::vector<float>*>& targets,
                                         const std::vector<const std::vector<float>*>& bases)
{
    DPU_INTERNAL_CHECK(bases.empty() || bases.size() == targets.size(),
                       "dense stream: " + std::to_string(bases.size()) + " bases for " + std::to_string(targets.size()) + " tensors");
    std::vector<uint32_t> direct, xored;
    for (size_t t = 0; t < targets.size(); ++t) {
        DPU_INTERNAL_CHECK(bases.empty() || bases[t]->size() == targets[t]->size(),
                           "dense stream: tensor " + std::to_string(t) + " differs in size from its base");
        for (size_t i = 0; i < targets[t]->size(); ++i) {
            direct.push_back(dpu_float_bits((*targets[t])[i]));
            if (!bases.empty())
                xored.push_back(direct.back() ^ dpu_float_bits((*bases[t])[i]));
        }
    }
    std::vector<HuffmanCode> codes;
    unsigned mask = 0;
    const uint64_t directBits = SparseEncoder::planeCodes(direct, 4, codes, mask);
    mask |= DPU_SPARSE_DIRECT;
    const std::vector<uint32_t>* words = &direct;
    if (!bases.empty()) {
        std::vector<HuffmanCode> xorCodes;
        unsigned xorMask = 0;
        if (SparseEncoder::planeCodes(xored, 4, xorCodes, xorMask) < directBits) {
            codes.swap(xorCodes);
            mask = xorMask;
            words = &xored;
        }
    }
    BitWriter w;
    w.byte(uint8_t(mask));
    for (unsigned p = 0; p < 4; ++p)
        if (mask >> p & 1u)
            codes[p].writeTable(w);
    for (uint32_t x : *words)
        for (unsigned p = 0; p < 4; ++p) {
            const unsigned sym = (x >> (8 * p)) & 0xffu;
            if (mask >> p & 1u)
                codes[p].write(w, sym);
            else
                w.byte(uint8_t(sym));
        }
    return w.finish();
}

} // namespace dpu::bundle
