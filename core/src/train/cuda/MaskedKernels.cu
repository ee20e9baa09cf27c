// SPDX-License-Identifier: MIT
// CUDA kernels of the fused masked Adam and SGD steps (see train/FusedStep.h for the CPU twin).
#include "train/cuda/MaskedKernels.h"
#include "train/cuda/CudaStream.h"
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace dpu::cuda {

namespace {

// The common tail of both kernels, as finishFusedStep on the CPU: a frozen weight is not
// written at all, so no rounding can touch it; c_local -= g * dw with the step actually taken.
template <bool Masked, bool Local>
__device__ __forceinline__ void finish(float* __restrict__ p, const float* __restrict__ g,
                                       const float* __restrict__ mask, float* __restrict__ c, int64_t i, float dw)
{
    if (Masked) {
        if (mask[i] == 0.0f)
            dw = 0.0f;
        else
            p[i] = p[i] + dw;
    } else {
        p[i] = p[i] + dw;
    }
    if (Local)
        c[i] = c[i] - g[i] * dw;
}

template <bool Masked, bool Local, bool Decay>
__global__ void adamKernel(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
                           float* __restrict__ v, const float* __restrict__ mask, float* __restrict__ c, int64_t n,
                           AdamConstants byValue, const AdamConstants* __restrict__ onDevice)
{
    // A captured CUDA graph bakes its kernels' arguments in: replayed, it reads the step's
    // constants from device memory, where storeAdamConstants put them for this step.
    const AdamConstants k = onDevice ? *onDevice : byValue;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
        const float grad = Decay ? g[i] + k.wd * p[i] : g[i];
        const float mi = m[i] * k.b1 + grad * (1.0f - k.b1);
        const float vi = v[i] * k.b2 + (1.0f - k.b2) * grad * grad;
        m[i] = mi;
        v[i] = vi;
        const float denom = sqrtf(vi) / k.bc2Sqrt + k.eps;
        const float dw = -k.stepSize * (mi / denom);
        finish<Masked, Local>(p, g, mask, c, i, dw);
    }
}

template <bool Masked, bool Local, bool Decay, Momentum M>
__global__ void sgdKernel(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ buf,
                          const float* __restrict__ mask, float* __restrict__ c, int64_t n, SgdConstants k)
{
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
        float d = Decay ? g[i] + k.wd * p[i] : g[i];
        if (M != Momentum::None) {
            const bool first = M == Momentum::First || M == Momentum::FirstNesterov;
            const float b = first ? d : buf[i] * k.mu + d;
            buf[i] = b;
            d = (M == Momentum::FirstNesterov || M == Momentum::RunningNesterov) ? d + k.mu * b : b;
        }
        const float dw = -k.lr * d;
        finish<Masked, Local>(p, g, mask, c, i, dw);
    }
}

constexpr int kThreads = 256;

unsigned blocksFor(int64_t n)
{
    // Grid-stride loops: enough blocks to fill any current GPU, capped so huge tensors reuse them.
    const int64_t blocks = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < 65535 ? (blocks > 0 ? blocks : 1) : 65535);
}

void check(const char* what)
{
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <bool Masked, bool Local>
void launchAdam(bool decay, float* p, const float* g, float* m, float* v, const float* mask, float* c, int64_t n,
                const AdamConstants& k, const AdamConstants* kd, cudaStream_t s)
{
    if (decay)
        adamKernel<Masked, Local, true><<<blocksFor(n), kThreads, 0, s>>>(p, g, m, v, mask, c, n, k, kd);
    else
        adamKernel<Masked, Local, false><<<blocksFor(n), kThreads, 0, s>>>(p, g, m, v, mask, c, n, k, kd);
}

__global__ void storeAdamKernel(AdamConstants* __restrict__ dst, AdamConstants k)
{
    *dst = k;
}

template <bool Masked, bool Local, bool Decay>
void launchSgd(Momentum mo, float* p, const float* g, float* buf, const float* mask, float* c, int64_t n,
               const SgdConstants& k, cudaStream_t s)
{
    const unsigned b = blocksFor(n);
    switch (mo) {
    case Momentum::None: sgdKernel<Masked, Local, Decay, Momentum::None><<<b, kThreads, 0, s>>>(p, g, buf, mask, c, n, k); break;
    case Momentum::First: sgdKernel<Masked, Local, Decay, Momentum::First><<<b, kThreads, 0, s>>>(p, g, buf, mask, c, n, k); break;
    case Momentum::Running:
        sgdKernel<Masked, Local, Decay, Momentum::Running><<<b, kThreads, 0, s>>>(p, g, buf, mask, c, n, k);
        break;
    case Momentum::FirstNesterov:
        sgdKernel<Masked, Local, Decay, Momentum::FirstNesterov><<<b, kThreads, 0, s>>>(p, g, buf, mask, c, n, k);
        break;
    case Momentum::RunningNesterov:
        sgdKernel<Masked, Local, Decay, Momentum::RunningNesterov><<<b, kThreads, 0, s>>>(p, g, buf, mask, c, n, k);
        break;
    }
}

template <bool Masked, bool Local>
void launchSgdDecay(bool decay, Momentum mo, float* p, const float* g, float* buf, const float* mask, float* c,
                    int64_t n, const SgdConstants& k, cudaStream_t s)
{
    if (decay)
        launchSgd<Masked, Local, true>(mo, p, g, buf, mask, c, n, k, s);
    else
        launchSgd<Masked, Local, false>(mo, p, g, buf, mask, c, n, k, s);
}

} // namespace

bool kernelsBuilt()
{
    return true;
}

void maskedAdamStep(float* p, const float* g, float* m, float* v, const float* mask, float* c, int64_t n,
                    const AdamConstants& k, const AdamConstants* deviceK)
{
    if (n <= 0)
        return;
    const auto s = static_cast<cudaStream_t>(currentStream());
    const bool decay = k.wd != 0.0f;
    if (mask && c)
        launchAdam<true, true>(decay, p, g, m, v, mask, c, n, k, deviceK, s);
    else if (mask)
        launchAdam<true, false>(decay, p, g, m, v, mask, c, n, k, deviceK, s);
    else if (c)
        launchAdam<false, true>(decay, p, g, m, v, mask, c, n, k, deviceK, s);
    else
        launchAdam<false, false>(decay, p, g, m, v, mask, c, n, k, deviceK, s);
    check("masked Adam kernel");
}

void storeAdamConstants(AdamConstants* deviceDst, const AdamConstants& k)
{
    // A one-thread kernel, not cudaMemcpyAsync: a copy from pageable host memory would wait for
    // the stream, and one from pinned memory could be overwritten before the stream reads it.
    storeAdamKernel<<<1, 1, 0, static_cast<cudaStream_t>(currentStream())>>>(deviceDst, k);
    check("Adam constants kernel");
}

void maskedSgdStep(float* p, const float* g, float* buf, const float* mask, float* c, int64_t n,
                   const SgdConstants& k, Momentum momentum)
{
    if (n <= 0)
        return;
    const auto s = static_cast<cudaStream_t>(currentStream());
    const bool decay = k.wd != 0.0f;
    if (mask && c)
        launchSgdDecay<true, true>(decay, momentum, p, g, buf, mask, c, n, k, s);
    else if (mask)
        launchSgdDecay<true, false>(decay, momentum, p, g, buf, mask, c, n, k, s);
    else if (c)
        launchSgdDecay<false, true>(decay, momentum, p, g, buf, mask, c, n, k, s);
    else
        launchSgdDecay<false, false>(decay, momentum, p, g, buf, mask, c, n, k, s);
    check("masked SGD kernel");
}

} // namespace dpu::cuda
