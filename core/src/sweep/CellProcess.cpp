// SPDX-License-Identifier: MIT
// One cell's child process, shared by the local backend and the Slurm array task.
#include "CellProcess.h"
#include "dpu/Error.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace dpu {

pid_t startCellProcess(const std::string& program, const std::string& cellDir, int threads)
{
    const std::string plan = cellDir + "/plan.json", log = cellDir + "/cell.log";
    // The environment is built before fork: setenv may allocate, which a child of a
    // multi-threaded parent (a GUI) must not do before exec.
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "OMP_NUM_THREADS=", 16) != 0 && std::strncmp(*e, "MKL_NUM_THREADS=", 16) != 0)
            env.emplace_back(*e);
    env.push_back("OMP_NUM_THREADS=" + std::to_string(threads));
    env.push_back("MKL_NUM_THREADS=" + std::to_string(threads));
    std::vector<char*> envp;
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const char* const argv[] = {program.c_str(), "run", plan.c_str(), "--out", cellDir.c_str(), "--resume", "--quiet",
                                nullptr};
    // Until exec the child runs the parent's signal handlers (a test framework's crash handler,
    // dpu-cli's stop flag): a SIGTERM or SIGSTOP from a quick cancel or pause must meet the
    // defaults instead. So signals wait, blocked, until the child has reset its handlers.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    const pid_t pid = fork();
    if (pid < 0) {
        const int err = errno;
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        throw Error(cellDir + ": cannot start the cell's process: " + std::strerror(err));
    }
    if (pid == 0) { // only async-signal-safe calls until exec
        for (int sig = 1; sig < NSIG; ++sig)
            if (sig != SIGKILL && sig != SIGSTOP)
                signal(sig, SIG_DFL);
        signal(SIGINT, SIG_IGN); // a terminal's Ctrl-C reaches the sweep, which passes SIGTERM on once
        sigprocmask(SIG_SETMASK, &old, nullptr);
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execve(program.c_str(), const_cast<char* const*>(argv), envp.data());
        const char msg[] = "cannot run the cell program\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(127);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return pid;
}

int cellExitCode(int waitStatus)
{
    return WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 128 + WTERMSIG(waitStatus);
}

} // namespace dpu
