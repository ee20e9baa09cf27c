// SPDX-License-Identifier: MIT
// Minimal "--name value" / "--flag" argument reader for the CLI subcommands; numbers only through their NumberOption.
#pragma once
#include "CliCommands.h"
#include "NumberOption.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpu::cli {

class ArgList {
public:
    /// `numbers`: the numeric options this command reads (numberOptionsOf("cost")); none by default.
    explicit ArgList(std::vector<std::string> args, std::vector<NumberOption> numbers = {});

    bool flag(const std::string& name);
    std::string value(const std::string& name, const std::string& fallback = {});
    /// The option's text, nullopt when absent (an empty text given is given).
    std::optional<std::string> optionalValue(const std::string& name);

    /// A real option's value, nullopt when the option is absent. A value given is read through its
    /// NumberOption (parseNumber): a bad one is a UsageError naming the option, never "not given".
    /// Reading an option its command's table lacks, or a whole-number one as real, throws
    /// dpu::InternalError (a defect: add it to CommandNumbers.cpp).
    std::optional<double> real(const std::string& name);
    double real(const std::string& name, double fallback);
    /// A whole-number option's value, as real().
    std::optional<int64_t> integer(const std::string& name);
    int64_t integer(const std::string& name, int64_t fallback);
    /// A text taken apart from the option read through its description: one item of a list
    /// (--catchup 0,2,3), or an option that is a number or a file (--availability P|TRACE).
    int64_t integerItem(const std::string& name, const std::string& text) const;
    double realItem(const std::string& name, const std::string& text) const;

    /// The remaining positional arguments; an unknown option is an error.
    std::vector<std::string> positional();

private:
    const NumberOption& described(const std::string& name, NumberKind kind) const;

    std::vector<std::string> args_;
    std::vector<bool> used_;
    std::vector<NumberOption> numbers_;
};

} // namespace dpu::cli
