// SPDX-License-Identifier: MIT
// Walks sparse sections and the shared dense stream bit by bit with the device's decoders to count what each part costs.
#include "bundle/SectionBytes.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"

#include <cstring>
#include <string>

namespace dpu::bundle {

namespace {

int readVector(void* user, uint64_t offset, uint8_t* buf, size_t len)
{
    const auto& v = *static_cast<const std::vector<uint8_t>*>(user);
    if (offset > v.size() || len > v.size() - offset)
        return 1;
    std::memcpy(buf, v.data() + offset, len);
    return 0;
}

// Bits read so far from a reader started at `start` (dpu_bits keeps a 64-byte window).
uint64_t bitsRead(const dpu_bits& b, uint64_t start)
{
    return (b.next - b.have + b.pos - start) * 8 + b.bit;
}

[[noreturn]] void fail(uint64_t index, const std::string& what)
{
    throw Error("bundle: tensor #" + std::to_string(index) + ": " + what + " (run dpu-cli bundle verify)");
}

unsigned planesOf(unsigned coding)
{
    return coding == DPU_CODING_FP32 ? 4 : coding == DPU_CODING_FP16 ? 2 : 1;
}

// One value word: per byte plane a Huffman code (its bit set in `flags`) or 8 raw bits.
void readWord(dpu_bits& b, const dpu_huff* huff, unsigned flags, unsigned planes, uint64_t index)
{
    for (unsigned p = 0; p < planes; ++p) {
        const int sym = (flags >> p & 1u) ? dpu_huff_get(&huff[p], &b) : int(dpu_bits_get(&b, 8));
        if (sym < 0 || b.error)
            fail(index, "a value code runs out or is no code");
    }
}

// The Huffman tables of the planes whose bit is set in `flags`.
void readTables(dpu_bits& b, dpu_huff* huff, unsigned flags, unsigned planes, uint64_t index)
{
    uint8_t lengths[256];
    for (unsigned p = 0; p < planes; ++p)
        if ((flags >> p & 1u) && (dpu_huff_read_lengths(&b, lengths) != DPU_OK || dpu_huff_build(&huff[p], lengths) != DPU_OK))
            fail(index, "a Huffman table runs past the section or is invalid");
}

// A q8 centroid table (section 4): u16 C, u8 form, then C f32 or a Rice-coded key list, aligned.
void skipCentroids(dpu_bits& b, uint64_t index)
{
    const uint32_t c = dpu_bits_get(&b, 8) | dpu_bits_get(&b, 8) << 8, form = dpu_bits_get(&b, 8);
    if (form == DPU_CENTROIDS_F32) {
        for (uint32_t i = 0; i < c; ++i)
            dpu_bits_get(&b, 32);
    } else {
        const unsigned r = dpu_bits_get(&b, 8);
        dpu_bits_get(&b, 16);
        int ok = 1;
        for (uint32_t i = 1; i < c && ok; ++i)
            dpu_rice_get(&b, r, 0xffff, &ok);
        if (!ok)
            fail(index, "the centroid table runs out");
        if (b.bit)
            dpu_bits_get(&b, 8 - b.bit);
    }
    if (b.error)
        fail(index, "the centroid table runs past the section");
}

} // namespace

SectionSplit& SectionSplit::operator+=(const SectionSplit& o)
{
    headerBits += o.headerBits;
    tableBits += o.tableBits;
    positionBits += o.positionBits;
    valueBits += o.valueBits;
    mixedBits += o.mixedBits;
    paddingBits += o.paddingBits;
    changed += o.changed;
    return *this;
}

void SectionBytes::start(dpu_bits& b, uint64_t pos, uint64_t len) const
{
    dpu_bits_init(&b, readVector, const_cast<std::vector<uint8_t>*>(&bundle_), pos, len);
}

SectionSplit SectionBytes::sparse(uint64_t index, uint64_t pos, uint64_t len, unsigned coding, uint64_t numel) const
{
    SectionSplit s;
    if (pos > bundle_.size() || len > bundle_.size() - pos)
        fail(index, "its section runs past the bundle");
    if (coding == DPU_CODING_CQ) { // one arithmetic stream: positions and levels cannot be told apart
        const uint64_t head = len < DPU_CQ_HEADER_SIZE ? len : DPU_CQ_HEADER_SIZE;
        s.headerBits = 8 * head;
        s.mixedBits = 8 * (len - head); // the step or table and the stream
        for (int i = 0; i < 8 && len >= 8; ++i) // the u64 count opens the header (4.1)
            s.changed |= uint64_t(bundle_[pos + uint64_t(i)]) << (8 * i);
        return s;
    }
    dpu_bits b{};
    start(b, pos, len);
    uint64_t count = 0;
    for (int i = 0; i < 8; ++i)
        count |= uint64_t(dpu_bits_get(&b, 8)) << (8 * i);
    const unsigned k = dpu_bits_get(&b, 8), flags = dpu_bits_get(&b, 8);
    if (b.error || count > numel || k > 31)
        fail(index, "a sparse section's header is short or out of range");
    s.headerBits = bitsRead(b, pos);
    if (coding == DPU_CODING_Q8)
        skipCentroids(b, index);
    const unsigned planes = planesOf(coding);
    dpu_huff huff[4];
    readTables(b, huff, flags, planes, index);
    s.tableBits = bitsRead(b, pos) - s.headerBits;
    for (uint64_t r = 0; r < count; ++r) {
        const uint64_t before = bitsRead(b, pos);
        int ok = 1;
        dpu_rice_get(&b, k, numel, &ok);
        if (!ok)
            fail(index, "a position runs out");
        const uint64_t mid = bitsRead(b, pos);
        readWord(b, huff, flags, planes, index);
        s.positionBits += mid - before;
        s.valueBits += bitsRead(b, pos) - mid;
    }
    s.changed = count;
    s.paddingBits = 8 * len - bitsRead(b, pos);
    return s;
}

SectionSplit SectionBytes::pooled(uint64_t index, uint64_t pos, uint64_t len, uint64_t numel)
{
    SectionSplit s;
    if (len > 0) {
        if (pos > bundle_.size() || len > bundle_.size() - pos)
            fail(index, "the shared dense stream runs past the bundle");
        start(pooled_, pos, len);
        pooledStart_ = pos;
        pooledFlags_ = dpu_bits_get(&pooled_, 8);
        s.headerBits = 8;
        readTables(pooled_, pooledHuff_, pooledFlags_, 4, index);
        s.tableBits = bitsRead(pooled_, pos) - 8;
        pooledOpen_ = true;
    }
    if (!pooledOpen_)
        fail(index, "a pooled tensor before the shared dense stream");
    const uint64_t before = bitsRead(pooled_, pooledStart_);
    for (uint64_t i = 0; i < numel; ++i)
        readWord(pooled_, pooledHuff_, pooledFlags_, 4, index);
    s.valueBits = bitsRead(pooled_, pooledStart_) - before;
    return s;
}

uint64_t SectionBytes::pooledPaddingBits() const
{
    return pooledOpen_ ? 8 * (pooled_.end - pooledStart_) - bitsRead(pooled_, pooledStart_) : 0;
}

} // namespace dpu::bundle
