// SPDX-License-Identifier: MIT
// Where a bundle's bytes go (dpu-cli bundle inspect --bytes): each tensor's split, summed per role.
#pragma once
#include "bundle/SectionBytes.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace dpu::bundle {

class ByteAccount {
public:
    /// Accounts the sections of `bundle`, which must outlive this object.
    explicit ByteAccount(const std::vector<uint8_t>& bundle) : sections_(bundle) {}

    /// A tensor's role by its name and shape ("2x3"; from section H): "scales" (an INT8 weight's
    /// "<name>.scale"), "1-D tensors (biases)" or "weights".
    static std::string roleOf(const std::string& name, const std::string& shape);
    /// A tensor's role without its name (a delta inspected without its base): by its entry.
    static std::string roleOf(bool i8, uint64_t mode);

    /// Splits tensor `index`'s section (entry `mode`, `coding`, pooled in the shared dense stream
    /// or not, at [pos, pos + len), `numel` elements), prints the split on a line of its own and
    /// adds it to `role`. Throws dpu::Error when a section cannot be walked (SectionBytes).
    void add(std::ostream& o, uint64_t index, const std::string& role, uint64_t mode, uint64_t coding, bool pooled,
             uint64_t pos, uint64_t len, uint64_t numel);
    /// The summary after the last tensor: envelope, tensor table and section H (bytes), then each
    /// role's bytes, share of the bundle and parts (bits).
    void print(std::ostream& o, uint64_t bundleBytes, uint64_t envelope, uint64_t table, uint64_t header);

private:
    static std::string parts(const SectionSplit& s);
    SectionSplit& total(const std::string& role);

    SectionBytes sections_;
    std::vector<std::pair<std::string, SectionSplit>> roles_; // in order of first appearance
    std::string lastPooled_;                                  // the role that gets the stream's padding
};

} // namespace dpu::bundle
