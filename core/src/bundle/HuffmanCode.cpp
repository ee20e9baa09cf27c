// SPDX-License-Identifier: MIT
// Huffman code lengths by the classic two-queue merge, limited to 15 bits by halving frequencies.
#include "bundle/HuffmanCode.h"
#include "bundle/BitWriter.h"

#include <algorithm>

namespace dpu::bundle {

namespace {

// Unlimited Huffman lengths by the two-queue merge: leaves sorted by (frequency, symbol) in one
// queue, merged nodes in another. Merged nodes come out in order of nondecreasing frequency and
// increasing id, so the two smallest nodes are always at the queues' heads: the same merges,
// ties included (by node id, leaves before merged nodes), as a priority queue ordered by
// (frequency, id), without its heap operations (this runs several times per tensor written).
std::array<uint8_t, 256> huffmanLengths(const std::array<uint64_t, 256>& freq)
{
    std::array<uint8_t, 256> len{};
    std::array<uint64_t, 512> weight{};   // by node id: symbols 0..255, merged nodes from 256
    std::array<int, 512> parent{};
    std::array<int, 256> leaves{};
    int used = 0;
    for (int s = 0; s < 256; ++s)
        if (freq[s] > 0) {
            leaves[size_t(used++)] = s;
            weight[size_t(s)] = freq[s];
        }
    if (used == 0)
        return len;
    if (used == 1) {
        len[size_t(leaves[0])] = 1;
        return len;
    }
    std::sort(leaves.begin(), leaves.begin() + used, [&](int x, int y) {
        return freq[size_t(x)] != freq[size_t(y)] ? freq[size_t(x)] < freq[size_t(y)] : x < y;
    });
    int leaf = 0, merged = 256, next = 256; // merged nodes waiting: ids merged..next-1
    auto pop = [&]() {
        // a leaf's id is below every merged node's, so it goes first on equal weight
        if (leaf < used && (merged == next || weight[size_t(leaves[size_t(leaf)])] <= weight[size_t(merged)]))
            return leaves[size_t(leaf++)];
        return merged++;
    };
    while ((used - leaf) + (next - merged) > 1) {
        const int x = pop(), y = pop();
        weight[size_t(next)] = weight[size_t(x)] + weight[size_t(y)];
        parent[size_t(x)] = parent[size_t(y)] = next++;
    }
    // Depths from the root (the last node made) down: a parent's id is above its children's.
    std::array<unsigned, 512> depth{};
    for (int n = next - 2; n >= 256; --n)
        depth[size_t(n)] = depth[size_t(parent[size_t(n)])] + 1;
    for (int i = 0; i < used; ++i) {
        const int s = leaves[size_t(i)];
        len[size_t(s)] = uint8_t(std::min(depth[size_t(parent[size_t(s)])] + 1, 255u));
    }
    return len;
}

} // namespace

HuffmanCode::HuffmanCode(const std::array<uint64_t, 256>& freq)
{
    std::array<uint64_t, 256> f = freq;
    for (;;) {
        len_ = huffmanLengths(f);
        if (*std::max_element(len_.begin(), len_.end()) <= 15)
            break;
        // Flatten the distribution (keeping every used symbol) until the tree is shallow enough.
        for (auto& x : f)
            if (x > 0)
                x = (x + 1) / 2;
    }
    assignCodes();
}

void HuffmanCode::assignCodes()
{
    // Canonical assignment, as deflate: by length, then by symbol value.
    unsigned count[16] = {0};
    for (unsigned s = 0; s < 256; ++s)
        count[len_[s]]++;
    count[0] = 0;
    unsigned next[16] = {0};
    unsigned code = 0;
    for (unsigned l = 1; l <= 15; ++l) {
        code = (code + count[l - 1]) << 1;
        next[l] = code;
    }
    for (unsigned s = 0; s < 256; ++s)
        if (len_[s] != 0)
            code_[s] = uint16_t(next[len_[s]]++);
}

uint64_t HuffmanCode::cost(const std::array<uint64_t, 256>& freq) const
{
    uint64_t bits = 128 * 8;
    for (unsigned s = 0; s < 256; ++s)
        bits += freq[s] * len_[s];
    return bits;
}

void HuffmanCode::writeTable(BitWriter& w) const
{
    for (unsigned i = 0; i < 128; ++i)
        w.byte(uint8_t(len_[2 * i] | (len_[2 * i + 1] << 4)));
}

void HuffmanCode::write(BitWriter& w, unsigned symbol) const
{
    w.put(code_[symbol], len_[symbol]);
}

} // namespace dpu::bundle
