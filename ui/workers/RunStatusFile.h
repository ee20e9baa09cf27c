// SPDX-License-Identifier: MIT
// A run folder's run.json read into its status, for the fleet workers that take runs from the book.
#pragma once
#include "dpu/RunFolder.h"

namespace dpu::ui {

/// Reads `run`'s run.json (the model's size, for the full model's bytes without an FU run) into
/// run.status unless it is known already; a missing or unreadable file leaves it unknown, as
/// for a run folder of an older version (the run folder's own reader reports a bad file when the
/// run is opened). Throws nothing.
void readRunStatus(dpu::RunFolder& run);

} // namespace dpu::ui
