// SPDX-License-Identifier: MIT
// DPU_TEST_DEVICE: which device the training, masking and strategy tests use.
#include "TestDevice.h"
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace dpu::test {

torch::Device testDevice()
{
    const char* env = std::getenv("DPU_TEST_DEVICE");
    const std::string wanted = env && *env ? env : "cpu";
    const torch::Device device(wanted);
    if (device.is_cuda() && !torch::cuda::is_available())
        throw std::runtime_error("DPU_TEST_DEVICE=" + wanted + " but LibTorch sees no CUDA device");
    return device;
}

torch::Tensor onTestDevice(const torch::Tensor& t)
{
    return t.defined() ? t.to(testDevice()) : t;
}

} // namespace dpu::test
