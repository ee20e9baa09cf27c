// SPDX-License-Identifier: MIT
// LoRaWAN Class B timing as expectations: when a multicast's frames can go out given the beacons and the group's ping slots.
#pragma once

namespace dpu::link {

// LoRaWAN 1.0.4 section 12 (the same in every region): a beacon every 128 s, 2.12 s reserved
// after it and 3 s of guard before the next, 4096 slots of 30 ms in between; a group's ping
// slots fall every pingPeriod seconds from a pseudo-random offset that changes every period.
constexpr double kBeaconPeriodSeconds = 128.0;
constexpr double kBeaconReservedSeconds = 2.12;
constexpr double kBeaconWindowSeconds = 122.88;
constexpr double kPingSlotSeconds = 0.03;

/// The expected schedule of a Class B multicast whose transmitter may start a frame every
/// `minimumSpacing` seconds at the earliest (the frame and its duty-cycle off-time), each frame
/// starting at one of the group's ping slots.
struct ClassBTiming {
    double firstFrameDelay = 0; ///< s from the session's start (a random phase) to its first frame
    double frameSpacing = 0;    ///< s between the starts of consecutive frames, on average
    double slotsPerSecond = 0;  ///< the group's ping slots per second: pingNb / 128 s
    int slotsPerBeacon = 0;     ///< pingNb: 122.88 s / pingPeriod
};

/// Expectations over the ping offsets and over where in the beacon period a frame falls: within
/// one beacon period the next frame waits for the group's next slot (a whole number of ping
/// periods after the last); one that falls past the period's last slot waits for the next
/// period's slots, beyond the beacon guard and reserved time, at a new offset. Closed sums over
/// a few offsets and slot positions: no draws, the same bits everywhere. `pingPeriodSeconds` in
/// (0, 122.88], `minimumSpacing` > 0.
ClassBTiming classBTiming(double pingPeriodSeconds, double minimumSpacing);

} // namespace dpu::link
