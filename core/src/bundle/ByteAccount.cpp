// SPDX-License-Identifier: MIT
// Sums each tensor's section split (SectionBytes) by role and prints where a bundle's bytes go.
#include "bundle/ByteAccount.h"
#include "dpu_bundle.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace dpu::bundle {

std::string ByteAccount::roleOf(const std::string& name, const std::string& shape)
{
    const std::string suffix = ".scale";
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        return "scales";
    return shape.find('x') == std::string::npos ? "1-D tensors (biases)" : "weights";
}

std::string ByteAccount::roleOf(bool i8, uint64_t mode)
{
    return i8 || mode >= DPU_MODE_SPARSE ? "partial tensors" : "always-shipped tensors";
}

void ByteAccount::add(std::ostream& o, uint64_t index, const std::string& role, uint64_t mode, uint64_t coding,
                      bool pooled, uint64_t pos, uint64_t len, uint64_t numel)
{
    SectionSplit s;
    if (pooled) {
        s = sections_.pooled(index, pos, len, numel);
        lastPooled_ = role;
    } else if (mode >= DPU_MODE_SPARSE) {
        s = sections_.sparse(index, pos, len, unsigned(coding), numel);
    } else {
        s.valueBits = 8 * len; // dense: the values, raw; copy: nothing
    }
    o << "      bits: " << parts(s) << "\n";
    total(role) += s;
}

void ByteAccount::print(std::ostream& o, uint64_t bundleBytes, uint64_t envelope, uint64_t table, uint64_t header)
{
    if (!lastPooled_.empty()) // the stream's padding follows its last value
        total(lastPooled_).paddingBits += sections_.pooledPaddingBits();
    auto pct = [&](uint64_t bits) { return 100.0 * double(bits) / 8.0 / double(std::max<uint64_t>(bundleBytes, 1)); };
    o << std::fixed << std::setprecision(1) << "where the bytes go (" << bundleBytes << " bytes):\n"
      << "  envelope " << envelope << " B (" << pct(8 * envelope) << " %): preamble, manifest, digest, signature\n"
      << "  tensor table " << table << " B (" << pct(8 * table) << " %)\n"
      << "  section H " << header << " B (" << pct(8 * header) << " %)\n";
    for (const auto& [role, s] : roles_)
        o << "  " << role << " " << (s.totalBits() + 7) / 8 << " B (" << pct(s.totalBits()) << " %): " << parts(s)
          << ", " << s.changed << " changed\n";
}

std::string ByteAccount::parts(const SectionSplit& s)
{
    std::ostringstream o;
    o << "positions " << s.positionBits << ", values " << s.valueBits << ", headers " << s.headerBits << ", tables "
      << s.tableBits << ", padding " << s.paddingBits;
    if (s.mixedBits)
        o << ", cq stream " << s.mixedBits << " (positions and levels)";
    return o.str();
}

SectionSplit& ByteAccount::total(const std::string& role)
{
    for (auto& r : roles_)
        if (r.first == role)
            return r.second;
    return roles_.emplace_back(role, SectionSplit{}).second;
}

} // namespace dpu::bundle
