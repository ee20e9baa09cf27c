// SPDX-License-Identifier: MIT
// A training step captured once as a CUDA graph and replayed, and the side stream it runs on.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>

namespace dpu::cuda {

/// True when this build can capture CUDA graphs (a CUDA LibTorch with the fused kernels) and
/// the environment does not turn them off (DPU_CUDA_GRAPHS=0, for comparisons).
bool graphsEnabled();

/// Bytes LibTorch's CUDA caching allocator holds from the driver on the current device, live or
/// cached (0 in a build without CUDA graphs). A test reads it to see that graphs give their
/// memory back.
std::size_t reservedBytes();

/// For its lifetime, makes a side stream of the current CUDA device LibTorch's current stream
/// (graphs are captured on a stream other than the default one). The side stream starts after
/// the work queued before it, and the host waits for the side stream at destruction, so
/// tensors made on either stream are safe to use and free afterwards.
class SideStream {
public:
    SideStream();
    ~SideStream();
    SideStream(const SideStream&) = delete;
    SideStream& operator=(const SideStream&) = delete;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// One CUDA graph: `capture` records the kernels that `body` queues on the current stream
/// (without running them), `replay` runs them again on the same memory. Tensors the body reads
/// or writes must keep their storage between replays. Throws std::runtime_error when capture
/// fails (an operation a graph cannot hold) or the build has no CUDA graphs.
class StepGraph {
public:
    StepGraph();
    ~StepGraph();
    StepGraph(const StepGraph&) = delete;
    StepGraph& operator=(const StepGraph&) = delete;

    bool captured() const;
    void capture(const std::function<void()>& body);
    void replay();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace dpu::cuda
