// SPDX-License-Identifier: MIT
// Reads a TorchScript archive without its debug records, and names why LibTorch refused one.
#pragma once
#include <torch/script.h>
#include <exception>
#include <string>

namespace dpu {

/// What a refusal says when LibTorch gives no reason.
inline constexpr const char* kNoScriptReason = "LibTorch gave no reason: the file is damaged or not a TorchScript module";

/// Loads the module without its debug records (code/*.debug_pkl: which Python line each line of
/// its code came from). LibTorch reads them lazily, also when an error in forward() formats its
/// traceback, and damaged ones crash it there as during the load (damaged_source.pt,
/// damaged_pickle.pt; fuzz_torchscript_inprocess found the same in forward passes, which the check
/// process does not run). Without them a traceback still shows the module's own code. The whole
/// archive is read before the copy is written (a writer left unfinished by an exception would
/// throw from its destructor). Files older than the oldest format LibTorch writes are refused: the
/// copy would raise their version and lose the upgraders their operators need, and loading them
/// as they are would read their debug records (fuzz_torchscript_inprocess damaged a version
/// record to reach that path, damaged_version.pt).
/// Throws what LibTorch throws (std::exception, torch::jit::ErrorReport) and std::runtime_error for
/// an archive too old or with a record too small for its tensor.
torch::jit::Module loadWithoutDebugRecords(const std::string& path);

/// First non-empty line of a LibTorch message, with the place a compile error names: the rest is
/// an excerpt of the code or a C++ backtrace, which help nobody at a form field.
/// Never call it on a torch::jit::ErrorReport in this process: its what() builds the message
/// from the module's debug records, and on a damaged module that throws out of a noexcept
/// function, which ends the process (fuzz_torchscript's second finding, damaged_report.pt).
std::string scriptReasonOf(const std::exception& e);

} // namespace dpu
