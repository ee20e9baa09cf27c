// SPDX-License-Identifier: MIT
// Reads a bundle's manifest fields and tensor table (docs/bundle-format.md 2.1-2.3).
#include "bundle/BundleManifest.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"
#include "dpu_codes.h"

#include <cstring>
#include <string>

namespace dpu::bundle {

namespace {

class ManifestReader {
public:
    ManifestReader(const std::vector<uint8_t>& b, uint64_t off, uint64_t end) : b_(b), off_(off), end_(end) {}
    uint64_t u(unsigned bytes, const char* what)
    {
        need(bytes, what);
        uint64_t v = 0;
        for (unsigned i = 0; i < bytes; ++i)
            v |= uint64_t(b_[off_ + i]) << (8 * i);
        off_ += bytes;
        return v;
    }
    uint64_t varint(const char* what)
    {
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            const uint64_t c = u(1, what);
            v |= (c & 0x7f) << shift;
            if (!(c & 0x80))
                return v;
        }
        throw Error(std::string("bundle: varint too long at ") + what);
    }
    void skip(uint64_t n, const char* what)
    {
        need(n, what);
        off_ += n;
    }

private:
    void need(uint64_t n, const char* what) const
    {
        if (off_ > end_ || n > end_ - off_)
            throw Error(std::string("bundle: truncated at ") + what + " (offset " + std::to_string(off_) + ")");
    }
    const std::vector<uint8_t>& b_;
    uint64_t off_, end_;
};

} // namespace

ManifestFacts BundleManifest::read(const std::vector<uint8_t>& bundle)
{
    ManifestReader pre(bundle, 0, bundle.size());
    if (bundle.size() < DPU_BUNDLE_PREAMBLE_SIZE || std::memcmp(bundle.data(), DPU_BUNDLE_MAGIC, 4) != 0)
        throw Error("bundle: no DPUB preamble");
    pre.skip(6, "preamble");
    ManifestFacts f;
    f.isSigned = (pre.u(2, "flags") & DPU_BUNDLE_FLAG_SIGNED) != 0;
    const uint64_t m = pre.u(4, "manifest length");
    if (m > bundle.size() - DPU_BUNDLE_PREAMBLE_SIZE || m < DPU_MANIFEST_FIXED_SIZE)
        throw Error("bundle: manifest length " + std::to_string(m) + " does not fit the file");
    ManifestReader r(bundle, DPU_BUNDLE_PREAMBLE_SIZE, DPU_BUNDLE_PREAMBLE_SIZE + m);
    f.kind = Kind(r.u(1, "kind"));
    r.skip(3, "reserved");
    const uint64_t tensors = r.u(4, "tensor count");
    f.updateVersion = r.u(8, "update version");
    r.skip(104 - 16, "hashes and sizes");
    f.seed = r.u(8, "seed");
    r.skip(168 - 112, "initialiser version, section H and digest");
    const uint64_t strings = r.u(1, "model length") + r.u(1, "compat length");
    r.skip(6 + strings, "strings");
    for (uint64_t i = 0; i < tensors; ++i) {
        const auto flags = unsigned(r.u(1, "tensor flags"));
        const unsigned mode = flags & 3u, coding = ((flags >> 2) & 3u) | ((flags & DPU_ENTRY_CODING_HIGH) ? 4u : 0u);
        InitSpec spec;
        r.varint("numel");
        if (mode == DPU_MODE_SPARSE || mode == DPU_MODE_INIT_SPARSE || (mode == DPU_MODE_DENSE && coding == DPU_CODING_FP32))
            r.varint("section length");
        if (mode == DPU_MODE_INIT_SPARSE) {
            spec.rule = InitSpec::Rule((flags >> 4) & 3u);
            spec.index = uint32_t(r.varint("init index"));
            if (spec.rule == InitSpec::Rule::Uniform) {
                spec.fanIn = uint32_t(r.varint("fan-in"));
            } else {
                const auto b = uint32_t(r.u(4, "constant"));
                std::memcpy(&spec.constant, &b, 4);
            }
        }
        f.init.push_back(spec);
    }
    return f;
}

} // namespace dpu::bundle
