// SPDX-License-Identifier: MIT
// Memory-backed callbacks for dpu_bundle_verify / dpu_bundle_apply.
#include "bundle/BundleApplier.h"
#include "dpu_bundle.h"

#include <cstring>
#include <memory>

namespace dpu::bundle {

namespace {

int readMem(void* user, uint64_t off, uint8_t* buf, size_t len)
{
    const auto* v = static_cast<const std::vector<uint8_t>*>(user);
    if (off > v->size() || len > v->size() - off)
        return -1;
    if (len > 0)
        std::memcpy(buf, v->data() + off, len);
    return 0;
}

int writeMem(void* user, const uint8_t* buf, size_t len)
{
    static_cast<std::vector<uint8_t>*>(user)->insert(static_cast<std::vector<uint8_t>*>(user)->end(), buf,
                                                     buf + len);
    return 0;
}

BundleApplier::Result run(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& base,
                          const BundleApplier::Options& o, bool apply)
{
    BundleApplier::Result r;
    auto ctx = std::make_unique<dpu_apply_ctx>();
    dpu_apply_init(ctx.get());
    dpu_apply_io io{};
    io.read_bundle = readMem;
    io.bundle_user = const_cast<std::vector<uint8_t>*>(&bundle);
    io.bundle_size = bundle.size();
    io.read_base = readMem;
    io.base_user = const_cast<std::vector<uint8_t>*>(&base);
    io.base_size = base.size();
    io.write_target = writeMem;
    io.target_user = &r.file;
    dpu_apply_options opt{};
    if (!o.publicKey.empty())
        opt.public_key = o.publicKey.data();
    opt.compat = o.checkCompat ? o.compat.c_str() : nullptr;
    opt.current_version = o.currentVersion;
    const dpu_status s = apply ? dpu_bundle_apply(ctx.get(), &io, &opt) : dpu_bundle_verify(ctx.get(), &io, &opt);
    r.status = int(s);
    dpu_bundle_info info{};
    dpu_apply_info(ctx.get(), &info);
    r.updateVersion = info.update_version;
    if (s != DPU_OK) {
        // The library hands back static parts only; the message is put together here.
        dpu_apply_error e{};
        dpu_apply_last_error(ctx.get(), &e);
        r.message = std::string(dpu_status_message(s));
        if (e.what != nullptr && e.what[0] != 0)
            r.message += std::string(": ") + e.what;
        if (e.tensor != DPU_NO_TENSOR)
            r.message += " (tensor " + std::to_string(e.tensor) + ")";
        r.message += " at bundle byte " + std::to_string(e.offset);
        r.file.clear();
    }
    return r;
}

} // namespace

BundleApplier::Result BundleApplier::verify(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& base,
                                            const Options& options)
{
    return run(bundle, base, options, false);
}

BundleApplier::Result BundleApplier::apply(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& base,
                                           const Options& options)
{
    return run(bundle, base, options, true);
}

} // namespace dpu::bundle
