// SPDX-License-Identifier: MIT
// Reads the manifest field by field (docs/bundle-format.md) to describe a bundle.
#include "bundle/BundleInspector.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"

#include <iomanip>
#include <sstream>

namespace dpu::bundle {

namespace {

class Cursor {
public:
    Cursor(const std::vector<uint8_t>& b, uint64_t off) : b_(b), off_(off) {}
    uint64_t u(int bytes, const char* what)
    {
        need(uint64_t(bytes), what);
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= uint64_t(b_[off_ + uint64_t(i)]) << (8 * i);
        off_ += uint64_t(bytes);
        return v;
    }
    std::string bytes(uint64_t n, const char* what)
    {
        need(n, what);
        std::string s(b_.begin() + std::ptrdiff_t(off_), b_.begin() + std::ptrdiff_t(off_ + n));
        off_ += n;
        return s;
    }
    uint64_t offset() const { return off_; }

private:
    void need(uint64_t n, const char* what) const
    {
        if (off_ > b_.size() || n > b_.size() - off_)
            throw Error(std::string("bundle: truncated at ") + what + " (offset " + std::to_string(off_) + ")");
    }
    const std::vector<uint8_t>& b_;
    uint64_t off_;
};

std::string hex(const std::string& s)
{
    std::ostringstream o;
    for (unsigned char c : s)
        o << std::hex << std::setw(2) << std::setfill('0') << unsigned(c);
    return o.str();
}

const char* kindName(uint64_t k)
{
    return k == 1 ? "full" : k == 2 ? "delta" : k == 3 ? "reinit+delta" : "unknown";
}

const char* modeName(uint64_t m)
{
    static const char* const names[] = {"copy", "dense", "sparse", "init+sparse"};
    return m < 4 ? names[m] : "unknown";
}

const char* codingName(uint64_t c)
{
    static const char* const names[] = {"-", "fp32", "fp16", "q8"};
    return c < 4 ? names[c] : "unknown";
}

} // namespace

std::string BundleInspector::inspect(const std::vector<uint8_t>& bundle)
{
    std::ostringstream o;
    Cursor c(bundle, 0);
    if (c.bytes(4, "magic") != DPU_BUNDLE_MAGIC)
        throw Error("bundle: bad magic (not a DPU bundle)");
    const uint64_t version = c.u(2, "format version"), flags = c.u(2, "flags"), msize = c.u(4, "manifest length");
    c.u(4, "reserved");
    o << "DPU bundle, format " << version << ", " << bundle.size() << " bytes, "
      << ((flags & 1) ? "signed (Ed25519)" : "unsigned") << ", manifest " << msize << " bytes\n";
    const uint64_t kind = c.u(1, "kind");
    c.u(3, "reserved");
    const uint64_t count = c.u(4, "tensor count"), update = c.u(8, "update version");
    const std::string baseSha = c.bytes(32, "base hash"), targetSha = c.bytes(32, "target hash");
    const uint64_t baseSize = c.u(8, "base size"), targetSize = c.u(8, "target size");
    c.u(8, "base data start");
    const uint64_t seed = c.u(8, "seed"), initVersion = c.u(4, "init version");
    const uint64_t headerForm = c.u(4, "header form");
    c.u(8, "header offset");
    const uint64_t headerLen = c.u(8, "header length");
    c.bytes(32, "header hash");
    const uint64_t modelLen = c.u(1, "model length"), compatLen = c.u(1, "compat length");
    c.u(6, "reserved");
    const std::string model = c.bytes(modelLen, "model"), compat = c.bytes(compatLen, "compat");
    o << "kind " << kindName(kind) << ", update version " << update << ", model \"" << model
      << "\", compat \"" << compat << "\"\n";
    if (kind == DPU_KIND_REINIT_DELTA)
        o << "reinitialise: seed " << seed << ", initialiser version " << initVersion << "\n";
    if (kind == DPU_KIND_DELTA)
        o << "base   " << hex(baseSha) << " (" << baseSize << " bytes)\n";
    o << "target " << hex(targetSha) << " (" << targetSize << " bytes, header section " << headerLen
      << (headerForm == DPU_HEADER_BASE_EDIT ? " bytes, an edit of the base header)\n" : " bytes)\n");
    o << "tensors: " << count << "\n";
    for (uint64_t i = 0; i < count && i < DPU_MAX_TENSORS; ++i) {
        const uint64_t mode = c.u(1, "mode"), coding = c.u(1, "coding");
        c.u(1, "dtype");
        const uint64_t ndim = c.u(1, "ndim");
        c.u(1, "init rule");
        const uint64_t nameLen = c.u(1, "name length");
        c.bytes(26, "entry fields"); // reserved, init rule fields, data offset
        const uint64_t numel = c.u(8, "numel"), secOff = c.u(8, "section offset"), secLen = c.u(8, "section length");
        c.bytes(32, "section hash");
        std::ostringstream shape;
        for (uint64_t d = 0; d < ndim && d < DPU_MAX_DIMS; ++d)
            shape << (d ? "x" : "") << c.u(8, "shape");
        const std::string name = c.bytes(nameLen, "name");
        o << "  " << std::left << std::setw(28) << name << " [" << shape.str() << "] " << modeName(mode);
        if (mode >= DPU_MODE_SPARSE) {
            Cursor s(bundle, secOff);
            const uint64_t changed = s.u(8, "change count"), rice = s.u(1, "rice parameter");
            const uint64_t flags = s.u(1, "plane flags");
            o << " " << codingName(coding) << ", " << changed << "/" << numel << " changed, rice k=" << rice;
            if (coding == DPU_CODING_FP32)
                o << ((flags & DPU_SPARSE_DIRECT) ? ", direct" : ", xor");
            if (coding == DPU_CODING_Q8) {
                const uint64_t ncent = s.u(2, "centroid count"), form = s.u(1, "centroid form");
                o << ", " << ncent << (form == DPU_CENTROIDS_F16 ? " f16" : " f32") << " centroids";
            }
        }
        o << ", " << secLen << " bytes\n";
    }
    return o.str();
}

} // namespace dpu::bundle
