// SPDX-License-Identifier: MIT
// The k field: a number as typed (1e-7, 0.00995, -0.5) shown as it is, so validation can name it.
#pragma once
#include <QDoubleSpinBox>

namespace dpu::ui {

/// A QDoubleSpinBox for ratios that keeps what the user typed: scientific notation is read
/// (QDoubleSpinBox turned "1e-7" into 17), values outside (0, 1] stay as typed (QDoubleSpinBox
/// turned "-0.5" into "-0") so that the plan's validation marks them, and the text shows up
/// to six significant digits instead of a fixed number of decimals.
class RatioSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit RatioSpinBox(QWidget* parent = nullptr);

    QValidator::State validate(QString& text, int& pos) const override;
    double valueFromText(const QString& text) const override;
    QString textFromValue(double value) const override;
    void fixup(QString& input) const override;
    /// Wide enough for a k of six significant digits ("0.00176389"): Qt sizes a spin box for the
    /// texts of its range's ends ("-100"), so 0.001763 showed as "0.001".
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    QSize widened(QSize hint) const;
};

} // namespace dpu::ui
