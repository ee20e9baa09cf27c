// SPDX-License-Identifier: MIT
// Bundles from weight snapshots, and deployed states from the device decoder's output.
#include "experiment/DeviceUpdate.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleWriter.h"
#include "bundle/SafetensorsFile.h"
#include "dpu/Error.h"
#include "models/PortableInit.h"
#include "train/Int8Quantiser.h"
#include <cstring>

namespace dpu {

namespace {

bundle::TensorData toData(const std::string& name, const torch::Tensor& t)
{
    const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
    bundle::TensorData d;
    d.name = name;
    d.shape.assign(c.sizes().begin(), c.sizes().end());
    d.values.resize(static_cast<size_t>(c.numel()));
    if (c.numel() > 0)
        std::memcpy(d.values.data(), c.data_ptr<float>(), 4 * d.values.size());
    return d;
}

bundle::TensorData toCodes(const std::string& name, const torch::Tensor& w, const torch::Tensor& scale)
{
    const torch::Tensor c = int8Codes(w, scale).to(torch::kCPU).contiguous();
    bundle::TensorData d(name, std::vector<int64_t>(c.sizes().begin(), c.sizes().end()), {}, bundle::DType::I8);
    d.codes.assign(c.data_ptr<int8_t>(), c.data_ptr<int8_t>() + c.numel());
    return d;
}

/// 1 where the codes differ.
std::vector<uint8_t> changedCodes(const std::vector<int8_t>& from, const std::vector<int8_t>& to)
{
    std::vector<uint8_t> mask(to.size());
    for (size_t j = 0; j < to.size(); ++j)
        mask[j] = from[j] != to[j];
    return mask;
}

/// 1 where the bit patterns differ: -0.0 against 0.0 and NaN payloads count as changes.
std::vector<uint8_t> changedMask(const std::vector<float>& from, const std::vector<float>& to, size_t& changed)
{
    std::vector<uint8_t> mask(to.size());
    changed = 0;
    for (size_t j = 0; j < to.size(); ++j) {
        uint32_t a, b;
        std::memcpy(&a, &from[j], 4);
        std::memcpy(&b, &to[j], 4);
        mask[j] = a != b;
        changed += mask[j];
    }
    return mask;
}

} // namespace

DeviceUpdate::DeviceUpdate(Network& network, Config config) : config_(std::move(config))
{
    const auto params = network.parameters();
    const auto rules = initRules(params);
    paramCount_ = params.size();
    for (size_t i = 0; i < params.size(); ++i) {
        names_.push_back(params[i].name);
        slots_.push_back({Slot::Kind::Param, i});
        bundle::InitSpec spec;
        spec.index = rules[i].index;
        if (rules[i].kind == InitRule::Kind::Uniform) {
            spec.rule = bundle::InitSpec::Rule::Uniform;
            spec.fanIn = static_cast<uint32_t>(rules[i].fanIn);
        } else {
            spec.rule = bundle::InitSpec::Rule::Constant;
            spec.constant = rules[i].value;
        }
        init_.push_back(spec);
        if (coded(params[i].tensor)) { // its scales right behind its codes
            names_.push_back(params[i].name + ".scale");
            slots_.push_back({Slot::Kind::Scale, i});
            init_.push_back({}); // never regenerated: an INT8 model is not re-initialised
        }
    }
    const auto buffers = network.buffers();
    for (size_t i = 0; i < buffers.size(); ++i) {
        if (buffers[i].tensor.scalar_type() != torch::kFloat)
            continue; // counters (num_batches_tracked) do not change inference
        floatBuffers_.push_back(i);
        names_.push_back(buffers[i].name);
        slots_.push_back({Slot::Kind::Buffer, i});
        bundle::InitSpec spec;
        double value = 0;
        if (initialBufferValue(buffers[i].name, value)) {
            spec.rule = bundle::InitSpec::Rule::Constant;
            spec.constant = static_cast<float>(value);
        }
        init_.push_back(spec);
    }
}

std::string DeviceUpdate::compatString(const std::string& model, const InputShape& shape, int classes)
{
    return "dpu-planner/1 " + model + " " + std::to_string(shape.channels) + "x" + std::to_string(shape.height) + "x"
           + std::to_string(shape.width) + " classes=" + std::to_string(classes);
}

bool DeviceUpdate::coded(const torch::Tensor& param) const
{
    return config_.int8 && int8Coded(param, config_.int8Biases);
}

bundle::TensorData DeviceUpdate::slotData(const Slot& slot, const std::string& name, const Weights& w) const
{
    const bool int8 = slot.kind != Slot::Kind::Buffer && coded(w.params[slot.index]);
    if (int8 && (slot.index >= w.scales.size() || !w.scales[slot.index].defined()))
        throw InternalError("device update: the INT8 tensor \"" + name + "\" has no scales");
    switch (slot.kind) {
    case Slot::Kind::Param:
        return int8 ? toCodes(name, w.params[slot.index], w.scales[slot.index]) : toData(name, w.params[slot.index]);
    case Slot::Kind::Scale:
        return toData(name, w.scales[slot.index]);
    case Slot::Kind::Buffer:
        break;
    }
    return toData(name, w.buffers.at(slot.index));
}

std::vector<bundle::TensorData> DeviceUpdate::tensors(const Weights& w) const
{
    if (w.params.size() != paramCount_)
        throw Error("device update: snapshot has " + std::to_string(w.params.size()) + " parameters, expected "
                    + std::to_string(paramCount_));
    std::vector<bundle::TensorData> out;
    out.reserve(names_.size());
    for (size_t k = 0; k < slots_.size(); ++k)
        out.push_back(slotData(slots_[k], names_[k], w));
    return out;
}

Weights DeviceUpdate::toWeights(const std::vector<bundle::TensorData>& t, const Weights& like,
                                const torch::Device& device) const
{
    if (t.size() != names_.size())
        throw Error("device update: the device file has " + std::to_string(t.size()) + " tensors, expected "
                    + std::to_string(names_.size()));
    auto tensor = [&](size_t i, at::IntArrayRef shape) {
        int64_t numel = 1;
        for (const int64_t d : shape)
            numel *= d;
        if (t[i].name != names_[i] || static_cast<int64_t>(t[i].numel()) != numel)
            throw Error("device update: tensor " + std::to_string(i) + " of the device file is \"" + t[i].name
                        + "\", expected \"" + names_[i] + "\" with " + std::to_string(numel) + " values");
        if (t[i].dtype == bundle::DType::I8) {
            torch::Tensor c = torch::empty(shape, torch::kChar);
            if (numel > 0)
                std::memcpy(c.data_ptr<int8_t>(), t[i].codes.data(), t[i].codes.size());
            return c;
        }
        torch::Tensor c = torch::empty(shape, torch::kFloat);
        if (numel > 0)
            std::memcpy(c.data_ptr<float>(), t[i].values.data(), 4 * t[i].values.size());
        return c;
    };
    Weights w;
    w.params.resize(paramCount_);
    for (const auto& b : like.buffers)
        w.buffers.push_back(b.detach().clone().to(device));
    if (config_.int8)
        w.scales.resize(paramCount_);
    for (size_t k = 0; k < slots_.size(); ++k) {
        const Slot& s = slots_[k];
        if (s.kind == Slot::Kind::Buffer)
            w.buffers[s.index] = tensor(k, like.buffers[s.index].sizes()).to(device);
        else if (s.kind == Slot::Kind::Scale)
            w.scales[s.index] = tensor(k, {like.params[s.index].dim() > 1 ? like.params[s.index].size(0) : 1}).to(device);
        else
            w.params[s.index] = tensor(k, like.params[s.index].sizes());
    }
    for (size_t i = 0; i < paramCount_; ++i) // the device's own arithmetic: code * scale per element
        w.params[i] = w.params[i].scalar_type() == torch::kChar
                          ? int8Dequantised(w.params[i].to(device), w.scales[i])
                          : w.params[i].to(device);
    return w;
}

std::vector<uint8_t> DeviceUpdate::deviceFile(const Weights& weights, uint64_t version) const
{
    return bundle::SafetensorsFile::write(tensors(weights),
                                          bundle::SafetensorsFile::deviceMetadata(config_.model, config_.compat, version));
}

bundle::BundleOutput DeviceUpdate::write(bundle::Kind kind, const Weights& previous, const Weights& target,
                                         uint64_t seed, uint64_t version, bool wholeModel) const
{
    bundle::BundleInput in;
    in.kind = kind;
    in.wholeModel = wholeModel;
    in.coding = config_.coding;
    in.model = config_.model;
    in.compat = config_.compat;
    in.updateVersion = version;
    in.seed = seed;
    in.secretKey = config_.secretKey;
    in.target = tensors(target);
    if (kind == bundle::Kind::Delta)
        in.baseFile = deviceFile(previous, version - 1);
    if (kind != bundle::Kind::Full) {
        in.masks.resize(in.target.size());
        if (kind == bundle::Kind::ReinitDelta)
            in.init = init_;
        std::vector<bundle::TensorData> before;
        if (kind == bundle::Kind::Delta)
            before = tensors(previous);
        for (size_t i = 0; i < slots_.size(); ++i) {
            if (slots_[i].kind != Slot::Kind::Param)
                continue;
            const bundle::TensorData& t = in.target[i];
            if (t.shape.size() < 2 && !config_.codeDenseTensors) // always-shipped: dense (or copied when unchanged)
                continue;
            if (t.dtype == bundle::DType::I8) {
                if (kind != bundle::Kind::Delta)
                    throw InternalError("device update: an INT8 model is never re-initialised (tensor \"" + t.name + "\")");
                in.masks[i] = changedCodes(before.at(i).codes, t.codes);
                continue;
            }
            const std::vector<float> from = kind == bundle::Kind::Delta
                                                ? before[i].values
                                                : bundle::BundleWriter::initialValues(t, init_[i], seed);
            size_t changed = 0; // the writer ships the tensor dense when that is smaller
            in.masks[i] = changedMask(from, t.values, changed);
        }
    }
    return bundle::BundleWriter::write(in);
}

Weights DeviceUpdate::decoded(const bundle::BundleOutput& out, const Weights& like, const torch::Device& device) const
{
    return toWeights(out.applied, like, device);
}

DeviceUpdate::Result DeviceUpdate::build(bundle::Kind kind, const Weights& previous, const Weights& target,
                                         uint64_t seed, uint64_t version, const torch::Device& device,
                                         const bundle::BundleOutput* written, bool wholeModel) const
{
    std::vector<uint8_t> base;
    if (kind == bundle::Kind::Delta)
        base = deviceFile(previous, version - 1);
    bundle::BundleOutput own;
    if (!written) {
        own = write(kind, previous, target, seed, version, wholeModel);
        written = &own;
    }
    const bundle::BundleOutput& out = *written;

    bundle::BundleApplier::Options options;
    options.currentVersion = version - 1;
    options.compat = config_.compat;
    options.checkCompat = true;
    if (config_.secretKey.size() == 64) // libsodium's secret key ends with the public key
        options.publicKey.assign(config_.secretKey.end() - 32, config_.secretKey.end());
    const auto applied = bundle::BundleApplier::apply(out.bytes, base, options);
    if (applied.status != 0)
        throw InternalError("device update: the device decoder rejected the bundle of update " + std::to_string(version)
                            + ": " + applied.message);
    if (applied.file != out.targetFile)
        throw InternalError("device update: the device decoder produced a different file than the writer for update "
                            + std::to_string(version));
    Result r;
    r.kind = kind;
    r.weights = toWeights(bundle::SafetensorsFile::read(applied.file), target, device);
    r.file = applied.file;
    r.bundle = out.bytes;
    r.stats = out.stats;
    return r;
}

} // namespace dpu
