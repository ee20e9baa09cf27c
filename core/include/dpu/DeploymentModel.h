// SPDX-License-Identifier: MIT
// A deployment (dpu/Deployment.h) as the fleet simulation reads it: its processor and FleetConfig (its Link and SF mix: dpu/DeploymentLink.h).
#pragma once
#include "dpu/Deployment.h"
#include "dpu/DeploymentLink.h" // linkOf(), sfMixOf(): the deployment's link, which fleetConfigOf() builds with
#include "dpu/Fleet.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// The processor (clockHz 0 for CpuChoice::None). Throws nothing; validateDeviceCpu() checks it.
DeviceCpu deviceCpuOf(const CpuSettings& settings);

/// The simulation's fleet: one group of `deployment.devices` devices with the link, mix,
/// availability (or the trace, read here), processor and, with sampleBytes, the uplink of the
/// paper's sample upload; the deployment's policy, period, drain and seed; `lastRound` and
/// `newSamplesPerRound` from the runs (FleetRunInput). Throws LinkError as linkOf(), and naming
/// the trace's file and line for an unreadable or malformed trace; the rest is checked by
/// simulateFleet().
FleetConfig fleetConfigOf(const Deployment& deployment, int lastRound, int64_t newSamplesPerRound);

} // namespace dpu
