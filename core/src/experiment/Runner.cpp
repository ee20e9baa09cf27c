// SPDX-License-Identifier: MIT
// Runner: the public face of a run session.
#include "dpu/Runner.h"
#include "experiment/RunSession.h"

namespace dpu {

Runner::Runner(Plan plan, RunOptions options) : plan_(std::move(plan)), options_(std::move(options)) {}

Runner::~Runner() = default;

RunSummary Runner::run(RunObserver& observer)
{
    RunSession session(plan_, options_, observer);
    return session.run();
}

} // namespace dpu
