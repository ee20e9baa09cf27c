// SPDX-License-Identifier: MIT
// Links: typical application-layer rates of the links edge devices sit behind, a view over the LinkModel presets.
#include "dpu/Links.h"
#include "dpu/LinkModel.h"
#include <algorithm>
#include <cctype>

namespace dpu {

const std::vector<LinkPreset>& linkPresets()
{
    // The rates the Budget planner and the report have always used (their tests pin them); the
    // model key leads to the link as configured: frames, time on air, duty cycle, energy.
    static const std::vector<LinkPreset> presets{
        {"lora", "LoRa (5.5 kbit/s)", 5.5e3, lorawanEu868(7).key},
        {"nb-iot", "NB-IoT (60 kbit/s)", 60e3, nbIot(2).key},
        {"lte-m", "LTE-M (375 kbit/s)", 375e3, lteM().key},
        {"ble", "BLE (1 Mbit/s)", 1e6, bleSmp(true).key},
    };
    return presets;
}

const LinkPreset* findLinkPreset(const std::string& key)
{
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const LinkPreset& p : linkPresets())
        if (p.key == lower)
            return &p;
    return nullptr;
}

std::string linkPresetKeys()
{
    std::string out;
    const auto& presets = linkPresets();
    for (size_t i = 0; i < presets.size(); ++i)
        out += (i == 0 ? "" : i + 1 == presets.size() ? " or " : ", ") + presets[i].key;
    return out;
}

} // namespace dpu
