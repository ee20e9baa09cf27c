// SPDX-License-Identifier: MIT
// What tells runs shown side by side apart, in words, for legends and tables.
#pragma once
#include "dpu/Plan.h"
#include <string>
#include <vector>

namespace dpu {

/// For runs shown side by side (plans[i] is run i's plan, labels[i] its name: a queue number or
/// a folder name), one short text per run saying what sets it apart from the others: the plan
/// values where the runs disagree ("k=0.05", a coding such as "q4", "rounds=3"), joined by
/// " · ", k first and the coding next. The plan's name, how it ran (device, threads) and its
/// strategies never count: a series already names its strategy. Runs whose texts would be
/// equal (the same plan run twice) get their label added ("run 2", or the label alone when
/// nothing differs). One run alone gets an empty text. Throws InternalError (the caller's
/// defect) when the two lists differ in length.
std::vector<std::string> runDistinctions(const std::vector<Plan>& plans, const std::vector<std::string>& labels);

} // namespace dpu
