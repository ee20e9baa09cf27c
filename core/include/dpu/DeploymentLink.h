// SPDX-License-Identifier: MIT
// A deployment's link (dpu/Deployment.h) as the link model's Link and SF mix (core/src/link): what the plan checks and the simulation builds on.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/LinkModel.h"
#include <optional>
#include <string>
#include <vector>

namespace dpu {

/// A link a deployment's `fleet.link` may name, as the window's lists show it.
struct DeploymentLinkChoice {
    std::string key;        ///< "lorawan-eu868", or a link preset's key ("nb-iot-nb2")
    std::string name;       ///< "LoRaWAN EU868", or the preset's name
    bool region = false;    ///< a LoRaWAN region: takes a spreading factor or an SF mix (fleet.sf, fleet.sf_mix)
    bool subBands = false;  ///< EU868: takes one of eu868SubBands() as its duty cycle (fleet.duty_cycle)
};
/// The links a deployment may name, in the order lists show them: the LoRaWAN regions EU868 and
/// US915 (each at any SF), then the link presets that are not LoRa (a LoRa preset is a region at
/// one SF). Throws nothing.
std::vector<DeploymentLinkChoice> deploymentLinkChoices();
/// What `key` names, case-insensitive; an alias resolveLinkKey() knows stands for its preset
/// ("lora": the preset LoRaWAN EU868 SF7, which takes a sub-band but is not a region). nullopt
/// for a key core lacks (the plan's check names it). Throws nothing.
std::optional<DeploymentLinkChoice> deploymentLinkChoice(const std::string& key);

/// The link the deployment names: the preset (or the region at the SF), moved to the SF, the
/// duty cycle (EU868: its sub-band preset), the loss, its spread, the delivery, the device class
/// (withLoRaDeviceClass()) and whether devices leave once decoded set. Throws LinkError naming
/// the field for an unknown key, an SF or a sub-band the region lacks, a device class on a link
/// without one; other ranges are checked by validateLink()/validateFleet() (the CLI reports
/// them in that order).
Link linkOf(const DeploymentLink& link);
/// linkOf() at the slowest spreading factor of the link's mix (the pace a multicast to the
/// whole mix keeps, and the longest session one of its devices has): what the plan form's and
/// the report's per-device figures use. Without a mix, linkOf(). Throws as linkOf().
Link slowestLinkOf(const DeploymentLink& link);
/// `link` moved to the slowest spreading factor that has a share in `mix`; `link` itself for an
/// empty mix or a link without LoRa. Throws LinkError as withSpreadingFactor().
Link atSlowestSpreadingFactor(const Link& link, const std::vector<SpreadingFactorShare>& mix);
/// The SF mix the link names, SF ascending (empty: none). Throws LinkError("sfMix").
std::vector<SpreadingFactorShare> sfMixOf(const DeploymentLink& link);

} // namespace dpu
