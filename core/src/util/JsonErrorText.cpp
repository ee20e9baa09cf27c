// SPDX-License-Identifier: MIT
// jsonErrorText: strips the JSON library's internal tag from its messages.
#include "util/JsonErrorText.h"

namespace dpu::util {

std::string jsonErrorText(const char* what)
{
    std::string text = what ? what : "";
    if (text.rfind("[json.exception.", 0) == 0) {
        const size_t close = text.find("] ");
        if (close != std::string::npos)
            text.erase(0, close + 2);
    }
    for (const char* lead : {"parse error at ", "parse error: "})
        if (text.rfind(lead, 0) == 0)
            text.erase(0, std::string(lead).size());
    return text;
}

} // namespace dpu::util
