// SPDX-License-Identifier: MIT
// Plain (torch-free) inputs and outputs of the bundle writer (docs/bundle-format.md).
#pragma once
#include "dpu/InternalCheck.h"
#include "dpu/PlanEnums.h"
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dpu::bundle {

enum class Kind : uint8_t { Full = 1, Delta = 2, ReinitDelta = 3 };
/// Value codings of changed weights. Fp32/Fp16/Q8 are format 3's Huffman-coded sparse sections;
/// the others are format 4's cq sections (adaptive arithmetic coding with context models):
/// Q8c a uniform grid whose step keeps the error within Q8's, Q4 16 k-means centroids per tensor,
/// Ternary the change's sign times its mean magnitude per tensor.
enum class ValueCoding : uint8_t { Fp32 = 1, Fp16 = 2, Q8 = 3, Q8c = 4, Q4 = 5, Ternary = 6 };

/// The writer's coding for a plan's bundle.values (the plan's enum carries no format numbers).
inline ValueCoding codingOf(dpu::Coding c)
{
    switch (c) {
    case dpu::Coding::Fp32: return ValueCoding::Fp32;
    case dpu::Coding::Fp16: return ValueCoding::Fp16;
    case dpu::Coding::Q8: return ValueCoding::Q8;
    case dpu::Coding::Q8c: return ValueCoding::Q8c;
    case dpu::Coding::Q4: return ValueCoding::Q4;
    case dpu::Coding::Ternary: return ValueCoding::Ternary;
    }
    DPU_UNREACHABLE("codingOf: coding " + std::to_string(static_cast<int>(c)) + " is not listed");
}

/// A tensor's element type in the device file (docs/bundle-format.md 1): F32, or I8 for the int8
/// codes of an INT8 deployed model's partial weights (format 5; their per-output-channel scales
/// are an F32 tensor "<name>.scale" beside them).
enum class DType : uint8_t { F32 = 0, I8 = 1 };

/// One tensor in row-major order: float32 `values`, or with dtype I8 the int8 `codes` (then
/// `values` stays empty).
struct TensorData {
    TensorData() = default;
    /// A constructor rather than aggregate initialisation: the many {name, shape, values} of F32
    /// tensors stay valid without -Wmissing-field-initializers for the I8 members.
    TensorData(std::string n, std::vector<int64_t> s, std::vector<float> v = {}, DType d = DType::F32,
               std::vector<int8_t> c = {})
        : name(std::move(n)), shape(std::move(s)), values(std::move(v)), dtype(d), codes(std::move(c))
    {
    }

    std::string name;
    std::vector<int64_t> shape;
    std::vector<float> values;
    DType dtype = DType::F32;
    std::vector<int8_t> codes;

    /// Elements: of `codes` for an I8 tensor, else of `values`.
    size_t numel() const { return dtype == DType::I8 ? codes.size() : values.size(); }
    /// Bytes per element in the device file.
    size_t elementSize() const { return dtype == DType::I8 ? 1 : 4; }
};

/// How the portable initialiser sets a tensor (docs/initializer.md); reinit bundles only.
struct InitSpec {
    enum class Rule : uint8_t { None = 0, Uniform = 1, Constant = 2 };
    Rule rule = Rule::None;
    uint32_t index = 0; ///< tensor index: key dpu_init_key(seed, index)
    uint32_t fanIn = 0; ///< Uniform: bound dpu_init_bound(fanIn)
    float constant = 0.f;
};

/// Everything a bundle is built from.
struct BundleInput {
    Kind kind = Kind::Delta;
    ValueCoding coding = ValueCoding::Fp32;
    std::string model;  ///< model identity, 1..255 bytes
    std::string compat; ///< compatibility string the device compares, 0..255 bytes
    uint64_t updateVersion = 1;
    uint64_t seed = 0;                       ///< ReinitDelta: initialiser seed
    std::vector<uint8_t> baseFile;           ///< Delta: the device's current file, exact bytes
    std::vector<TensorData> target;          ///< the server's new tensors, device-file order
    std::vector<std::vector<uint8_t>> masks; ///< per tensor: empty = dense, else 1 = changed
    std::vector<InitSpec> init;              ///< ReinitDelta: per tensor
    std::vector<uint8_t> secretKey;          ///< 64-byte Ed25519 secret key, empty = unsigned
    /// Q8c delta bundles: changed always-shipped tensors (biases, BatchNorm) are quantised on the
    /// same grid as the weights (their error joins the budget that Q8's error on the partial
    /// tensors sets) instead of travelling exactly. Off by default.
    bool quantiseDense = false;
    /// Catch-up bundles (docs/bundle-format.md 4.2): every target value arrives bit for bit, whatever
    /// `coding` says. Each masked tensor takes the smallest exact section (fp32, fp16, q8 or cq
    /// with a table of values or differences, or a grid of differences), and in a delta an
    /// always-shipped tensor takes one too when that beats its dense or fp32 form.
    bool exactValues = false;
    /// Delta bundles: the target is a whole new model, not a change of the base (a sparse
    /// deployed model's full update, which the engine writes as a delta from the deployed model).
    /// The writer then also writes it as a full deployment with its zeros coded (a `reinit+delta`
    /// bundle over the constant 0, docs/bundle-format.md 2.6) and sends the smaller of the two.
    /// Off by default: a partial update's delta is never larger.
    bool wholeModel = false;
};

/// Byte accounting of a bundle, for reports against the analytic cost.
struct BundleStats {
    uint64_t totalBytes = 0;
    uint64_t envelopeBytes = 0;  ///< preamble, manifest, digest, signature
    uint64_t headerBytes = 0;    ///< target safetensors header section
    uint64_t denseBytes = 0;     ///< dense sections
    uint64_t sparseBytes = 0;    ///< sparse sections (tables + bit streams)
    uint64_t positionBits = 0;   ///< Golomb-Rice bits
    uint64_t valueBits = 0;      ///< value code bits
    uint64_t changed = 0;        ///< changed positions over all sparse tensors
    uint64_t partialWeights = 0; ///< elements of sparse tensors
};

/// A written bundle and what applying it must produce.
struct BundleOutput {
    std::vector<uint8_t> bytes;      ///< the bundle
    std::vector<uint8_t> targetFile; ///< the device file the bundle produces, exact bytes
    std::vector<TensorData> applied; ///< its tensors (quantised values as the device sees them)
    BundleStats stats;
};

} // namespace dpu::bundle
