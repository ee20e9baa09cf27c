// SPDX-License-Identifier: MIT
// Bytes and durations as every view writes them ("37637 B (37.6 KB)", "4.3 s").
#pragma once
#include <QString>

namespace dpu::ui {

class Units {
public:
    /// The exact integer of bytes first (what tests and budgets compare), then a human unit:
    /// "687 B", "37637 B (37.6 KB)", "2679698 B (2.68 MB)".
    static QString bytes(double bytes);
    /// "850 ms", "4.3 s", "6.0 min", "2.5 h".
    static QString seconds(double seconds);
};

} // namespace dpu::ui
