// SPDX-License-Identifier: MIT
// Checks that every tensor a loaded TorchScript module holds can be computed with.
#pragma once
#include <torch/script.h>
#include <cstddef>
#include <map>
#include <string>

namespace dpu {

/// Why one of the module's tensors cannot be computed with, as "tensor NAME is damaged: it has
/// WHAT", or empty when all can. LibTorch 1.13 builds a module's tensors from its records without
/// checking them, and a forward pass over one without data reads address zero. Checks the
/// tensors of every attribute of the module and its submodules, those inside lists, tuples,
/// dictionaries and objects held there, and the tensor constants of all its code. Reading a
/// function's graph compiles it if nothing has yet, so LibTorch's errors for code that does not
/// compile come through (torch::jit::ErrorReport, c10::Error), and its crashes on damaged code
/// too: ScriptNetwork runs this in its check process first. The module stays the caller's.
std::string damagedTensorOf(const torch::jit::Module& module);

/// One record of a module's archive, as read: its bytes (the caller's) and how many there are.
struct ArchiveRecord {
    const void* data = nullptr;
    size_t size = 0;
};

/// Why one of the tensors that the archive's pickles (data.pkl, constants.pkl) describe needs
/// more bytes than the record it names holds, or empty when none does. LibTorch 1.13 sizes a
/// tensor's storage by the count the pickle declares, not by its record: a pickle that names a
/// 40-byte record for a 7,840-element weight loads, and its forward pass reads 31 KB past the
/// record (damaged_shared.pt), and training writes there. `records` maps each record's name
/// ("data/3") to its bytes; `version` is the archive's format version. Reads the pickles with
/// LibTorch's unpickler, its classes as plain objects; returns empty when that cannot read them
/// (the load then reports what is wrong), and says so when the values read do not fit the types
/// the pickle gives them. Throws nothing.
std::string recordProblem(const std::map<std::string, ArchiveRecord>& records, uint64_t version);

} // namespace dpu
