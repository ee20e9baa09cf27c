// SPDX-License-Identifier: MIT
// The pieces of one session's cost, shared by linkRound() and the fleet simulation.
#pragma once
#include "dpu/LinkModel.h"

namespace dpu::fleet {

/// Seconds on air of `frames` frames carrying `bytes` in `fragments` data fragments: every frame
/// full for an erasure-coded link (TS004 pads the last fragment), the last data frame partial
/// for a retransmitting one.
double sessionAirtime(const Link& link, int64_t bytes, int64_t fragments, int64_t frames);

/// The transmitter's time for a session: its airtime under the duty cycle plus the per-frame
/// turnaround.
double channelSeconds(const Link& link, double airtime, int64_t frames);

/// A device's energy for a session it listens to for `listenSeconds` (excluding the fixed
/// setup), `frames` of which took `airtime`: frames, ping slots or the whole session, plus the
/// fixed session energy.
double sessionEnergy(const Link& link, double airtime, double listenSeconds, int64_t frames);

/// Frames needed before a device can decode: the data fragments, plus the decoding overhead of
/// an erasure-coded link.
int64_t framesToDecode(const Link& link, int64_t fragments);

} // namespace dpu::fleet
