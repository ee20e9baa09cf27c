// SPDX-License-Identifier: MIT
// SeriesPalette: colours keyed by strategy name, not by the order series happen to appear in.
#include "charts/SeriesPalette.h"
#include <QMap>
#include <QRegularExpression>
#include <algorithm>

namespace dpu::ui {

QColor SeriesPalette::strategyColor(const QString& strategy)
{
    // Based on Okabe-Ito (colour-blind safe) with its pale members darkened for white paper.
    static const QHash<QString, QColor> fixed{
        {QStringLiteral("dpu"), QColor(0x00, 0x72, 0xB2)},          // blue
        {QStringLiteral("fu"), QColor(0x33, 0x33, 0x33)},           // near black: the reference
        {QStringLiteral("rpu"), QColor(0xD5, 0x5E, 0x00)},          // vermillion
        {QStringLiteral("gcpu"), QColor(0x00, 0x9E, 0x73)},         // bluish green
        {QStringLiteral("lcpu"), QColor(0xB8, 0x47, 0x8A)},         // reddish purple
        {QStringLiteral("pruning"), QColor(0x8C, 0x56, 0x4B)},      // brown
        {QStringLiteral("dpu-noreinit"), QColor(0x6A, 0x3D, 0x9A)}, // purple
        {QStringLiteral("gcpu-reinit"), QColor(0x1B, 0x78, 0x37)},  // dark green
        {QStringLiteral("dpu-memory"), QColor(0x99, 0x6B, 0x00)},   // dark gold
        {QStringLiteral("budget"), QColor(0xC6, 0x28, 0x28)},       // red: the budget line
    };
    if (const auto it = fixed.find(strategy); it != fixed.end())
        return *it;
    // Anything else (a renamed or future strategy): a stable pick by name, still dark enough.
    static const QColor spare[] = {QColor(0xB0, 0x78, 0x00), QColor(0x2C, 0x7F, 0xB8), QColor(0x7F, 0x2C, 0x5F),
                                   QColor(0x4D, 0x6B, 0x00)};
    return spare[qHash(strategy) % (sizeof spare / sizeof spare[0])];
}

QString SeriesPalette::strategyOf(const QString& key)
{
    return key.section(QLatin1Char(' '), 0, 0);
}

double SeriesPalette::kOf(const QString& key)
{
    static const QRegularExpression re(QStringLiteral("k=([0-9.eE+-]+)"));
    const auto m = re.match(key);
    bool ok = false;
    const double k = m.hasMatch() ? m.captured(1).toDouble(&ok) : -1;
    return ok ? k : -1;
}

Qt::PenStyle SeriesPalette::runDash(int runIndex)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
    return styles[runIndex % 5];
}

QColor SeriesPalette::shade(const QColor& base, int index, int count)
{
    if (count <= 1)
        return base;
    // From 45 % towards black to 30 % towards white: far enough apart to tell up to about six
    // shades, none so light that it fades on white.
    const double t = -0.45 + 0.75 * index / (count - 1);
    const QColor target = t < 0 ? QColor(Qt::black) : QColor(Qt::white);
    const double a = std::abs(t);
    return QColor::fromRgbF(static_cast<float>(base.redF() + (target.redF() - base.redF()) * a),
                            static_cast<float>(base.greenF() + (target.greenF() - base.greenF()) * a),
                            static_cast<float>(base.blueF() + (target.blueF() - base.blueF()) * a));
}

QHash<QString, QColor> SeriesPalette::colorsFor(const QStringList& keys)
{
    QMap<QString, QStringList> byStrategy;
    for (const QString& key : keys)
        byStrategy[strategyOf(key)] << key;
    QHash<QString, QColor> out;
    for (auto it = byStrategy.begin(); it != byStrategy.end(); ++it) {
        QStringList group = it.value();
        std::sort(group.begin(), group.end(), [](const QString& a, const QString& b) {
            const double ka = kOf(a), kb = kOf(b);
            return ka != kb ? ka < kb : a < b;
        });
        const QColor base = strategyColor(it.key());
        for (int i = 0; i < group.size(); ++i)
            out.insert(group[i], shade(base, i, static_cast<int>(group.size())));
    }
    return out;
}

} // namespace dpu::ui
