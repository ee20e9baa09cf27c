// SPDX-License-Identifier: MIT
// Strategy lookup by plan name.
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/StrategyId.h"
#include "strategies/DeepPartialUpdating.h"
#include "strategies/FullUpdating.h"
#include "strategies/GlobalContributionUpdating.h"
#include "strategies/LocalContributionUpdating.h"
#include "strategies/Pruning.h"
#include "strategies/RandomPartialUpdating.h"

namespace dpu {

std::unique_ptr<Strategy> createStrategy(StrategyId id, const Plan& plan)
{
    const bool iterative = rewindsIteratively(plan);
    switch (id) {
    case StrategyId::Fu: return std::make_unique<FullUpdating>(plan.fuStart);
    case StrategyId::Dpu: return std::make_unique<DeepPartialUpdating>(plan.lambda, plan.reinit, iterative);
    case StrategyId::DpuMemory:
        return std::make_unique<DeepPartialUpdating>(plan.lambda, plan.reinit, iterative, /*memory=*/true);
    case StrategyId::DpuNoreinit: return std::make_unique<DeepPartialUpdating>(plan.lambda, false, iterative);
    case StrategyId::Gcpu: return std::make_unique<GlobalContributionUpdating>(false, iterative);
    case StrategyId::GcpuReinit: return std::make_unique<GlobalContributionUpdating>(true, iterative);
    case StrategyId::Lcpu: return std::make_unique<LocalContributionUpdating>(plan.reinit, iterative);
    case StrategyId::Rpu: return std::make_unique<RandomPartialUpdating>();
    case StrategyId::Pruning: return std::make_unique<Pruning>();
    }
    DPU_UNREACHABLE("createStrategy: strategy " + std::to_string(static_cast<int>(id)) + " is not listed");
}

std::unique_ptr<Strategy> createStrategy(const std::string& name, const Plan& plan)
{
    const std::optional<StrategyId> id = enumFromString<StrategyId>(name);
    if (!id)
        throw PlanError("strategies", "unknown strategy \"" + name + "\"");
    return createStrategy(*id, plan);
}

} // namespace dpu
