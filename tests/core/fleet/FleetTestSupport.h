// SPDX-License-Identifier: MIT
// What the fleet tests share without the engine's test support (which brings LibTorch): a near-compare and an error's text.
#pragma once
#include "dpu/LinkModel.h"
#include <QString>
#include <QtTest/QtTest>
#include <cmath>

/// Fails the test unless |actual - expected| <= tolerance, printing both.
#define COMPARE_NEAR(actual, expected, tolerance)                                                                      \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        if (!(std::fabs(a_ - e_) <= (tolerance)))                                                                      \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 +- %4").arg(#actual).arg(a_, 0, 'g', 12).arg(e_, 0, 'g', 12).arg(tolerance))); \
    } while (0)

namespace dpu::test {

/// The LinkError f() throws, as text; "(no error)" when it throws none.
template <class F>
QString errorOf(F f)
{
    try {
        f();
    } catch (const dpu::LinkError& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace dpu::test
