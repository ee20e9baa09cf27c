// SPDX-License-Identifier: MIT
// Checks that every tensor a loaded TorchScript module holds can be computed with.
#pragma once
#include <torch/script.h>
#include <string>

namespace dpu {

/// Why one of the module's tensors cannot be computed with, as "tensor NAME is damaged: it has
/// WHAT", or empty when all can. LibTorch 1.13 builds a module's tensors from its records without
/// checking them, and a forward pass over one without data reads address zero. Checks the
/// tensors of every attribute of the module and its submodules, those inside lists, tuples,
/// dictionaries and objects held there, and the tensor constants of all its code. Reading a
/// function's graph compiles it if nothing has yet, so LibTorch's errors for code that does not
/// compile come through (torch::jit::ErrorReport, c10::Error), and its crashes on damaged code
/// too: ScriptNetwork runs this in its guard's child first. The module stays the caller's.
std::string damagedTensorOf(const torch::jit::Module& module);

} // namespace dpu
