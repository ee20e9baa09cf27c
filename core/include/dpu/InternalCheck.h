// SPDX-License-Identifier: MIT
// DPU_INTERNAL_CHECK and DPU_UNREACHABLE: a broken invariant throws InternalError naming its file and line, never the user-facing Error.
#pragma once
#include "dpu/Error.h"
#include <cstring>
#include <exception>
#include <string>

namespace dpu {

/// `file` from the project's top folder on ("core/src/data/NpyFormat.cpp"): __FILE__ is the
/// build's absolute path, which says where the build ran rather than which file failed.
inline const char* projectRelativePath(const char* file)
{
    // This header's own __FILE__ ends in the path below; what comes before it is the top folder
    // the build compiled every file from (left whole when a file lies elsewhere).
    static const char kSelf[] = "core/include/dpu/InternalCheck.h";
    const char* self = __FILE__;
    const size_t length = std::strlen(self), tail = sizeof kSelf - 1;
    if (length < tail || std::strcmp(self + length - tail, kSelf) != 0)
        return file;
    const size_t top = length - tail;
    return std::strncmp(file, self, top) == 0 ? file + top : file;
}

/// Throws InternalError("file:line: what"). The macros below call it; it is never for bad input.
[[noreturn]] inline void internalError(const char* file, int line, const std::string& what)
{
    throw InternalError(std::string(projectRelativePath(file)) + ":" + std::to_string(line) + ": " + what);
}

/// What a program's top level (a worker of the window, a command) says of `e`: its message, led
/// by "internal error: " when it is an InternalError, whose message asks to report it, so that
/// nobody looks for the mistake in the plan or the data.
inline std::string failureText(const std::exception& e)
{
    return dynamic_cast<const InternalError*>(&e) ? std::string("internal error: ") + e.what() : std::string(e.what());
}

} // namespace dpu

/// Throws dpu::InternalError naming this file and line unless `cond` holds: for what the code
/// keeps true itself (broken only by a defect), as c10's TORCH_INTERNAL_ASSERT. Bad input (a
/// plan, a file, an option) throws dpu::Error instead. `what` is evaluated only on failure.
#define DPU_INTERNAL_CHECK(cond, what)                                                                                 \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            ::dpu::internalError(__FILE__, __LINE__, (what));                                                          \
    } while (false)

/// Code that no valid state reaches (after a switch over every enumerator): throws as a failed
/// DPU_INTERNAL_CHECK does. The compiler knows it never returns, so no dummy value follows.
#define DPU_UNREACHABLE(what) ::dpu::internalError(__FILE__, __LINE__, (what))
