// SPDX-License-Identifier: MIT
// Small helpers of the fleet sources' messages: numbers as people write them, lower case, a field check.
#pragma once
#include "dpu/LinkModel.h"
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>

namespace dpu::fleet {

/// 0.1, -0.1, 1e-05: the shortest form a stream writes.
inline std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
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

} // namespace dpu::fleet
