// SPDX-License-Identifier: MIT
// Reads the manifest field by field (docs/bundle-format.md) to describe a bundle.
#include "bundle/BundleInspector.h"
#include "bundle/ByteAccount.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
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
    /// Unsigned LEB128 (docs/bundle-format.md 2.3).
    uint64_t varint(const char* what)
    {
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            const uint64_t c = u(1, what);
            v |= (c & 0x7f) << shift;
            if (!(c & 0x80))
                return v;
        }
        throw Error(std::string("bundle: varint too long at ") + what + " (offset " + std::to_string(off_) + ")");
    }

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
    static const char* const names[] = {"-", "fp32", "fp16", "q8", "cq", "i8"};
    return c < 6 ? names[c] : "unknown";
}

struct Named {
    uint64_t begin = 0;
    std::string name, shape;
};

// Names and shapes of the produced file's tensors in data order, from its safetensors header;
// empty when the header is not at hand (an edit of a base header without the base) or malformed.
std::vector<Named> tensorNames(const std::vector<uint8_t>& header)
{
    std::vector<Named> out;
    if (header.size() < 10)
        return out;
    const nlohmann::json j = nlohmann::json::parse(header.begin() + 8, header.end(), nullptr, false);
    if (!j.is_object())
        return out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "__metadata__")
            continue;
        const nlohmann::json& t = *it;
        if (!t.is_object() || !t.contains("data_offsets") || !t["data_offsets"].is_array() ||
            t["data_offsets"].empty() || !t["data_offsets"][0].is_number_unsigned() || !t.contains("shape") ||
            !t["shape"].is_array())
            return {};
        Named n;
        n.name = it.key();
        n.begin = t["data_offsets"][0].get<uint64_t>();
        for (size_t d = 0; d < t["shape"].size(); ++d)
            n.shape += (d ? "x" : "") + t["shape"][d].dump();
        out.push_back(n);
    }
    std::sort(out.begin(), out.end(), [](const Named& a, const Named& b) { return a.begin < b.begin; });
    return out;
}

// The produced file's header from section H: verbatim, or rebuilt from the base file's.
std::vector<uint8_t> producedHeader(const std::vector<uint8_t>& bundle, uint64_t off, uint64_t len,
                                    uint64_t form, const std::vector<uint8_t>* base)
{
    Cursor h(bundle, off);
    if (form == DPU_HEADER_VERBATIM) {
        const std::string bytes = h.bytes(len, "header section");
        return {bytes.begin(), bytes.end()};
    }
    if (base == nullptr || len < DPU_HEADER_EDIT_FIELDS)
        return {};
    const uint64_t total = h.u(8, "header length"), prefix = h.u(8, "header prefix"),
                   tailSrc = h.u(8, "header tail offset"), tail = h.u(8, "header tail");
    const std::string literal = h.bytes(len - DPU_HEADER_EDIT_FIELDS, "header literal");
    if (prefix > base->size() || tailSrc > base->size() || tail > base->size() - tailSrc ||
        prefix + literal.size() + tail != total)
        return {};
    std::vector<uint8_t> header(base->begin(), base->begin() + std::ptrdiff_t(prefix));
    header.insert(header.end(), literal.begin(), literal.end());
    header.insert(header.end(), base->begin() + std::ptrdiff_t(tailSrc), base->begin() + std::ptrdiff_t(tailSrc + tail));
    return header;
}

/// What a tensor's section holds, after its mode: the shared dense stream's form, or a sparse
/// section's coding, changes and coding parameters (read from the section at `secPos`).
void describeSection(std::ostream& o, const std::vector<uint8_t>& bundle, uint64_t secPos, uint64_t mode, uint64_t coding,
                     uint64_t numel, bool pooled, uint64_t secLen)
{
    if (pooled) {
        o << ", in the shared dense stream";
        if (secLen > 0) {
            Cursor s(bundle, secPos);
            o << " (here: " << ((s.u(1, "dense stream flags") & DPU_SPARSE_DIRECT) ? "direct" : "xor") << ")";
        }
    }
    if (mode >= DPU_MODE_SPARSE && coding == DPU_CODING_CQ) {
        Cursor s(bundle, secPos);
        const uint64_t changed = s.u(8, "change count"), form = s.u(1, "cq form"), cqFlags = s.u(1, "cq flags");
        s.u(2, "cq limits");
        o << " cq " << (form == DPU_CQ_GRID ? "grid" : "table") << ((cqFlags & DPU_CQ_DIFF) ? " diff" : "") << ", "
          << changed << "/" << numel << " changed, rows of " << s.u(4, "cq row length");
        if (form == DPU_CQ_GRID) {
            const uint64_t m = s.u(1, "step mantissa"), x = s.u(1, "step exponent");
            o << ", step " << std::ldexp(double(m), int(x) - 127);
        } else {
            o << ", " << s.u(2, "centroid count") << " levels";
        }
    } else if (mode >= DPU_MODE_SPARSE) {
        Cursor s(bundle, secPos);
        const uint64_t changed = s.u(8, "change count"), rice = s.u(1, "rice parameter");
        const uint64_t planes = s.u(1, "plane flags");
        o << " " << codingName(coding) << ", " << changed << "/" << numel << " changed, rice k=" << rice;
        if (planes & DPU_SPARSE_NONZERO)
            o << " among the nonzeros";
        if (coding == DPU_CODING_FP32)
            o << ((planes & DPU_SPARSE_DIRECT) ? ", direct" : ", xor");
        if (coding == DPU_CODING_I8)
            o << ((planes & DPU_SPARSE_DIFF) ? ", diff" : ", codes") << ((planes & 1u) ? " huffman" : " raw");
        if (coding == DPU_CODING_Q8) {
            const uint64_t ncent = s.u(2, "centroid count"), form = s.u(1, "centroid form");
            o << ", " << ncent << (form == DPU_CENTROIDS_F16 ? " f16" : " f32") << " centroids";
        }
    }
}

} // namespace

std::string BundleInspector::inspect(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>* base, bool bytes)
{
    std::ostringstream o;
    Cursor c(bundle, 0);
    if (c.bytes(4, "magic") != DPU_BUNDLE_MAGIC)
        throw Error("bundle: bad magic (not a DPU bundle)");
    const uint64_t version = c.u(2, "format version"), flags = c.u(2, "flags"), msize = c.u(4, "manifest length");
    c.u(4, "reserved");
    o << "DPU bundle, format " << version << ", " << bundle.size() << " bytes, "
      << ((flags & 1) ? "signed (Ed25519)" : "unsigned") << ", manifest " << msize << " bytes\n";
    if (version < DPU_BUNDLE_FORMAT_MIN || version > DPU_BUNDLE_FORMAT_VERSION)
        throw Error("bundle: format version " + std::to_string(version) + ", this build reads " +
                    std::to_string(DPU_BUNDLE_FORMAT_MIN) + " to " + std::to_string(DPU_BUNDLE_FORMAT_VERSION));
    const uint64_t kind = c.u(1, "kind");
    c.u(3, "reserved");
    const uint64_t count = c.u(4, "tensor count"), update = c.u(8, "update version");
    const std::string baseSha = c.bytes(32, "base hash"), targetSha = c.bytes(32, "target hash");
    const uint64_t baseSize = c.u(8, "base size"), targetSize = c.u(8, "target size");
    c.u(8, "base data start");
    const uint64_t seed = c.u(8, "seed"), initVersion = c.u(4, "init version");
    const uint64_t headerForm = c.u(4, "header form");
    const uint64_t headerOff = c.u(8, "header offset");
    const uint64_t headerLen = c.u(8, "header length");
    const std::string sectionsSha = c.bytes(32, "sections digest");
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
    o << "sections digest " << hex(sectionsSha) << "\n";
    if (base != nullptr && kind == DPU_KIND_DELTA) {
        std::string baseDigest(32, '\0');
        dpu_sha256_buf(base->data(), base->size(), reinterpret_cast<uint8_t*>(baseDigest.data()));
        if (baseDigest != baseSha)
            throw Error("bundle: the given base is not the device file this delta applies to (its SHA-256 is " +
                        hex(baseDigest) + ", the bundle's base " + hex(baseSha) + ")");
    }
    const std::vector<Named> names = tensorNames(producedHeader(bundle, headerOff, headerLen, headerForm, base));
    const bool named = names.size() == count;
    o << "tensors: " << count << (named ? "" : " (names and shapes: inspect with the base file)") << "\n";
    uint64_t secPos = headerOff + headerLen;
    const uint64_t tableStart = c.offset();
    ByteAccount account(bundle);
    for (uint64_t i = 0; i < count && i < DPU_MAX_TENSORS; ++i) {
        const uint64_t entry = c.u(1, "mode"), mode = entry & 3;
        const uint64_t coding = ((entry >> 2) & 3) | ((entry & DPU_ENTRY_CODING_HIGH) ? 4 : 0);
        const bool i8 = version >= 5 && (entry & DPU_ENTRY_DTYPE_I8); // format 5: int8 codes, 1 byte each
        const uint64_t numel = c.varint("numel");
        const bool pooled = mode == DPU_MODE_DENSE && coding == DPU_CODING_FP32;
        uint64_t secLen = mode == DPU_MODE_DENSE && !pooled ? (i8 ? 1 : 4) * numel : 0;
        if (mode >= DPU_MODE_SPARSE || pooled)
            secLen = c.varint("section length");
        if (mode == DPU_MODE_INIT_SPARSE) {
            c.varint("init index");
            if (((entry >> 4) & 3) == DPU_INIT_UNIFORM)
                c.varint("fan-in");
            else
                c.u(4, "init constant");
        }
        const std::string label = named ? names[i].name + " [" + names[i].shape + "]"
                                         : "#" + std::to_string(i) + " [" + std::to_string(numel) + " values]";
        o << "  " << std::left << std::setw(36) << label << " " << (i8 ? "I8 " : "") << modeName(mode);
        describeSection(o, bundle, secPos, mode, coding, numel, pooled, secLen);
        o << ", " << secLen << " bytes\n";
        if (bytes)
            account.add(o, i, named ? ByteAccount::roleOf(names[i].name, names[i].shape) : ByteAccount::roleOf(i8, mode),
                        mode, coding, pooled, secPos, secLen, numel);
        secPos += secLen;
    }
    if (bytes)
        account.print(o, bundle.size(), headerOff - (c.offset() - tableStart), c.offset() - tableStart, headerLen);
    return o.str();
}

} // namespace dpu::bundle
