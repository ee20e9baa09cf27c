// SPDX-License-Identifier: MIT
// One numeric command-line option described as data (name, whole or real, accepted range, what it is) and the one reader of its values.
#pragma once
#include <optional>
#include <string>

namespace dpu::cli {

enum class NumberKind { Integer, Real };

/// A numeric option as the command line accepts it. Every number dpu-cli reads is read through
/// one of these (CommandNumbers.cpp lists them all), so a value is finite, in range and whole
/// where a whole number is meant, or the command stops naming the option, the value and the range.
struct NumberOption {
    std::string name;                   ///< "--budget"
    NumberKind kind = NumberKind::Real; ///< Integer: a whole number (bounds whole, at most 2^53 - 1)
    double low = 0, high = 0;           ///< the accepted range
    bool lowOpen = false, highOpen = false; ///< true: that end itself is refused
    std::string what;                   ///< the words before the range: "a number of bytes"
    std::string zeroMeans;              ///< non-empty: 0 is accepted too, and means this ("the link's own")
};

/// Whether `value` is accepted: in the range (or 0 where zeroMeans says what 0 means), and whole
/// for an integer option. NaN and infinities never are.
bool acceptsNumber(const NumberOption& option, double value);

/// The accepted range in words: "from 0 to 1e+12", "in (0, 1]", "from 7 to 12, or 0 (the link's own)".
std::string rangeText(const NumberOption& option);

/// The refusal of `text`: "--budget: expected a number of bytes from 0 to 1e+12, found 'nan'".
std::string numberRefusal(const NumberOption& option, const std::string& text);

/// The number `text` spells as the command line reads numbers (std::from_chars: any locale, an
/// optional leading '+'), whatever its value: nan and inf included, 1e400 as inf. nullopt when
/// it spells no number ("lots", "", "1e", "0x10", a file name).
std::optional<double> numberInText(const std::string& text);

/// `text` read as the option's value as parseNumber() reads it; nullopt where parseNumber() throws.
std::optional<double> readNumber(const NumberOption& option, const std::string& text);

/// `text` read as the option's value: a decimal number ("12", "0.5", "1e3", "+2"), finite, in
/// range, whole for an integer option (1e3 is 1000; 2.5 is no whole number). Throws
/// UsageError(numberRefusal()) for anything else, including an empty text, "nan", "inf" and a
/// number beyond double's range.
double parseNumber(const NumberOption& option, const std::string& text);

} // namespace dpu::cli
