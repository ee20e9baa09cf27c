// SPDX-License-Identifier: MIT
// One cell's child process, shared by the local backend and the Slurm array task.
#include "CellProcess.h"
#include "dpu/Error.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace dpu {

pid_t startCellProcess(const std::string& program, const std::string& cellDir, int threads)
{
    const std::string plan = cellDir + "/plan.json", log = cellDir + "/cell.log";
    const std::string omp = std::to_string(threads);
    const pid_t pid = fork();
    if (pid < 0)
        throw Error(cellDir + ": cannot start the cell's process: " + std::strerror(errno));
    if (pid == 0) { // only async-signal-safe calls until exec
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("OMP_NUM_THREADS", omp.c_str(), 1);
        setenv("MKL_NUM_THREADS", omp.c_str(), 1);
        signal(SIGINT, SIG_IGN); // a terminal's Ctrl-C reaches the sweep, which passes SIGTERM on once
        execl(program.c_str(), program.c_str(), "run", plan.c_str(), "--out", cellDir.c_str(), "--resume", "--quiet",
              static_cast<char*>(nullptr));
        const char msg[] = "cannot run the cell program\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(127);
    }
    return pid;
}

int cellExitCode(int waitStatus)
{
    return WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 128 + WTERMSIG(waitStatus);
}

} // namespace dpu
