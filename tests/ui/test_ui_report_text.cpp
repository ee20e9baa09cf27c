// SPDX-License-Identifier: MIT
// The PDF report's plan in words: the paper's ablations (re-initialisation, FU's start, rewinding) said as the plan sets them.
#include "report/ReportText.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include <QtTest/QtTest>

class TestUiReportText : public QObject {
    Q_OBJECT

    static QString words(const dpu::Plan& p) { return dpu::ui::ReportText::planInWords(p, dpu::RunStatus{}); }

private Q_SLOTS:
    void reinitialisationAsThePlanSetsIt()
    {
        dpu::Plan p = dpu::defaultPlan();
        QVERIFY2(words(p).contains(QStringLiteral("re-initialised by the paper's rule")), qPrintable(words(p)));
        p.reinitEvery = 5;
        QVERIFY2(words(p).contains(QStringLiteral("re-initialised every 5 rounds")), qPrintable(words(p)));
        p.reinitEvery = 0;
        p.reinit = false;
        QVERIFY2(words(p).contains(QStringLiteral("never re-initialised")), qPrintable(words(p)));
    }

    void fullUpdatingsStartAndRewindingOnlyWhenSet()
    {
        dpu::Plan p = dpu::defaultPlan();
        const QString plain = words(p);
        QVERIFY(!plain.contains(QStringLiteral("Full updating starts")));
        QVERIFY(!plain.contains(QStringLiteral("rewind")));
        p.fuStart = dpu::FuStart::Fresh;
        QVERIFY2(words(p).contains(QStringLiteral("from a different random model")), qPrintable(words(p)));
        p.fuStart = dpu::FuStart::Last;
        QVERIFY2(words(p).contains(QStringLiteral("from the last round's weights")), qPrintable(words(p)));
        p.rewind = true;
        QVERIFY2(words(p).contains(QStringLiteral("rewind iteratively, 20 % of the remaining weights per step")), qPrintable(words(p)));
        // Single mode always rewinds; the plan's own sentence says so, not this one.
        p.mode = dpu::RunMode::Single;
        QVERIFY(!words(p).contains(QStringLiteral("The partial strategies rewind")));
        QVERIFY(words(p).contains(QStringLiteral("iterative rewinding")));
    }
};

QTEST_GUILESS_MAIN(TestUiReportText)
#include "test_ui_report_text.moc"
