// SPDX-License-Identifier: MIT
// Bytes, durations and energy as every view writes them ("37637 B (37.6 KB)", "4.3 s", "3.20 J").
#pragma once
#include <QString>

namespace dpu::ui {

class Units {
public:
    /// The exact integer of bytes first (what tests and budgets compare), then a human unit:
    /// "687 B", "37637 B (37.6 KB)", "2679698 B (2.68 MB)".
    static QString bytes(double bytes);
    /// Bytes rounded as a reader says them, where a table has no room for the exact count:
    /// "687 B", "37.6 KB", "2.68 MB".
    static QString roundedBytes(double bytes);
    /// "850 ms", "4.3 s", "6.0 min", "2.5 h".
    static QString seconds(double seconds);
    /// A fleet's times, seconds to days: "45 s", "6.0 min", "2.5 h", "3.0 d"; NaN (a share of
    /// the fleet never reached) is "not reached".
    static QString span(double seconds);
    /// "4.2 µJ", "12.5 mJ", "3.20 J", "1.50 kJ".
    static QString joules(double joules);
    /// A fraction as a percentage with two decimals: 0.8123 is "81.23 %".
    static QString percent(double fraction);
};

} // namespace dpu::ui
