// SPDX-License-Identifier: MIT
// Small helpers of the link's and the fleet's messages: numbers as people write them, lower case, a field check.
#pragma once
#include "dpu/LinkModel.h"
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string>

namespace dpu::link {

/// 0.1, -0.1, 1e-05: the shortest form a stream writes.
inline std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

/// The shortest form that reads back as the same double (1000001, not number()'s 1e+06): for a
/// value a user typed and a message quotes back.
inline std::string exactNumber(double v)
{
    for (int digits = 6;; ++digits) {
        std::ostringstream s;
        s.precision(digits);
        s << v;
        if (digits >= 17 || std::strtod(s.str().c_str(), nullptr) == v) // strtod: stod throws on a denormal
            return s.str();
    }
}

inline std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// Throws LinkError(field, message) unless ok.
inline void require(bool ok, const std::string& field, const std::string& message)
{
    if (!ok)
        throw LinkError(field, message);
}

} // namespace dpu::link
