// SPDX-License-Identifier: MIT
// Qt metatype declarations of the engine's plain event structs, so queued signals can carry them.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "dpu/SweepStatus.h"
#include <QMetaType>

Q_DECLARE_METATYPE(dpu::RunInfo)
Q_DECLARE_METATYPE(dpu::RoundStart)
Q_DECLARE_METATYPE(dpu::EpochEvent)
Q_DECLARE_METATYPE(dpu::BatchProgress)
Q_DECLARE_METATYPE(dpu::RoundRecord)
Q_DECLARE_METATYPE(dpu::RunSummary)
Q_DECLARE_METATYPE(dpu::Plan)
Q_DECLARE_METATYPE(dpu::SweepFolderStatus)

namespace dpu::ui {

/// Registers the structs above with the meta-type system (idempotent; called by RunQueue and
/// SweepController).
void registerEngineMetatypes();

} // namespace dpu::ui
