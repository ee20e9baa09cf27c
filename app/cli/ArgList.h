// SPDX-License-Identifier: MIT
// Minimal "--name value" / "--flag" argument reader for the CLI subcommands.
#pragma once
#include "CliCommands.h"
#include <string>
#include <vector>

namespace dpu::cli {

class ArgList {
public:
    explicit ArgList(std::vector<std::string> args) : args_(std::move(args)), used_(args_.size(), false) {}

    bool flag(const std::string& name)
    {
        for (size_t i = 0; i < args_.size(); ++i)
            if (!used_[i] && args_[i] == name) {
                used_[i] = true;
                return true;
            }
        return false;
    }
    std::string value(const std::string& name, const std::string& fallback = {})
    {
        for (size_t i = 0; i < args_.size(); ++i)
            if (!used_[i] && args_[i] == name) {
                if (i + 1 >= args_.size())
                    throw UsageError(name + " needs a value");
                used_[i] = used_[i + 1] = true;
                return args_[i + 1];
            }
        return fallback;
    }
    double number(const std::string& name, double fallback)
    {
        const std::string v = value(name);
        if (v.empty())
            return fallback;
        try {
            size_t pos = 0;
            const double d = std::stod(v, &pos);
            if (pos != v.size())
                throw std::invalid_argument(v);
            return d;
        } catch (const std::exception&) {
            throw UsageError(name + ": expected a number, found '" + v + "'");
        }
    }
    /// The remaining positional arguments; an unknown option is an error.
    std::vector<std::string> positional()
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

private:
    std::vector<std::string> args_;
    std::vector<bool> used_;
};

} // namespace dpu::cli
