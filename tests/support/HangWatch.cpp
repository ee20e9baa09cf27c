// SPDX-License-Identifier: MIT
// HangWatch: on a missed deadline, the step, every thread's stack and the child processes go to stderr, then abort.
#include "HangWatch.h"
#include <dirent.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace dpu::test {
namespace {

// A signal nothing else here uses: each thread that receives it prints its own stack.
const int kStackSignal = SIGRTMIN + 5;
std::atomic<int> g_stacksPrinted{0};

void printOwnStack(int)
{
    void* frames[48];
    const int n = backtrace(frames, 48); // loaded before (see the constructor): no allocation here
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    g_stacksPrinted.fetch_add(1);
}

std::string readSmall(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!s.empty() && (s.back() == '\n' || s.back() == '\0'))
        s.pop_back();
    for (char& c : s)
        if (c == '\0')
            c = ' '; // cmdline's separators
    return s;
}

/// The numeric entries of a /proc folder (processes, or a process's threads).
template <typename F>
void forEachPid(const char* dir, F&& f)
{
    DIR* d = opendir(dir);
    if (!d)
        return;
    while (const dirent* e = readdir(d))
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
            f(std::atoi(e->d_name));
    closedir(d);
}

void printChildren()
{
    const pid_t self = getpid();
    std::fprintf(stderr, "HangWatch: child processes (pid state command):\n");
    forEachPid("/proc", [self](int pid) {
        // "pid (comm) state ppid ...": comm may hold spaces, so read after its last ')'.
        const std::string stat = readSmall("/proc/" + std::to_string(pid) + "/stat");
        const size_t close = stat.rfind(')');
        if (close == std::string::npos || close + 4 >= stat.size())
            return;
        const char state = stat[close + 2];
        if (std::atoi(stat.c_str() + close + 4) != self)
            return;
        std::fprintf(stderr, "  %d %c %s\n", pid, state, readSmall("/proc/" + std::to_string(pid) + "/cmdline").c_str());
    });
}

void printThreadStacks()
{
    struct sigaction sa = {};
    sa.sa_handler = printOwnStack;
    sigemptyset(&sa.sa_mask);
    sigaction(kStackSignal, &sa, nullptr);
    const pid_t self = getpid();
    const long me = syscall(SYS_gettid);
    forEachPid("/proc/self/task", [&](int tid) {
        if (tid == me)
            return;
        std::fprintf(stderr, "HangWatch: thread %d (%s):\n", tid,
                     readSmall("/proc/self/task/" + std::to_string(tid) + "/comm").c_str());
        std::fflush(stderr);
        const int before = g_stacksPrinted.load();
        if (syscall(SYS_tgkill, self, tid, kStackSignal) != 0)
            return;
        for (int i = 0; i < 20 && g_stacksPrinted.load() == before; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    });
}

} // namespace

HangWatch::HangWatch(double seconds)
{
    void* warm[1];
    backtrace(warm, 1); // the first call loads libgcc's unwinder, which a signal handler must not do
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    thread_ = std::thread([this, deadline] { watch(deadline); });
}

HangWatch::~HangWatch()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        done_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void HangWatch::watch(std::chrono::steady_clock::time_point deadline)
{
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_until(lock, deadline, [this] { return done_; }))
        return;
    std::fprintf(stderr, "HangWatch: the test did not end in time; it was at: %s\n", step_.load());
    printChildren();
    printThreadStacks();
    std::fprintf(stderr, "HangWatch: aborting\n");
    std::fflush(stderr);
    std::abort();
}

} // namespace dpu::test
