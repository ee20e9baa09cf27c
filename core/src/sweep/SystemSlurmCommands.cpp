// SPDX-License-Identifier: MIT
// Slurm's real command-line tools as child processes with their output captured.
#include "dpu/SlurmSweep.h"
#include "util/ProcessSpawn.h"
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace dpu {
namespace {

class SystemSlurmCommands : public SlurmCommands {
public:
    SlurmCommandResult run(const std::vector<std::string>& argv) override
    {
        SlurmCommandResult result;
        int out[2], err[2];
        if (argv.empty() || pipe2(out, O_CLOEXEC) != 0)
            return {127, {}, "cannot start a Slurm command"};
        if (pipe2(err, O_CLOEXEC) != 0) {
            close(out[0]);
            close(out[1]);
            return {127, {}, std::string("cannot start ") + argv[0] + ": " + std::strerror(errno)};
        }
        // posix_spawnp, not fork: see spawnProcess (a sweep's thread hung inside fork in a window
        // that had used BLAS); the child meets signals with the default handlers, as a cell does.
        SpawnRequest request;
        request.program = argv[0];
        request.argv = argv;
        request.searchPath = true;
        request.descriptors = {{out[1], 1}, {err[1], 2}};
        pid_t pid = -1;
        const int failed = spawnProcess(request, pid);
        close(out[1]);
        close(err[1]);
        if (failed != 0) {
            close(out[0]);
            close(err[0]);
            return {127, {}, "cannot run " + argv[0] + ": " + std::strerror(failed) + " (is Slurm installed and on PATH?)"};
        }
        // Both pipes drained together, so a chatty stderr cannot block the child on a full stdout.
        pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
        std::string* sinks[2] = {&result.out, &result.err};
        int open = 2;
        while (open > 0) {
            if (poll(fds, 2, -1) < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            for (int i = 0; i < 2; ++i) {
                if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                char buf[4096];
                const ssize_t n = read(fds[i].fd, buf, sizeof buf);
                if (n > 0) {
                    sinks[i]->append(buf, static_cast<size_t>(n));
                } else if (n == 0 || errno != EINTR) {
                    close(fds[i].fd);
                    fds[i].fd = -1;
                    --open;
                }
            }
        }
        for (pollfd& f : fds)
            if (f.fd >= 0)
                close(f.fd);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return result;
    }
};

} // namespace

std::unique_ptr<SlurmCommands> systemSlurmCommands()
{
    return std::make_unique<SystemSlurmCommands>();
}

} // namespace dpu
