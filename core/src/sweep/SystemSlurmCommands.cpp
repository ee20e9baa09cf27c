// SPDX-License-Identifier: MIT
// Slurm's real command-line tools as child processes with their output captured.
#include "dpu/SlurmSweep.h"
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
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
        std::vector<char*> args;
        for (const std::string& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        sigset_t all, old; // as for a cell: the child meets signals with the default handlers
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        const pid_t pid = fork();
        if (pid == 0) { // only async-signal-safe calls until exec
            for (int sig = 1; sig < NSIG; ++sig)
                if (sig != SIGKILL && sig != SIGSTOP)
                    signal(sig, SIG_DFL);
            sigprocmask(SIG_SETMASK, &old, nullptr);
            dup2(out[1], 1);
            dup2(err[1], 2);
            execvp(args[0], args.data());
            const char msg[] = "cannot run the Slurm command (is Slurm installed and on PATH?)\n";
            (void)!write(2, msg, sizeof msg - 1);
            _exit(127);
        }
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        close(out[1]);
        close(err[1]);
        if (pid < 0) {
            close(out[0]);
            close(err[0]);
            return {127, {}, std::string("cannot start ") + argv[0] + ": " + std::strerror(errno)};
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
