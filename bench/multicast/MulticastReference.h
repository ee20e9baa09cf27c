// SPDX-License-Identifier: MIT
// A frame-level reference for one LoRaWAN FUOTA multicast: an event simulation, frame by frame and device by device, written apart from the product's link model.
#pragma once
#include <cstdint>
#include <vector>

// Nothing here includes or calls the product (dpu/): the reference has its own airtime formula,
// its own region table, its own ping-slot calendar and its own decoder, so that comparing the
// product with it tests the product's analytic shortcuts (docs/benchmarks.md, section 23).
namespace mcref {

enum class DeviceClass { C, B };
/// How a device decodes: FUOTASim's rule (any data + 3 fragments), or a TS004-like systematic code
/// decoded explicitly (the data fragments as sent, then parity fragments each the XOR of a
/// pseudo-random half of the data fragments; a device decodes once its fragments span all of
/// them over GF(2), by Gaussian elimination as they arrive).
enum class Decoding { DataPlus3, Gf2 };

/// Devices at one spreading factor, and the frames a session at that SF sends (data fragments
/// plus redundancy: the caller's plan, so that product and reference send the same session).
struct SfGroup {
    int spreadingFactor = 7;
    int devices = 0;
    int framesPerSession = 0;
};

struct Scenario {
    std::vector<SfGroup> groups;  ///< SF ascending
    bool sessionPerSf = false;    ///< one session per SF (ascending), else one at the slowest SF for all
    int64_t bytes = 10000;
    double dutyCycle = 0.01;
    double loss = 0.1;            ///< mean frame loss
    double lossSpread = 0;        ///< each device's loss drawn uniformly in loss +- lossSpread
    DeviceClass deviceClass = DeviceClass::C;
    int pingPeriodicity = 0;      ///< Class B: ping period 0.96 x 2^p s
    double pingWindowSeconds = 0.03; ///< Class B: a receive window at an empty ping slot
    double rxWatts = 4.6e-3 * 3.3;   ///< SX1262 receive at 3.3 V
    bool leaveWhenDecoded = true; ///< a device stops listening at the frame that completes it
    Decoding decoding = Decoding::DataPlus3;
};

/// One simulated session (or the sessions of every SF) for the whole fleet.
struct Outcome {
    double energyPerDevice = 0; ///< J, mean over every device of the fleet
    double timeTo50 = 0;        ///< s from the first session's start until half the fleet decoded; NaN: never
    double timeTo90 = 0;        ///< s until 90 % decoded; NaN: never
    double decodedShare = 0;    ///< devices that decoded / devices
    double lastFrameEnd = 0;    ///< s from the first session's start to the end of the last frame sent
    double framesHeard = 0;     ///< frames a device listened to, mean over the fleet
};

/// Simulates the scenario once with `seed`: every device's loss, every frame's fate, the session's
/// phase against the beacons and each beacon period's ping offset are drawn from it.
Outcome simulate(const Scenario& scenario, uint64_t seed);

/// Time on air of one LoRa downlink frame at EU868 125 kHz, CR 4/5 (AN1200.13 in floating point).
double airtimeSeconds(int spreadingFactor, int phyPayloadBytes, int preambleSymbols = 8, bool implicitHeader = false);
/// EU868 application payload N per SF (Regional Parameters 1.0.3revA, repeater compatible).
int eu868Payload(int spreadingFactor);

} // namespace mcref
