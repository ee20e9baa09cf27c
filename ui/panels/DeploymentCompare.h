// SPDX-License-Identifier: MIT
// A plan's deployment (its fleet keys) beside a variation of it: whether they differ, what differs in words, which keys a form writes back.
#pragma once
#include "dpu/Plan.h"
#include <QString>
#include <QStringList>
#include <string>

namespace dpu::ui::deploymentcompare {

/// Every key of the two equal: link, SF and mix, sub-band, loss and its spread, delivery, device
/// class, ping period, leaving, devices, availability, period.
bool same(const dpu::Deployment& a, const dpu::Deployment& b);

/// What a form stating `now` gives back for a plan whose keys were `original` and which showed
/// them as `shown` (its widgets' reading right after showing them): `now`'s value of each key
/// that differs from `shown`, `original`'s of each that does not, so a plan file keeps its bytes
/// (SF 0 shows as SF7 and stays 0). The SF and the mix go together, being one choice.
dpu::Deployment kept(const dpu::Deployment& original, const dpu::Deployment& shown, const dpu::Deployment& now);

/// One phrase per key `explored` changes, in the order of the plan's keys: "SF10 instead of the
/// plan's FUOTASim mix", "500 devices instead of the plan's 200". A changed link says so alone
/// for its SF, mix and sub-band (they belong to the link). Empty when same().
QStringList differences(const dpu::Deployment& plan, const dpu::Deployment& explored);

/// The deployment in a line: "200 devices on LoRaWAN EU868, FUOTASim mix, 1 % sub-band, 10 %
/// loss, 80 % available, a round every 24 h".
QString summary(const dpu::Deployment& fleet);

/// The name lists give a link key ("LoRaWAN EU868", a preset's name); the key itself for one
/// core lacks.
QString linkName(const std::string& key);

} // namespace dpu::ui::deploymentcompare
