// SPDX-License-Identifier: MIT
// A run's records as its files hold them: a line of results.jsonl, and results.csv.
#pragma once
#include "dpu/Events.h"
#include <string>
#include <vector>

namespace dpu {

/// Serialises a record as one JSON object (a line of results.jsonl).
std::string recordToJson(const RoundRecord& record);
/// Parses one results.jsonl line. Throws Error on malformed input.
RoundRecord recordFromJson(const std::string& line);
/// Header and rows of results.csv.
std::string recordsToCsv(const std::vector<RoundRecord>& records);

} // namespace dpu
