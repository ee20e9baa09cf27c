// SPDX-License-Identifier: MIT
// Section H as an edit: a delta's target header differs from the base's only in the version digits.
#include "bundle/HeaderSection.h"
#include "dpu_bundle.h"

#include <cstddef>

namespace dpu::bundle {

namespace {

void le64(std::vector<uint8_t>& out, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(v >> (8 * i)));
}

} // namespace

std::vector<uint8_t> HeaderSection::encode(const std::vector<uint8_t>& baseFile, uint64_t baseDataStart,
                                           const std::vector<uint8_t>& header, uint32_t& form)
{
    // The common prefix, and the longest tail of the target found in the base header a few bytes
    // before its end (a longer version string leaves one padding space fewer), come from the
    // device's own file; only the bytes between them travel (docs/bundle-format.md, section 2.4).
    form = DPU_HEADER_VERBATIM;
    const size_t bh = size_t(baseDataStart) <= baseFile.size() ? size_t(baseDataStart) : baseFile.size();
    size_t pre = 0, tail = 0, src = 0;
    while (pre < bh && pre < header.size() && baseFile[pre] == header[pre])
        ++pre;
    for (size_t shift = 0; shift <= 64 && shift < bh; ++shift) {
        const size_t end = bh - shift; // the tail would end here in the base
        size_t n = 0;
        while (n < end && n < header.size() - pre && baseFile[end - 1 - n] == header[header.size() - 1 - n])
            ++n;
        if (n > tail) {
            tail = n;
            src = end - n;
        }
    }
    std::vector<uint8_t> edit;
    le64(edit, header.size());
    le64(edit, pre);
    le64(edit, src);
    le64(edit, tail);
    edit.insert(edit.end(), header.begin() + std::ptrdiff_t(pre), header.end() - std::ptrdiff_t(tail));
    if (edit.size() >= header.size())
        return header;
    form = DPU_HEADER_BASE_EDIT;
    return edit;
}

} // namespace dpu::bundle
