// SPDX-License-Identifier: MIT
// RatioSpinBox: reads scientific notation and out-of-range ratios as typed.
#include "panels/RatioSpinBox.h"
#include <QFontMetrics>
#include <QLocale>
#include <QRegularExpression>

namespace dpu::ui {

RatioSpinBox::RatioSpinBox(QWidget* parent) : QDoubleSpinBox(parent)
{
    // Wider than the valid (0, 1] on both sides, so a typed 2 or -0.5 reaches validation and
    // gets a message at the field instead of being clamped; ten decimals keep 1e-7.
    setDecimals(10);
    setRange(-100, 100);
    setSingleStep(0.001);
}

QValidator::State RatioSpinBox::validate(QString& text, int& pos) const
{
    Q_UNUSED(pos);
    const QString t = text.trimmed();
    if (t.isEmpty())
        return QValidator::Intermediate;
    // Only what a number can be made of: digits, signs, the locale's point, an exponent.
    const QString point = QRegularExpression::escape(locale().decimalPoint());
    static const QString allowed = QStringLiteral("^[+-]?[0-9]*(%1[0-9]*)?([eE][+-]?[0-9]*)?$");
    if (!QRegularExpression(allowed.arg(point)).match(t).hasMatch())
        return QValidator::Invalid;
    bool ok = false;
    const double v = locale().toDouble(t, &ok);
    if (!ok) // "-", "1e", "0." on the way to a number
        return QValidator::Intermediate;
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

double RatioSpinBox::valueFromText(const QString& text) const
{
    bool ok = false;
    const double v = locale().toDouble(text.trimmed(), &ok);
    return ok ? v : value();
}

QString RatioSpinBox::textFromValue(double value) const
{
    // 0.05, 0.00995, 1e-07: the value itself, not "0.0500000000".
    return locale().toString(value, 'g', 6);
}

void RatioSpinBox::fixup(QString& input) const
{
    // An unfinished number ("1e", "-") goes back to the value the field holds.
    bool ok = false;
    locale().toDouble(input.trimmed(), &ok);
    if (!ok)
        input = textFromValue(value());
}

QSize RatioSpinBox::widened(QSize hint) const
{
    const QFontMetrics fm = fontMetrics();
    const QString ends = textFromValue(minimum()).size() > textFromValue(maximum()).size() ? textFromValue(minimum())
                                                                                          : textFromValue(maximum());
    const int extra = fm.horizontalAdvance(QStringLiteral("0.00176389")) - fm.horizontalAdvance(ends);
    if (extra > 0)
        hint.rwidth() += extra;
    return hint;
}

QSize RatioSpinBox::sizeHint() const
{
    return widened(QDoubleSpinBox::sizeHint());
}

QSize RatioSpinBox::minimumSizeHint() const
{
    return widened(QDoubleSpinBox::minimumSizeHint());
}

} // namespace dpu::ui
