// SPDX-License-Identifier: MIT
// One cell run inside a Slurm array task: start and exit records around the resumable cell run.
#include "CellProcess.h"
#include "dpu/Error.h"
#include "dpu/SlurmSweep.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <filesystem>

namespace dpu {

int runSweepCellTask(const std::string& sweepDir, const std::string& id, const std::string& program, int threads,
                     const RunControl& control)
{
    const std::string cellDir = sweepCellDir(sweepDir, id);
    std::error_code ec;
    if (id.empty() || !std::filesystem::exists(cellDir + "/plan.json", ec))
        throw Error(cellDir + "/plan.json: no such cell in the sweep folder (cell id '" + id + "')");
    if (sweepCellState(sweepDir, id) == CellState::Done)
        return 0; // finished by an earlier task: a requeue or resubmission has nothing to do
    const pid_t pid = startCellProcess(program, sweepDir, id, threads < 1 ? 1 : threads);
    bool passedOn = false;
    int status = 0;
    while (true) {
        const pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR) {
            status = 127 << 8;
            break;
        }
        if (!passedOn && control.cancelRequested()) {
            kill(pid, SIGTERM); // the run keeps its finished rounds and ends with kCellStoppedExit
            passedOn = true;
        }
        usleep(100 * 1000);
    }
    int code = cellExitCode(status);
    if (code == 128 + SIGTERM)
        code = kCellStoppedExit; // Slurm's (or our) SIGTERM before the run's handler: stopped, resumable
    writeCellExit(sweepDir, id, code);
    return code;
}

} // namespace dpu
