// SPDX-License-Identifier: MIT
// Where "Queue k sweep" sends its runs: the window's run queue, this computer's cores, or a Slurm cluster.
#pragma once
#include "dpu/Sweep.h"
#include <QString>

namespace dpu::ui {

/// The budget planner's sweep destination (remembered under "sweep/" in the settings).
struct SweepTarget {
    enum class Where { Queue, Local, Slurm };
    Where where = Where::Queue;
    int jobs = 2;                    ///< Local: cells at once (each gets cores / jobs threads)
    QString folder;                  ///< Local, Slurm: where sweep folders go (Slurm: shared by the nodes)
    dpu::SweepSlurmSettings slurm;   ///< Slurm: partition, time, CPUs, GPUs, memory, throttle
};

} // namespace dpu::ui
