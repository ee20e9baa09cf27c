// SPDX-License-Identifier: MIT
// Strategy lookup by plan name.
#include "dpu/Error.h"
#include "strategies/DeepPartialUpdating.h"
#include "strategies/FullUpdating.h"
#include "strategies/GlobalContributionUpdating.h"
#include "strategies/LocalContributionUpdating.h"
#include "strategies/Pruning.h"
#include "strategies/RandomPartialUpdating.h"

namespace dpu {

std::unique_ptr<Strategy> createStrategy(const std::string& name, const Plan& plan)
{
    const bool iterative = rewindsIteratively(plan);
    if (name == "fu")
        return std::make_unique<FullUpdating>(plan.fuStart);
    if (name == "dpu")
        return std::make_unique<DeepPartialUpdating>(plan.lambda, plan.reinit, iterative);
    if (name == "dpu-memory")
        return std::make_unique<DeepPartialUpdating>(plan.lambda, plan.reinit, iterative, /*memory=*/true);
    if (name == "dpu-noreinit")
        return std::make_unique<DeepPartialUpdating>(plan.lambda, false, iterative);
    if (name == "gcpu")
        return std::make_unique<GlobalContributionUpdating>(false, iterative);
    if (name == "gcpu-reinit")
        return std::make_unique<GlobalContributionUpdating>(true, iterative);
    if (name == "lcpu")
        return std::make_unique<LocalContributionUpdating>(plan.reinit, iterative);
    if (name == "rpu")
        return std::make_unique<RandomPartialUpdating>();
    if (name == "pruning")
        return std::make_unique<Pruning>();
    throw PlanError("strategies", "unknown strategy \"" + name + "\"");
}

} // namespace dpu
