// SPDX-License-Identifier: MIT
// Huffman code lengths by the classic two-queue merge, limited to 15 bits by halving frequencies.
#include "bundle/HuffmanCode.h"
#include "bundle/BitWriter.h"

#include <algorithm>
#include <queue>

namespace dpu::bundle {

namespace {

// Unlimited Huffman lengths; ties broken by node id so the result is deterministic.
std::array<uint8_t, 256> huffmanLengths(const std::array<uint64_t, 256>& freq)
{
    std::array<uint8_t, 256> len{};
    struct Node { uint64_t f; int id; };
    auto cmp = [](const Node& a, const Node& b) { return a.f != b.f ? a.f > b.f : a.id > b.id; };
    std::priority_queue<Node, std::vector<Node>, decltype(cmp)> q(cmp);
    std::vector<int> parent(512, -1);
    int next = 256, used = 0;
    for (int s = 0; s < 256; ++s)
        if (freq[s] > 0) {
            q.push({freq[s], s});
            ++used;
        }
    if (used == 0)
        return len;
    if (used == 1) {
        for (int s = 0; s < 256; ++s)
            if (freq[s] > 0)
                len[s] = 1;
        return len;
    }
    while (q.size() > 1) {
        const Node a = q.top(); q.pop();
        const Node b = q.top(); q.pop();
        parent[a.id] = parent[b.id] = next;
        q.push({a.f + b.f, next++});
    }
    for (int s = 0; s < 256; ++s) {
        if (freq[s] == 0)
            continue;
        unsigned d = 0;
        for (int n = s; parent[n] >= 0; n = parent[n])
            ++d;
        len[s] = uint8_t(std::min(d, 255u));
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
