// SPDX-License-Identifier: MIT
// The words of a JSON library error without its internal tag, for messages users read.
#pragma once
#include <string>

namespace dpu::util {

/// nlohmann's what() without the "[json.exception.parse_error.101] " tag and the repeated
/// "parse error at ": "line 1, column 1: syntax error while parsing value - invalid literal;
/// last read: 'g'". Text without the tag is returned as it is.
std::string jsonErrorText(const char* what);

} // namespace dpu::util
