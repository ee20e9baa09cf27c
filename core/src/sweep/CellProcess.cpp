// SPDX-License-Identifier: MIT
// One cell's child process, shared by the local backend and the Slurm array task.
#include "CellProcess.h"
#include "dpu/Error.h"
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <cstring>
#include <vector>

extern char** environ;

namespace dpu {
namespace {

/// posix_spawn's attributes and file actions, released however the start ends.
struct SpawnSetup {
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t files;
    SpawnSetup()
    {
        posix_spawnattr_init(&attr);
        posix_spawn_file_actions_init(&files);
    }
    ~SpawnSetup()
    {
        posix_spawn_file_actions_destroy(&files);
        posix_spawnattr_destroy(&attr);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
};

} // namespace

pid_t startCellProcess(const std::string& program, const std::string& cellDir, int threads)
{
    const std::string plan = cellDir + "/plan.json", log = cellDir + "/cell.log";
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
    // posix_spawn, not fork: fork runs every pthread_atfork handler of this process, and one in a
    // GUI that has used BLAS (OpenBLAS's, which shuts its thread pool down) hung the sweep's
    // thread inside fork for good (test_ui_sweep's HangWatch found it there, all signals
    // blocked). glibc's posix_spawn runs none, and keeps every signal blocked until the child
    // has reset its handlers, so a quick cancel's SIGTERM or a pause's SIGSTOP meets the defaults.
    SpawnSetup s;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&s.attr, &none);
    posix_spawnattr_setsigdefault(&s.attr, &all);
    // Its own process group: a terminal's Ctrl-C goes to the foreground group, the sweep's, which
    // passes a SIGTERM on once; the cell does not see it twice.
    posix_spawnattr_setpgroup(&s.attr, 0);
    posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    posix_spawn_file_actions_addopen(&s.files, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&s.files, 1, 2);
    pid_t pid = 0;
    const int err = posix_spawn(&pid, program.c_str(), &s.files, &s.attr, const_cast<char* const*>(argv), envp.data());
    if (err != 0)
        throw Error(cellDir + ": cannot start the cell's process " + program + ": " + std::strerror(err));
    return pid;
}

int cellExitCode(int waitStatus)
{
    return WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 128 + WTERMSIG(waitStatus);
}

} // namespace dpu
