// SPDX-License-Identifier: MIT
// A deployed round as a device sees it: the update bundle, and the state obtained by applying it.
#pragma once
#include "bundle/BundleTypes.h"
#include "models/Network.h"
#include "train/Weights.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// Turns weight snapshots into device files and update bundles. The new deployed state is always
/// what the device's own decoder (core/patch) produces from the bundle, so server and device
/// cannot drift, with lossy value codings too (DESIGN.md, "Invariants").
class DeviceUpdate {
public:
    struct Config {
        std::string model;                    ///< the bundle's model identity
        std::string compat;                   ///< the compatibility string devices compare
        bundle::ValueCoding coding = bundle::ValueCoding::Fp32;
        std::vector<uint8_t> secretKey;       ///< Ed25519, 64 bytes; empty: unsigned bundles
        /// Deltas ship the changes of 1-D parameters (biases) as sparse sections under the
        /// bundle's value coding too, instead of dense and exact (plan bundle.dense_tensors
        /// "coded"; with fp32 the writer's exact dense edit is smaller).
        bool codeDenseTensors = false;
        /// An INT8 deployed model (plan `deployed` int8): each partial tensor is in the device
        /// file as int8 codes (I8) followed by its per-output-channel scales ("<name>.scale",
        /// F32); Weights::scales holds the scales, params the dequantised weights.
        bool int8 = false;
        /// With `int8`, the 1-D parameters (biases) are I8 codes too, each followed by its one
        /// scale ("<name>.scale", F32, one value) (plan int8_biases codes).
        bool int8Biases = false;
    };
    struct Result {
        bundle::Kind kind = bundle::Kind::Delta;
        std::vector<uint8_t> bundle;  ///< the bytes that travel to the device
        std::vector<uint8_t> file;    ///< the device file after applying it
        Weights weights;              ///< that file's tensors, on the requested device
        bundle::BundleStats stats;
    };

    /// Reads the network's tensor names and initialiser rules (device-file order: parameters,
    /// each INT8 one followed by its scales, then float32 buffers). Throws Error for tensors the
    /// device format cannot carry.
    DeviceUpdate(Network& network, Config config);

    /// The device file (safetensors) holding `weights` at update version `version`.
    std::vector<uint8_t> deviceFile(const Weights& weights, uint64_t version) const;

    /// Builds the bundle taking a device from `previous` (at version `version - 1`) to `target`
    /// and applies it with the device decoder. Full ships every tensor; ReinitDelta regenerates
    /// seed `seed`'s model and ships the partial weights that differ from it; Delta ships those
    /// that differ from `previous`. Always-shipped tensors go dense (unchanged ones are copied).
    /// Throws InternalError if the decoder rejects the bundle or produces other bytes than the
    /// writer computed: an engine defect that must never be deployed silently. `written` (not
    /// owned, may be null): write()'s result for these same arguments, applied instead of
    /// writing the bundle again (a round that judged its candidate's decoded weights wrote it).
    /// `wholeModel`: a Delta whose target is a whole new model (a sparse model's full update);
    /// the writer may then send it as a full deployment with coded zeros when that is smaller
    /// (bundle::BundleInput::wholeModel).
    Result build(bundle::Kind kind, const Weights& previous, const Weights& target, uint64_t seed,
                 uint64_t version, const torch::Device& device,
                 const bundle::BundleOutput* written = nullptr, bool wholeModel = false) const;

    /// What build() would write, without applying it: the bundle's bytes and the tensors the
    /// device will decode from it (as toWeights() of them gives). Throws Error as build() does.
    bundle::BundleOutput write(bundle::Kind kind, const Weights& previous, const Weights& target, uint64_t seed,
                               uint64_t version, bool wholeModel = false) const;

    /// The weights a device decodes from `out` (write()'s result), shaped like `like`.
    Weights decoded(const bundle::BundleOutput& out, const Weights& like, const torch::Device& device) const;

    /// The compatibility string for a model on inputs of `shape` with `classes` outputs.
    static std::string compatString(const std::string& model, const InputShape& shape, int classes);

private:
    std::vector<bundle::TensorData> tensors(const Weights& weights) const;
    Weights toWeights(const std::vector<bundle::TensorData>& tensors, const Weights& like,
                      const torch::Device& device) const;

    /// What a device-file tensor holds: a parameter (as floats or, INT8, its codes), an INT8
    /// parameter's scales, or a float buffer; `index` into Weights::params or ::buffers.
    struct Slot {
        enum class Kind { Param, Scale, Buffer } kind;
        size_t index;
    };
    bundle::TensorData slotData(const Slot& slot, const std::string& name, const Weights& w) const;
    /// Whether the device file holds `param` as I8 codes with a scale tensor after it.
    bool coded(const torch::Tensor& param) const;

    Config config_;
    size_t paramCount_ = 0;
    std::vector<Slot> slots_;               ///< device-file order, with names_
    std::vector<std::string> names_;        ///< device-file order
    std::vector<size_t> floatBuffers_;      ///< positions in Weights::buffers that the file carries
    std::vector<bundle::InitSpec> init_;    ///< per device-file tensor
};

} // namespace dpu
