// SPDX-License-Identifier: MIT
// StopOnSignals: the signal handlers that cancel the command line's RunControl token.
#include "StopOnSignals.h"
#include <csignal>

namespace dpu::cli {
namespace {

// A static object: a signal handler may only reach it through a global, and it must outlive
// any handler that could still run.
RunControl g_control;

void onStopSignal(int)
{
    g_control.requestCancel(); // lock-free atomic store: async-signal-safe
}

} // namespace

StopOnSignals::StopOnSignals()
{
    g_control.reset();
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
}

StopOnSignals::~StopOnSignals()
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

RunControl& StopOnSignals::control()
{
    return g_control;
}

} // namespace dpu::cli
