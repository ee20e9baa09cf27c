// SPDX-License-Identifier: MIT
// Exception types of the engine: every message names the file or field, what was expected and what was found.
#pragma once
#include <stdexcept>
#include <string>

namespace dpu {

/// Base of every error the engine throws on bad input or failed I/O.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A dataset file is missing, truncated or inconsistent; the message names the file.
class DataError : public Error {
public:
    using Error::Error;
};

/// A plan field is unknown or holds a bad value; path() is the JSON path, e.g. "train.epochs".
class PlanError : public Error {
public:
    PlanError(std::string path, const std::string& message)
        : Error(path.empty() ? message : path + ": " + message), path_(std::move(path)) {}
    const std::string& path() const noexcept { return path_; }

private:
    std::string path_;
};

/// A broken invariant inside the engine: a defect, never bad input (as c10 keeps
/// TORCH_INTERNAL_ASSERT apart from TORCH_CHECK). Not an Error, so no caller mistakes it for a
/// user's mistake to be shown at a field; the message says it is a defect.
class InternalError : public std::logic_error {
public:
    explicit InternalError(const std::string& what) : std::logic_error(what + " (an engine defect: please report it)") {}
};

/// The run was cancelled through its RunControl (RunOptions::control).
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

} // namespace dpu
