// SPDX-License-Identifier: MIT
// What applying a bundle costs a device's processor: the QEMU-measured Cortex-M instruction figures, time and energy.
#include "dpu/DeviceCpu.h"
#include "dpu/LinkModel.h"
#include "link/Text.h"
#include <cmath>

namespace dpu {
namespace {

// bench/mcu/measure.sh (docs/benchmarks.md section 17): core/patch at arm-none-eabi-gcc 12.2 -Os,
// QEMU 7.2 -icount shift=0, the MLP's 2,679,416-byte device file; per coding the line through the
// round-2 deltas of two real runs (k 0.02 and 0.1): {per device-file byte, per bundle byte}, in
// dpu::Coding order fp32, fp16, q8, q8c, q4, ternary.
constexpr std::array<ApplyInstructions, 6> kCortexM4{{
    {131.8, 257.1}, {131.5, 364.8}, {131.0, 495.7}, {165.1, 1063.1}, {164.6, 1060.3}, {163.3, 1298.1},
}};
constexpr std::array<ApplyInstructions, 6> kCortexM0{{
    {227.0, 348.8}, {226.7, 492.6}, {226.0, 663.5}, {278.8, 2628.0}, {278.0, 2251.2}, {276.3, 2635.4},
}};

} // namespace

DeviceCpu measuredCortexM(bool m0)
{
    DeviceCpu cpu;
    cpu.name = m0 ? "Cortex-M0+ (ARMv6-M, soft float), -Os" : "Cortex-M4F, -Os";
    cpu.instructions = m0 ? kCortexM0 : kCortexM4;
    return cpu;
}

double applyInstructions(const DeviceCpu& cpu, Coding coding, int64_t fileBytes, int64_t bundleBytes)
{
    const ApplyInstructions& k = cpu.instructions[static_cast<size_t>(coding)];
    return k.perFileByte * static_cast<double>(fileBytes) + k.perBundleByte * static_cast<double>(bundleBytes);
}

double applySeconds(const DeviceCpu& cpu, Coding coding, int64_t fileBytes, int64_t bundleBytes)
{
    if (cpu.clockHz <= 0)
        return 0;
    return applyInstructions(cpu, coding, fileBytes, bundleBytes) * cpu.cyclesPerInstruction / cpu.clockHz;
}

double applyJoules(const DeviceCpu& cpu, double seconds)
{
    return seconds * cpu.activeAmps * cpu.volts;
}

void validateDeviceCpu(const DeviceCpu& cpu)
{
    using link::number;
    using link::require;
    require(std::isfinite(cpu.clockHz) && cpu.clockHz >= 0, "cpu.clockHz",
            "expected 0 (not simulated) or more, found " + number(cpu.clockHz));
    require(std::isfinite(cpu.cyclesPerInstruction) && cpu.cyclesPerInstruction > 0, "cpu.cyclesPerInstruction",
            "expected above 0, found " + number(cpu.cyclesPerInstruction));
    require(std::isfinite(cpu.activeAmps) && cpu.activeAmps >= 0, "cpu.activeAmps",
            "expected 0 or more, found " + number(cpu.activeAmps));
    require(std::isfinite(cpu.volts) && cpu.volts > 0, "cpu.volts", "expected above 0, found " + number(cpu.volts));
    for (size_t c = 0; c < cpu.instructions.size(); ++c) {
        const ApplyInstructions& k = cpu.instructions[c];
        require(std::isfinite(k.perFileByte) && k.perFileByte >= 0 && std::isfinite(k.perBundleByte) && k.perBundleByte >= 0,
                "cpu.instructions[" + std::to_string(c) + "]", "expected 0 or more instructions per byte");
    }
}

} // namespace dpu
