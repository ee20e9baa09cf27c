// SPDX-License-Identifier: MIT
// Starts a child program with posix_spawn: environment changes, output file, descriptors, signals at their defaults.
#pragma once
#include <sys/types.h>
#include <string>
#include <utility>
#include <vector>

namespace dpu {

/// What a child program starts with, beyond this process's environment and descriptors.
struct SpawnRequest {
    std::string program;                   ///< path of the executable ("/proc/self/exe" for this one)
    std::vector<std::string> argv;         ///< its arguments, argv[0] included
    std::vector<std::string> environment;  ///< "NAME=value" entries set in the child, replacing this process's own
    std::string outputFile;                ///< stdout and stderr appended there; empty: inherited
    std::vector<std::pair<int, int>> descriptors; ///< (ours, the child's): ours is dup2'd onto the child's number
    bool ownProcessGroup = false;          ///< in a process group of its own (Ctrl-C reaches only ours)
    bool searchPath = false;               ///< a program without a '/' is looked up on PATH (posix_spawnp)
};

/// Starts the program and sets `pid` to its process id. Returns 0, or the errno value of why it
/// could not start (missing, not executable, no memory): then no child exists. Throws nothing.
///
/// posix_spawn, not fork: fork runs every pthread_atfork handler of this process, and OpenBLAS's
/// (which shuts its thread pool down) hung a thread inside fork for good in a process that had
/// used BLAS (test_ui_sweep's HangWatch found it there). glibc's posix_spawn runs none, and keeps
/// every signal blocked until the child has reset its handlers: the child starts with every signal
/// at its default and none blocked, so a quick SIGTERM or SIGSTOP meets the defaults.
int spawnProcess(const SpawnRequest& request, pid_t& pid);

} // namespace dpu
