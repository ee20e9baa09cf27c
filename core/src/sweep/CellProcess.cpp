// SPDX-License-Identifier: MIT
// One cell's child process, shared by the local backend and the Slurm array task.
#include "CellProcess.h"
#include "dpu/Error.h"
#include "dpu/Sweep.h"
#include "util/ProcessSpawn.h"
#include <sys/wait.h>
#include <cstring>

namespace dpu {

pid_t startCellProcess(const std::string& program, const std::string& sweepDir, const std::string& id, int threads)
{
    const std::string cellDir = sweepCellDir(sweepDir, id);
    writeCellStarted(sweepDir, id);
    SpawnRequest request;
    request.program = program;
    request.argv = {program, "run", cellDir + "/plan.json", "--out", cellDir, "--resume", "--quiet"};
    request.environment = {"OMP_NUM_THREADS=" + std::to_string(threads), "MKL_NUM_THREADS=" + std::to_string(threads)};
    request.outputFile = cellDir + "/cell.log";
    // Its own process group: a terminal's Ctrl-C goes to the foreground group, the sweep's, which
    // passes a SIGTERM on once; the cell does not see it twice. Started by posix_spawn, not fork:
    // see spawnProcess (a sweep's thread hung inside fork in a GUI that had used BLAS).
    request.ownProcessGroup = true;
    pid_t pid = 0;
    if (const int err = spawnProcess(request, pid); err != 0) {
        writeCellExit(sweepDir, id, 127); // it never ran: failed, not left running
        throw Error(cellDir + ": cannot start the cell's process " + program + ": " + std::strerror(err));
    }
    return pid;
}

int cellExitCode(int waitStatus)
{
    return WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 128 + WTERMSIG(waitStatus);
}

} // namespace dpu
