// SPDX-License-Identifier: MIT
// ArgList: options and flags taken once each; numbers read only through the command's NumberOption table.
#include "ArgList.h"
#include "dpu/InternalCheck.h"
#include <utility>

namespace dpu::cli {

ArgList::ArgList(std::vector<std::string> args, std::vector<NumberOption> numbers)
    : args_(std::move(args)), used_(args_.size(), false), numbers_(std::move(numbers))
{
}

bool ArgList::flag(const std::string& name)
{
    for (size_t i = 0; i < args_.size(); ++i)
        if (!used_[i] && args_[i] == name) {
            used_[i] = true;
            return true;
        }
    return false;
}

std::optional<std::string> ArgList::optionalValue(const std::string& name)
{
    for (size_t i = 0; i < args_.size(); ++i)
        if (!used_[i] && args_[i] == name) {
            if (i + 1 >= args_.size())
                throw UsageError(name + " needs a value");
            used_[i] = used_[i + 1] = true;
            return args_[i + 1];
        }
    return std::nullopt;
}

std::string ArgList::value(const std::string& name, const std::string& fallback)
{
    return optionalValue(name).value_or(fallback);
}

const NumberOption& ArgList::described(const std::string& name, NumberKind kind) const
{
    for (const NumberOption& o : numbers_)
        if (o.name == name) {
            // A whole-number option read as real (or the reverse) would skip or add the whole check.
            DPU_INTERNAL_CHECK(o.kind == kind, "dpu-cli reads " + name + " as a "
                                                   + (kind == NumberKind::Integer ? "whole" : "real")
                                                   + " number, its table says otherwise");
            return o;
        }
    // Every number goes through the table, so that the checks and the tests that walk it see it.
    DPU_UNREACHABLE("dpu-cli reads " + name + " as a number but this command's table (app/cli/CommandNumbers.cpp) "
                    "does not describe it");
}

std::optional<double> ArgList::real(const std::string& name)
{
    const NumberOption& option = described(name, NumberKind::Real);
    const std::optional<std::string> text = optionalValue(name);
    if (!text)
        return std::nullopt;
    return parseNumber(option, *text);
}

double ArgList::real(const std::string& name, double fallback)
{
    return real(name).value_or(fallback);
}

std::optional<int64_t> ArgList::integer(const std::string& name)
{
    const NumberOption& option = described(name, NumberKind::Integer);
    const std::optional<std::string> text = optionalValue(name);
    if (!text)
        return std::nullopt;
    // Exact: parseNumber checked it is whole and within bounds of at most 2^53 - 1.
    return static_cast<int64_t>(parseNumber(option, *text));
}

int64_t ArgList::integer(const std::string& name, int64_t fallback)
{
    return integer(name).value_or(fallback);
}

int64_t ArgList::integerItem(const std::string& name, const std::string& text) const
{
    return static_cast<int64_t>(parseNumber(described(name, NumberKind::Integer), text));
}

double ArgList::realItem(const std::string& name, const std::string& text) const
{
    return parseNumber(described(name, NumberKind::Real), text);
}

std::vector<std::string> ArgList::positional()
{
    std::vector<std::string> out;
    for (size_t i = 0; i < args_.size(); ++i) {
        if (used_[i])
            continue;
        if (args_[i].size() > 1 && args_[i][0] == '-')
            throw UsageError("unknown option " + args_[i]);
        out.push_back(args_[i]);
    }
    return out;
}

} // namespace dpu::cli
