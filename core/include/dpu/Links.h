// SPDX-License-Identifier: MIT
// The links edge devices sit behind (LoRa, NB-IoT, LTE-M, BLE) as bare rates, shared by the GUI and the CLI; each
// names the preset of dpu/LinkModel.h (frames, airtime, duty cycle, energy) it stands for.
#pragma once
#include <string>
#include <vector>

namespace dpu {

struct LinkPreset {
    std::string key;      ///< what the command line takes: "lora", "nb-iot", "lte-m", "ble"
    std::string name;     ///< what lists show: "LoRa (5.5 kbit/s)"
    double bitsPerSecond; ///< typical application-layer rate
    std::string modelKey; ///< the dpu/LinkModel.h preset it stands for ("lorawan-eu868-sf7")
};

/// LoRa, NB-IoT, LTE-M, BLE, in order of rate.
const std::vector<LinkPreset>& linkPresets();

/// The preset with that key (case-insensitive); nullptr when none.
const LinkPreset* findLinkPreset(const std::string& key);

/// "lora, nb-iot, lte-m or ble", for error messages.
std::string linkPresetKeys();

} // namespace dpu
