// SPDX-License-Identifier: MIT
// Encodes the shared stream of pooled dense tensors (docs/bundle-format.md 2.5).
#pragma once
#include <cstdint>
#include <vector>

namespace dpu::bundle {

class DenseStream {
public:
    /// The stream for `targets` (every value of each, in order): a flags byte, the Huffman
    /// tables of the byte planes that gain from one, then four plane symbols per value. The
    /// words are the new bits (DIRECT) or, when `bases` is given (one per target, same sizes:
    /// a delta's old values), their XOR with the old bits, whichever codes smaller. Exact.
    static std::vector<uint8_t> encode(const std::vector<const std::vector<float>*>& targets,
                                       const std::vector<const std::vector<float>*>& bases);
};

} // namespace dpu::bundle
