// SPDX-License-Identifier: MIT
// The TorchScript check process: this program started again to load each file before the program itself does.
#include "models/ScriptCheck.h"
#include "models/ScriptLoad.h"
#include "models/ScriptTensors.h"
#include "dpu/Process.h"
#include "util/ProcessSpawn.h"
#include <ATen/Parallel.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#ifdef DPU_FUZZ_CHECK_MALLOC_LIMIT
#include <sanitizer/allocator_interface.h>
#endif

namespace dpu {

namespace {

/// Set in the check process's environment, nowhere else: its value is the socket's descriptor.
constexpr const char* kCheckVariable = "DPU_INTERNAL_TORCHSCRIPT_CHECK";
/// The check process's end of the socket. Each message both ways: a 4-byte length, then that
/// many bytes. The check process opens with kReady once it serves; then a request is a file's
/// absolute path, and its reply why the file was refused (empty: it loaded).
constexpr int kCheckFd = 3;
constexpr uint32_t kMaxMessage = 64 * 1024;
constexpr const char* kReady = "ready";
/// How long a start or a check may take before it counts as hung: a load takes milliseconds,
/// a start about half a second (three on a cold disk).
constexpr int kPatienceMs = 60 * 1000;
/// How long the check process waits for the next file before it ends: a window keeps its model
/// for hours, and an idle check process holds about 60 MB of its own (measured).
constexpr int kIdleMs = 60 * 1000;

bool readAll(int fd, char* to, size_t size)
{
    while (size > 0) {
        const ssize_t n = read(fd, to, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        to += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

/// One message; MSG_NOSIGNAL: a peer that has ended is a false return, not a SIGPIPE.
bool sendMessage(int fd, const std::string& text)
{
    const auto size = static_cast<uint32_t>(text.size());
    std::string message(reinterpret_cast<const char*>(&size), sizeof size);
    message += text;
    for (size_t sent = 0; sent < message.size();) {
        const ssize_t n = send(fd, message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += static_cast<size_t>(n);
    }
    return true;
}

/// Waits up to `timeoutMs` for something to read (a message, or the end of the stream); false
/// when nothing came.
bool readable(int fd, int timeoutMs)
{
    pollfd wait{fd, POLLIN, 0};
    int ready = 0;
    do
        ready = poll(&wait, 1, timeoutMs);
    while (ready < 0 && errno == EINTR);
    return ready > 0;
}

/// One message's text, or false at the end of the stream or on a length over the limit.
bool readMessage(int fd, std::string& text)
{
    uint32_t size = 0;
    if (!readAll(fd, reinterpret_cast<char*>(&size), sizeof size) || size > kMaxMessage)
        return false;
    text.assign(size, '\0');
    return readAll(fd, text.data(), size);
}

/// Why the file cannot be loaded, or empty: what ScriptNetwork then does, crashes and all (the
/// check compiles the code the load left).
std::string checkReason(const std::string& path)
{
    try {
        damagedTensorOf(loadWithoutDebugRecords(path));
        return {};
    } catch (const std::exception& e) {
        return scriptReasonOf(e).substr(0, 2000); // may end the process: the caller names the signal
    } catch (...) {
        return kNoScriptReason;
    }
}

#ifdef DPU_FUZZ_CHECK_MALLOC_LIMIT
/// The guarded fuzz build only (fuzz_torchscript): libFuzzer's allocation limit, which a forked
/// child inherited from the fuzzer, does not reach a process started again, where libFuzzer never
/// starts. Its harness passes the limit in DPU_FUZZ_MALLOC_LIMIT_MB, and an allocation over it
/// ends the check, a refusal as before, instead of a damaged size's gigabytes being zeroed.
size_t fuzzMallocLimit = 0;

void endOverFuzzMallocLimit(const volatile void*, size_t size)
{
    if (size > fuzzMallocLimit)
        _exit(4);
}

void ignoreFree(const volatile void*) {}

void limitMallocForFuzzing()
{
    if (const char* mb = std::getenv("DPU_FUZZ_MALLOC_LIMIT_MB"); mb != nullptr && std::atoll(mb) > 0) {
        fuzzMallocLimit = static_cast<size_t>(std::atoll(mb)) << 20;
        // both hooks: the sanitizers install none of a pair with a null one
        __sanitizer_install_malloc_and_free_hooks(endOverFuzzMallocLimit, ignoreFree);
    }
}
#endif

/// The check process's whole life: a reply to each request until the caller closes its end or
/// sends none for kIdleMs. It ends with status 0 only then.
[[noreturn]] void serveScriptChecks()
{
    // Die by the signal itself, even under a sanitizer's handler, so that the caller sees it.
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(sig, SIG_DFL);
    omitLibTorchBacktraces(); // each refusal would symbolise a backtrace nobody reads
    at::set_num_threads(1);   // nothing to compute in parallel: no thread pool beside a busy run's
#ifdef DPU_FUZZ_CHECK_MALLOC_LIMIT
    limitMallocForFuzzing();
#endif
    std::string path;
    if (!sendMessage(kCheckFd, kReady))
        _exit(0);
    while (readable(kCheckFd, kIdleMs) && readMessage(kCheckFd, path))
        if (!sendMessage(kCheckFd, checkReason(path)))
            break;
    _exit(0);
}

/// Runs before main in every program that links this file, and so in the check process, which
/// is that program started again with kCheckVariable set: it serves checks and ends there. A
/// program that merely finds the variable set (a user's export) without the socket runs as usual.
[[maybe_unused]] const bool checkProcessEntry = [] {
    const char* value = std::getenv(kCheckVariable);
    struct stat fdStat {};
    if (value != nullptr && std::to_string(kCheckFd) == value && fstat(kCheckFd, &fdStat) == 0 && S_ISSOCK(fdStat.st_mode))
        serveScriptChecks();
    return false;
}();

/// The running check process, if any: one per program, shared by its threads in turn.
struct CheckProcess {
    pid_t pid = -1;
    int fd = -1; ///< our end of the socket
};

/// Ends the check process (SIGKILL, which one that has already ended ignores) and returns its
/// wait status: how it ended, if it had.
int endCheckProcess(CheckProcess& check)
{
    close(check.fd);
    kill(check.pid, SIGKILL);
    int status = 0;
    while (waitpid(check.pid, &status, 0) < 0 && errno == EINTR) {
    }
    check = {};
    return status;
}

/// Starts a check process and waits until it serves. False when it could not start or did not
/// come up (a loader or a limit ended it before): then none runs, and no file is blamed for it.
bool startCheckProcess(CheckProcess& check)
{
    int fds[2];
    // close-on-exec: no other child keeps the socket open after this program has closed its end
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return false;
    SpawnRequest request;
    request.program = "/proc/self/exe"; // this program, even if its file was replaced since
    request.argv = {"dpu-torchscript-check"};
    request.environment = {std::string(kCheckVariable) + "=" + std::to_string(kCheckFd)};
    request.descriptors = {{fds[1], kCheckFd}};
    const int err = spawnProcess(request, check.pid);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        check = {};
        return false;
    }
    check.fd = fds[0];
    std::string hello;
    if (readable(check.fd, kPatienceMs) && readMessage(check.fd, hello) && hello == kReady)
        return true;
    endCheckProcess(check);
    return false;
}

/// Why the file counts as refused when the check process ended while reading it.
std::string endedReason(int status)
{
    if (WIFSIGNALED(status))
        return "LibTorch crashed reading it (signal " + std::to_string(WTERMSIG(status)) +
               "): the file is damaged or not a TorchScript module";
    // A sanitizer's or an allocator's limit ends it with a status: refused too, rather than
    // trying the same in this process.
    return "LibTorch ended reading it (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
           "): the file is damaged or not a TorchScript module";
}

} // namespace

std::optional<std::string> refusedByCheckProcess(const std::string& path)
{
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(path, ec).string(); // its folder is ours
    static std::mutex mutex;
    static CheckProcess check;
    const std::lock_guard<std::mutex> lock(mutex);
    // A second try only when the check process ended idle as the request went out (status 0).
    for (int attempt = 0; attempt < 2; ++attempt) {
        int status = 0;
        if (check.pid > 0) { // ended since (idle, killed, or reaped by another's wait): start another
            const pid_t got = waitpid(check.pid, &status, WNOHANG);
            if (got == check.pid || (got < 0 && errno == ECHILD)) {
                close(check.fd);
                check = {};
            }
        }
        if (check.pid < 0 && !startCheckProcess(check))
            return std::nullopt; // cannot tell: the caller loads it itself
        std::string reason;
        if (sendMessage(check.fd, ec ? path : absolute)) {
            if (!readable(check.fd, kPatienceMs)) { // hung (on a lock, or a loop in LibTorch): cannot tell
                endCheckProcess(check);
                return std::nullopt;
            }
            if (readMessage(check.fd, reason))
                return reason.empty() ? std::nullopt : std::optional<std::string>(reason);
        }
        status = endCheckProcess(check); // it ended before it replied
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            return endedReason(status);
    }
    return std::nullopt;
}

} // namespace dpu
