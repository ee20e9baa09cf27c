// SPDX-License-Identifier: MIT
// Starts a child program with posix_spawn (see ProcessSpawn.h for why not fork).
#include "util/ProcessSpawn.h"
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <cstring>

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

/// Whether `entry` ("NAME=value") sets one of the names that `entries` set.
bool setByRequest(const char* entry, const std::vector<std::string>& entries)
{
    for (const std::string& e : entries) {
        const size_t name = e.find('=') + 1; // the name and its '='
        if (std::strncmp(entry, e.c_str(), name) == 0)
            return true;
    }
    return false;
}

} // namespace

int spawnProcess(const SpawnRequest& request, pid_t& pid)
{
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (!setByRequest(*e, request.environment))
            env.emplace_back(*e);
    env.insert(env.end(), request.environment.begin(), request.environment.end());
    std::vector<char*> envp, argv;
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = request.argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    SpawnSetup s;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&s.attr, &none);
    posix_spawnattr_setsigdefault(&s.attr, &all);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (request.ownProcessGroup) {
        posix_spawnattr_setpgroup(&s.attr, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&s.attr, flags);
    if (!request.outputFile.empty()) {
        posix_spawn_file_actions_addopen(&s.files, 1, request.outputFile.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_adddup2(&s.files, 1, 2);
    }
    // glibc (2.29 and later) clears close-on-exec when a descriptor is dup2'd onto itself.
    for (const auto& [ours, theirs] : request.descriptors)
        posix_spawn_file_actions_adddup2(&s.files, ours, theirs);
    if (request.searchPath)
        return posix_spawnp(&pid, request.program.c_str(), &s.files, &s.attr, argv.data(), envp.data());
    return posix_spawn(&pid, request.program.c_str(), &s.files, &s.attr, argv.data(), envp.data());
}

} // namespace dpu
