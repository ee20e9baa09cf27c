// SPDX-License-Identifier: MIT
// The one table per plan enum: its values' names in plan files, records and forms.
#include "dpu/PlanEnums.h"
#include "dpu/DeployedForms.h"
#include "dpu/StrategyId.h"

namespace dpu {

template <> const std::vector<EnumName<DataKind>>& enumNames<DataKind>()
{
    static const std::vector<EnumName<DataKind>> names{
        {DataKind::Idx, "idx"},         {DataKind::Cifar10, "cifar10"},         {DataKind::Cifar100, "cifar100"},
        {DataKind::Npy, "npy"},         {DataKind::Npz, "npz"},                 {DataKind::Safetensors, "safetensors"},
        {DataKind::Images, "images"},
    };
    return names;
}

template <> const std::vector<EnumName<ArrayLayout>>& enumNames<ArrayLayout>()
{
    static const std::vector<EnumName<ArrayLayout>> names{
        {ArrayLayout::Auto, "auto"}, {ArrayLayout::Nchw, "nchw"}, {ArrayLayout::Nhwc, "nhwc"},
        {ArrayLayout::Nhw, "nhw"},   {ArrayLayout::Ncl, "ncl"},
    };
    return names;
}

template <> const std::vector<EnumName<Normalise>>& enumNames<Normalise>()
{
    // "given" is what a plan's {"mean": [...], "std": [...]} reads as (and data.json records).
    static const std::vector<EnumName<Normalise>> names{
        {Normalise::Train, "train"}, {Normalise::FirstRound, "first_round"}, {Normalise::None, "none"},
        {Normalise::Given, "given"},
    };
    return names;
}

template <> const std::vector<EnumName<Optimizer>>& enumNames<Optimizer>()
{
    static const std::vector<EnumName<Optimizer>> names{{Optimizer::Adam, "adam"}, {Optimizer::Sgd, "sgd"}};
    return names;
}

template <> const std::vector<EnumName<ScheduleKind>>& enumNames<ScheduleKind>()
{
    static const std::vector<EnumName<ScheduleKind>> names{
        {ScheduleKind::Step, "step"}, {ScheduleKind::Cosine, "cosine"}, {ScheduleKind::Constant, "constant"}};
    return names;
}

template <> const std::vector<EnumName<Coding>>& enumNames<Coding>()
{
    // fp32 first: the exact one, and the default.
    static const std::vector<EnumName<Coding>> names{
        {Coding::Fp32, "fp32"}, {Coding::Fp16, "fp16"}, {Coding::Q8, "q8"},
        {Coding::Q8c, "q8c"},   {Coding::Q4, "q4"},     {Coding::Ternary, "ternary"},
    };
    return names;
}

template <> const std::vector<EnumName<DenseTensors>>& enumNames<DenseTensors>()
{
    static const std::vector<EnumName<DenseTensors>> names{
        {DenseTensors::Exact, "exact"}, {DenseTensors::Partial, "partial"}, {DenseTensors::Coded, "coded"}};
    return names;
}

template <> const std::vector<EnumName<RunMode>>& enumNames<RunMode>()
{
    static const std::vector<EnumName<RunMode>> names{{RunMode::Multi, "multi"}, {RunMode::Single, "single"}};
    return names;
}

template <> const std::vector<EnumName<ComputeDevice>>& enumNames<ComputeDevice>()
{
    static const std::vector<EnumName<ComputeDevice>> names{
        {ComputeDevice::Auto, "auto"}, {ComputeDevice::Cpu, "cpu"}, {ComputeDevice::Cuda, "cuda"}};
    return names;
}

template <> const std::vector<EnumName<StrategyId>>& enumNames<StrategyId>()
{
    // The baseline first, then the paper's method and its variants, then the other baselines.
    static const std::vector<EnumName<StrategyId>> names{
        {StrategyId::Fu, "fu"},         {StrategyId::Dpu, "dpu"},   {StrategyId::DpuNoreinit, "dpu-noreinit"},
        {StrategyId::DpuMemory, "dpu-memory"}, {StrategyId::Gcpu, "gcpu"}, {StrategyId::GcpuReinit, "gcpu-reinit"},
        {StrategyId::Lcpu, "lcpu"},     {StrategyId::Rpu, "rpu"},   {StrategyId::Pruning, "pruning"},
    };
    return names;
}

template <> const std::vector<EnumName<FuStart>>& enumNames<FuStart>()
{
    static const std::vector<EnumName<FuStart>> names{
        {FuStart::Seeded, "seeded"}, {FuStart::Fresh, "fresh"}, {FuStart::Last, "last"}};
    return names;
}

template <> const std::vector<EnumName<KShare>>& enumNames<KShare>()
{
    static const std::vector<EnumName<KShare>> names{
        {KShare::Global, "global"}, {KShare::Layer, "layer"}, {KShare::Mass, "mass"}, {KShare::Mixed, "mixed"}};
    return names;
}

template <> const std::vector<EnumName<Int8Rescale>>& enumNames<Int8Rescale>()
{
    static const std::vector<EnumName<Int8Rescale>> names{
        {Int8Rescale::Never, "never"}, {Int8Rescale::Output, "output"}, {Int8Rescale::All, "all"}};
    return names;
}

template <> const std::vector<EnumName<FuInt8Training>>& enumNames<FuInt8Training>()
{
    static const std::vector<EnumName<FuInt8Training>> names{{FuInt8Training::QuantAware, "quant_aware"},
                                                             {FuInt8Training::Post, "post"}};
    return names;
}

template <> const std::vector<EnumName<Int8Biases>>& enumNames<Int8Biases>()
{
    static const std::vector<EnumName<Int8Biases>> names{{Int8Biases::Codes, "codes"}, {Int8Biases::Float, "float"}};
    return names;
}

template <> const std::vector<EnumName<DeliveryChoice>>& enumNames<DeliveryChoice>()
{
    static const std::vector<EnumName<DeliveryChoice>> names{
        {DeliveryChoice::Preset, "preset"}, {DeliveryChoice::Multicast, "multicast"}, {DeliveryChoice::Unicast, "unicast"}};
    return names;
}

template <> const std::vector<EnumName<DeviceClassChoice>>& enumNames<DeviceClassChoice>()
{
    static const std::vector<EnumName<DeviceClassChoice>> names{
        {DeviceClassChoice::Preset, "preset"}, {DeviceClassChoice::C, "c"}, {DeviceClassChoice::B, "b"}};
    return names;
}

template <> const std::vector<EnumName<DeployedForm>>& enumNames<DeployedForm>()
{
    // The forms' own table spells them (plan/DeployedForms.cpp): a new form is one entry there.
    static const std::vector<EnumName<DeployedForm>> names = [] {
        std::vector<EnumName<DeployedForm>> out;
        for (const DeployedFormInfo& f : deployedForms())
            out.push_back({f.form, f.name.c_str()});
        return out;
    }();
    return names;
}

template <> const std::vector<EnumName<CpuChoice>>& enumNames<CpuChoice>()
{
    static const std::vector<EnumName<CpuChoice>> names{
        {CpuChoice::None, "none"}, {CpuChoice::CortexM4, "cortex-m4"}, {CpuChoice::CortexM0, "cortex-m0"}};
    return names;
}

template <> const std::vector<EnumName<CatchUpDelivery>>& enumNames<CatchUpDelivery>()
{
    static const std::vector<EnumName<CatchUpDelivery>> names{{CatchUpDelivery::Unicast, "unicast"},
                                                              {CatchUpDelivery::MulticastPerVersion, "multicast"}};
    return names;
}

template <> const std::vector<EnumName<CatchUpOrder>>& enumNames<CatchUpOrder>()
{
    static const std::vector<EnumName<CatchUpOrder>> names{{CatchUpOrder::MostStaleFirst, "most-stale"},
                                                           {CatchUpOrder::SmallestFirst, "smallest"}};
    return names;
}

template <> const std::vector<EnumName<CatchUpSizing>>& enumNames<CatchUpSizing>()
{
    static const std::vector<EnumName<CatchUpSizing>> names{{CatchUpSizing::Estimate, "estimate"}, {CatchUpSizing::Real, "real"}};
    return names;
}

std::string quotedChoices(const std::vector<std::string>& names)
{
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "\"" : i + 1 == names.size() ? " or \"" : ", \"") + names[i] + "\"";
    return out;
}

} // namespace dpu
