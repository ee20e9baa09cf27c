// SPDX-License-Identifier: MIT
// Registration of the engine structs that cross from the worker thread to the GUI thread.
#include "workers/EngineMetatypes.h"

namespace dpu::ui {

void registerEngineMetatypes()
{
    // Queued connections copy arguments through QMetaType; registering by name also lets
    // QSignalSpy and string-based connections in the tests handle these types.
    qRegisterMetaType<dpu::RunInfo>("dpu::RunInfo");
    qRegisterMetaType<dpu::RoundStart>("dpu::RoundStart");
    qRegisterMetaType<dpu::EpochEvent>("dpu::EpochEvent");
    qRegisterMetaType<dpu::BatchProgress>("dpu::BatchProgress");
    qRegisterMetaType<dpu::RoundRecord>("dpu::RoundRecord");
    qRegisterMetaType<dpu::RunSummary>("dpu::RunSummary");
    qRegisterMetaType<dpu::Plan>("dpu::Plan");
    qRegisterMetaType<dpu::SweepFolderStatus>("dpu::SweepFolderStatus");
}

} // namespace dpu::ui
