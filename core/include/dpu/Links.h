// SPDX-License-Identifier: MIT
// The links edge devices sit behind (LoRa, NB-IoT, LTE-M, BLE): names and application-layer rates, shared by the GUI and the CLI.
#pragma once
#include <string>
#include <vector>

namespace dpu {

struct LinkPreset {
    std::string key;      ///< what the command line takes: "lora", "nb-iot", "lte-m", "ble"
    std::string name;     ///< what lists show: "LoRa (5.5 kbit/s)"
    double bitsPerSecond; ///< typical application-layer rate
};

/// LoRa, NB-IoT, LTE-M, BLE, in order of rate.
const std::vector<LinkPreset>& linkPresets();

/// The preset with that key (case-insensitive); nullptr when none.
const LinkPreset* findLinkPreset(const std::string& key);

/// "lora, nb-iot, lte-m or ble", for error messages.
std::string linkPresetKeys();

} // namespace dpu
