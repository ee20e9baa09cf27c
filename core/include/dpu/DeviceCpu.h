// SPDX-License-Identifier: MIT
// A device's processor and what applying one bundle costs it: instructions measured in QEMU on Cortex-M (docs/fleet.md).
#pragma once
#include "dpu/PlanEnums.h"
#include <array>
#include <cstdint>
#include <string>

namespace dpu {

/// Instructions of one apply (dpu_bundle_verify + dpu_bundle_apply of core/patch) as
/// `perFileByte x device-file bytes + perBundleByte x bundle bytes`: the verify hashes the old
/// file, the apply streams every value of it and hashes the new one, so most of the work grows
/// with the device file, not with the bundle.
struct ApplyInstructions {
    double perFileByte = 0;
    double perBundleByte = 0;
};

/// The processor of a group's devices. clockHz 0 (the default): applying is not simulated.
struct DeviceCpu {
    std::string name;
    double clockHz = 0;
    /// Instructions are not cycles: 1 is the lower bound (single-cycle ALU instructions);
    /// loads, taken branches and flash wait states raise it. Measure it on the part (DWT CYCCNT).
    double cyclesPerInstruction = 1;
    double activeAmps = 0; ///< the MCU running from flash (its datasheet's run current)
    double volts = 3;      ///< the supply that current is drawn at
    /// per dpu::Coding (index = its value); a full-model bundle is charged as Coding::Fp32
    std::array<ApplyInstructions, 6> instructions{};
};

/// The figures measured in QEMU (bench/mcu/measure.sh, docs/benchmarks.md section 17) for
/// core/patch built with arm-none-eabi-gcc -Os: Cortex-M4F (mps2-an386) or, when `m0` is
/// set, Cortex-M0/M0+ (ARMv6-M, soft float; microbit). The caller sets the part's clock and run
/// current from its datasheet (both 0 here: nothing is charged until they are set).
DeviceCpu measuredCortexM(bool m0);

/// Instructions of one apply of a `bundleBytes` bundle coded `coding` to a `fileBytes` device file.
double applyInstructions(const DeviceCpu& cpu, Coding coding, int64_t fileBytes, int64_t bundleBytes);

/// Seconds of that apply on `cpu` (instructions x cyclesPerInstruction / clockHz; 0 when the
/// clock is 0), and the energy it draws (seconds x activeAmps x volts).
double applySeconds(const DeviceCpu& cpu, Coding coding, int64_t fileBytes, int64_t bundleBytes);
double applyJoules(const DeviceCpu& cpu, double seconds);

/// Checks the fields; throws LinkError naming the field (`cpu.clockHz: expected 0 or more, found -1`).
void validateDeviceCpu(const DeviceCpu& cpu);

} // namespace dpu
