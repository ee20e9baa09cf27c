// SPDX-License-Identifier: MIT
// Process setup every DPU Planner program performs first thing in main().
#pragma once

namespace dpu {

/// libgomp reads OMP_WAIT_POLICY when it loads, before main(); its default (spinning) makes
/// training 2-3x slower on small machines. When the variable is unset this sets it to
/// "passive" and re-executes the program with the same arguments; it returns normally when
/// the variable is already set or the re-exec fails (then the program runs, only slower).
void ensurePassiveOpenMP(int argc, char** argv);

/// Makes a file that outgrows the file-size limit (RLIMIT_FSIZE, as quotas and small devices
/// impose) a write error the program reports by name, instead of SIGXFSZ killing it silently.
void reportWriteLimitsAsErrors();

/// LibTorch appends a symbolised C++ backtrace to every error it throws (dladdr over every loaded
/// library: three quarters of the time of refusing a damaged TorchScript file, measured); the
/// engine's messages keep only an error's first line. This turns the backtrace off for the whole
/// process. Call it before any thread starts.
void omitLibTorchBacktraces();

} // namespace dpu
