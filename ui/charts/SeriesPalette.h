// SPDX-License-Identifier: MIT
// Series colours: a fixed colour per strategy, and distinct shades of it for its k values or runs.
#pragma once
#include <QColor>
#include <QHash>
#include <QString>
#include <QStringList>

namespace dpu::ui {

/// Every colour is dark enough to read as a thin line on white (no pale yellow or sky blue).
class SeriesPalette {
public:
    /// The strategy's own colour, the same in every chart and every run ("dpu" is always blue).
    static QColor strategyColor(const QString& strategy);
    /// The strategy a series key names: its first word ("dpu · k=0.01" and "dpu s2" -> "dpu").
    static QString strategyOf(const QString& key);
    /// The k a key names ("dpu · k=0.05" -> 0.05); -1 when it names none.
    static double kOf(const QString& key);
    /// Shade `index` of `count` of `base`: from darker to lighter, evenly spread; `base` itself
    /// when count is 1.
    static QColor shade(const QColor& base, int index, int count);
    /// Colours of a set of keys: each key its strategy's colour; keys of one strategy get
    /// distinct shades, darkest for the smallest k (then by name).
    static QHash<QString, QColor> colorsFor(const QStringList& keys);
    /// The line style of the run at `runIndex` among the runs shown (solid, dashed, dotted, ...,
    /// repeating): runs of one strategy differ by more than a shade, in the window and the report.
    static Qt::PenStyle runDash(int runIndex);
};

} // namespace dpu::ui
