// SPDX-License-Identifier: MIT
// The pieces of one session's cost, shared by linkRound() and the fleet simulation.
#pragma once
#include "dpu/LinkModel.h"

namespace dpu::link {

/// Seconds on air of `frames` frames carrying `bytes` in `fragments` data fragments: every frame
/// full for an erasure-coded link (TS004 pads the last fragment), the last data frame partial
/// for a retransmitting one.
double sessionAirtime(const Link& link, int64_t bytes, int64_t fragments, int64_t frames);

/// The transmitter's time for a session: its airtime under the duty cycle plus the per-frame
/// turnaround; Class B: the wait for the first ping slot plus `frames` frame spacings.
double channelSeconds(const Link& link, double airtime, int64_t frames);

/// Seconds between the starts of two full frames of a session: airtime / duty cycle plus the
/// turnaround, or Class B's expected spacing on its ping slots (link/ClassBTiming.h).
double frameSpacing(const Link& link);

/// Seconds from a session's start to its first frame: Class B's expected wait for a ping slot; 0 otherwise.
double firstFrameDelay(const Link& link);

/// Seconds from a session's start to the end of its `frame`-th full frame (1-based): when a
/// device that decodes with that frame has the bundle.
double decodedAfter(const Link& link, int64_t frame);

/// A device's radio energy (J, without the fixed session energy) when it listened for `seconds`
/// from a session's start and heard `frames` full frames: the frames (Class A), the frames plus a
/// window at every ping slot no frame covered plus every beacon (Class B), or all the time (Class C).
double listeningEnergy(const Link& link, double seconds, double frames);

/// A device's energy for a session it listens to for `listenSeconds` (excluding the fixed
/// setup), `frames` of which took `airtime`: frames, ping slots or the whole session, plus the
/// fixed session energy.
double sessionEnergy(const Link& link, double airtime, double listenSeconds, int64_t frames);

/// Frames needed before a device can decode: the data fragments, plus the decoding overhead of
/// an erasure-coded link.
int64_t framesToDecode(const Link& link, int64_t fragments);

} // namespace dpu::link
