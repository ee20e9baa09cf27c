// SPDX-License-Identifier: MIT
// NumberOption: a numeric option's value checked against its description (finite, in range, whole) and the refusal's words.
#include "NumberOption.h"
#include "CliCommands.h"
#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace dpu::cli {
namespace {

std::string bound(const NumberOption& option, double v)
{
    char buf[40];
    // Whole bounds in full ("100000", not "1e+05"): they are what the user types.
    std::snprintf(buf, sizeof buf, option.kind == NumberKind::Integer ? "%.0f" : "%g", v);
    return buf;
}

bool inRange(const NumberOption& o, double v)
{
    return (o.lowOpen ? v > o.low : v >= o.low) && (o.highOpen ? v < o.high : v <= o.high);
}

} // namespace

bool acceptsNumber(const NumberOption& option, double value)
{
    if (!std::isfinite(value))
        return false;
    if (option.kind == NumberKind::Integer && value != std::floor(value))
        return false;
    return inRange(option, value) || (!option.zeroMeans.empty() && value == 0);
}

std::string rangeText(const NumberOption& option)
{
    std::string text = !option.lowOpen && !option.highOpen
                           ? "from " + bound(option, option.low) + " to " + bound(option, option.high)
                           : std::string("in ") + (option.lowOpen ? "(" : "[") + bound(option, option.low) + ", "
                                 + bound(option, option.high) + (option.highOpen ? ")" : "]");
    if (!option.zeroMeans.empty())
        text += ", or 0 (" + option.zeroMeans + ")";
    return text;
}

std::string numberRefusal(const NumberOption& option, const std::string& text)
{
    return option.name + ": expected " + option.what + " " + rangeText(option) + ", found '" + text + "'";
}

std::optional<double> numberInText(const std::string& text)
{
    // std::from_chars reads the same in every locale (a Qt application sets the user's, where
    // strtod may want a decimal comma); it takes no leading '+', which users do type.
    const size_t start = text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+' ? 1 : 0;
    double value = NAN;
    const char* first = text.data() + start;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, value, std::chars_format::general);
    if (first == last || end != last || (error != std::errc() && error != std::errc::result_out_of_range))
        return std::nullopt;
    if (error == std::errc::result_out_of_range) // beyond double's range: refused as any value out of the option's
        return text[start] == '-' ? -HUGE_VAL : HUGE_VAL;
    return value;
}

std::optional<double> readNumber(const NumberOption& option, const std::string& text)
{
    const std::optional<double> value = numberInText(text);
    if (!value || !acceptsNumber(option, *value))
        return std::nullopt;
    return value;
}

double parseNumber(const NumberOption& option, const std::string& text)
{
    const std::optional<double> value = readNumber(option, text);
    if (!value)
        throw UsageError(numberRefusal(option, text));
    return *value;
}

} // namespace dpu::cli
