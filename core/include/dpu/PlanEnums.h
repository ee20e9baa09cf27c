// SPDX-License-Identifier: MIT
// The plan's choices as enums, each with one table of its JSON names (the only place they are spelled).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace dpu {

/// dataset.kind: how the data is stored (docs/plan-format.md, "Datasets").
enum class DataKind { Idx, Cifar10, Cifar100, Npy, Npz, Safetensors, Images };
/// dataset.layout: how an array's axes map to channels x height x width.
enum class ArrayLayout { Auto, Nchw, Nhwc, Nhw, Ncl };
/// dataset.normalise: where the per-channel mean and std come from (Given: the plan's own).
enum class Normalise { Train, FirstRound, None, Given };
/// train.optimizer.
enum class Optimizer { Adam, Sgd };
/// train.schedule.kind.
enum class ScheduleKind { Step, Cosine, Constant };
/// bundle.values: the coding of the changed weights (Fp32 is the only exact one).
enum class Coding { Fp32, Fp16, Q8, Q8c, Q4, Ternary };
/// bundle.dense_tensors: how the always-shipped 1-D tensors travel.
enum class DenseTensors { Exact, Partial, Coded };
/// mode: multi-round updating, or one update of a trained model with iterative rewinding.
enum class RunMode { Multi, Single };
/// device: where training runs (Auto: CUDA when available).
enum class ComputeDevice { Auto, Cpu, Cuda };
/// fu_start: where full updating starts each round (the paper's appendix compares the three).
/// Seeded: the same seeded random model every round (the paper's baseline); Fresh: a different
/// random model every round; Last: the previous round's weights.
enum class FuStart { Seeded, Fresh, Last };
/// k_share: how a round's count of changed weights is shared among the partial tensors. Global:
/// the largest contributions over all of them (the paper's top-k); Layer: each tensor changes
/// the share k of its own weights; Mass: each tensor's count is proportional to its
/// contributions' sum, the largest within it; Mixed: Global in a round that starts from a random
/// model (round 1, a re-initialisation), where Mass lost 7.6 points, and Mass in the others.
enum class KShare { Global, Layer, Mass, Mixed };
/// int8_rescale: in an INT8 model's partial rounds, which tensors' channels may grow their scale
/// where a weight outgrows ±127 codes. Never: round 1's scales stay (the paper); Output: the
/// last partial tensor (the classifier, few channels); All: every partial tensor.
enum class Int8Rescale { Never, Output, All };
/// fu_int8_training: how an INT8 model's trainings that bring their own scales (FU's rounds and
/// round 1's base) train. QuantAware: through the quantiser with the scales the model ships
/// (straight-through, as the paper trains its INT8 model and its vanilla update); Post: in float,
/// quantised after training.
enum class FuInt8Training { QuantAware, Post };
/// int8_biases: an INT8 model's 1-D parameters (biases, BatchNorm scales and shifts). Codes: int8
/// codes with one float scale per tensor, max |b| / 127 of the values each round deploys, trained
/// through the quantiser like the weights; Float: float32 (the plans before this key).
enum class Int8Biases { Codes, Float };
/// fleet.delivery: how a round's delta goes out: as the link preset says (LoRaWAN: multicast;
/// cellular and BLE: unicast), or forced.
enum class DeliveryChoice { Preset, Multicast, Unicast };
/// fleet.device_class: the LoRaWAN device class a multicast reaches its devices in: as the link
/// preset says (the EU868 and US915 downlinks: Class C), Class C, or Class B (ping slots, beacons).
enum class DeviceClassChoice { Preset, C, B };
/// deployed: the form of the model on the devices (the paper's Table 3). Fp32: dense float32;
/// Sparse: pruned to `deployed_sparsity`, whose zeros every update keeps; Int8: partial weights
/// as int8 codes with a float scale per output channel, which every update keeps INT8.
enum class DeployedForm { Fp32, Sparse, Int8 };
/// fleet.cpu: the processor that applies bundles (dpu/DeviceCpu.h's measured Cortex-M figures).
enum class CpuChoice { None, CortexM4, CortexM0 };
/// fleet.catch_up: devices behind by more than one version get one catch-up bundle each
/// (unicast) or one multicast per version they run.
enum class CatchUpDelivery { Unicast, MulticastPerVersion };
/// fleet.order: which stale devices a busy transmitter serves first: the longest behind (a
/// queue: nobody starves) or the smallest bundles (the most devices per second of airtime).
enum class CatchUpOrder { MostStaleFirst, SmallestFirst };
/// fleet.catch_up_bytes: catch-up bundles sized by the estimate (the cheaper of the chain of
/// missed bundles and the full model) or built from the runs' files.
enum class CatchUpSizing { Estimate, Real };

/// One value of an enum and its name in plan files.
template <typename E> struct EnumName {
    E value;
    const char* name;
};

/// The names of an enum's values, in the order forms, errors and docs list them. Specialised
/// for each enum above (PlanEnums.cpp); nothing else spells them.
template <typename E> const std::vector<EnumName<E>>& enumNames();
template <> const std::vector<EnumName<DataKind>>& enumNames<DataKind>();
template <> const std::vector<EnumName<ArrayLayout>>& enumNames<ArrayLayout>();
template <> const std::vector<EnumName<Normalise>>& enumNames<Normalise>();
template <> const std::vector<EnumName<Optimizer>>& enumNames<Optimizer>();
template <> const std::vector<EnumName<ScheduleKind>>& enumNames<ScheduleKind>();
template <> const std::vector<EnumName<Coding>>& enumNames<Coding>();
template <> const std::vector<EnumName<DenseTensors>>& enumNames<DenseTensors>();
template <> const std::vector<EnumName<RunMode>>& enumNames<RunMode>();
template <> const std::vector<EnumName<ComputeDevice>>& enumNames<ComputeDevice>();
template <> const std::vector<EnumName<FuStart>>& enumNames<FuStart>();
template <> const std::vector<EnumName<KShare>>& enumNames<KShare>();
template <> const std::vector<EnumName<Int8Rescale>>& enumNames<Int8Rescale>();
template <> const std::vector<EnumName<FuInt8Training>>& enumNames<FuInt8Training>();
template <> const std::vector<EnumName<Int8Biases>>& enumNames<Int8Biases>();
template <> const std::vector<EnumName<DeliveryChoice>>& enumNames<DeliveryChoice>();
template <> const std::vector<EnumName<DeviceClassChoice>>& enumNames<DeviceClassChoice>();
template <> const std::vector<EnumName<DeployedForm>>& enumNames<DeployedForm>();
template <> const std::vector<EnumName<CpuChoice>>& enumNames<CpuChoice>();
template <> const std::vector<EnumName<CatchUpDelivery>>& enumNames<CatchUpDelivery>();
template <> const std::vector<EnumName<CatchUpOrder>>& enumNames<CatchUpOrder>();
template <> const std::vector<EnumName<CatchUpSizing>>& enumNames<CatchUpSizing>();

/// The plan-file name of `value` ("q8c" for Coding::Q8c).
template <typename E> std::string nameOf(E value)
{
    for (const EnumName<E>& n : enumNames<E>())
        if (n.value == value)
            return n.name;
    return "?"; // unreachable for a valid enumerator: every table lists all of them
}

/// The value named `name` (exact spelling), or nothing.
template <typename E> std::optional<E> enumFromString(const std::string& name)
{
    for (const EnumName<E>& n : enumNames<E>())
        if (name == n.name)
            return n.value;
    return std::nullopt;
}

/// Every name of the enum, in table order.
template <typename E> std::vector<std::string> enumStrings()
{
    std::vector<std::string> out;
    for (const EnumName<E>& n : enumNames<E>())
        out.push_back(n.name);
    return out;
}

/// "\"a\", \"b\" or \"c\"", for error messages.
std::string quotedChoices(const std::vector<std::string>& names);

/// True for the codings that change the values they carry (every one but fp32).
inline bool isLossy(Coding c) { return c != Coding::Fp32; }

} // namespace dpu
