// SPDX-License-Identifier: MIT
// What a training step needs to report progress and honour cancellation.
#pragma once
#include "dpu/Error.h"
#include "dpu/Events.h"
#include <atomic>
#include <string>

namespace dpu {

/// Identifies the (seed, round, strategy) unit being trained and carries the observer.
struct TrainContext {
    RunObserver* observer = nullptr;          ///< not owned; may be null
    const std::atomic<bool>* cancel = nullptr; ///< not owned; may be null
    std::string strategy;
    uint64_t seed = 0;
    int round = 0;
    bool reportBatches = true;

    /// Throws Cancelled when the token is set or the observer asks to stop.
    void checkCancel() const
    {
        if ((cancel && cancel->load(std::memory_order_relaxed)) || (observer && observer->shouldCancel()))
            throw Cancelled();
    }
};

} // namespace dpu
