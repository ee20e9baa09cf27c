// SPDX-License-Identifier: MIT
// The PDF report's text: the paper's ablations said as the plan sets them; the per-round times on the link as the plan form has them.
#include "report/ReportText.h"
#include "RunFixtures.h"
#include "charts/Units.h"
#include "dpu/LinkModel.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include "report/ReportWriter.h"
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
        QVERIFY(!words(p).contains(QStringLiteral("Each rewinding step")));
        p.rewindEpochs = 2;
        p.train.epochs = 20;
        QVERIFY2(words(p).contains(QStringLiteral("Each rewinding step before the last trains 2 epoch(s), the last 20.")),
                 qPrintable(words(p)));
        // Single mode always rewinds; the plan's own sentence says so, not this one.
        p.mode = dpu::RunMode::Single;
        QVERIFY(!words(p).contains(QStringLiteral("The partial strategies rewind")));
        QVERIFY(words(p).contains(QStringLiteral("iterative rewinding")));
    }

    /// The table's time is one device's session for a round on the given link (the plan
    /// form's per-device row), duty cycle included; without a link it says so.
    /// Energies keep to a few digits in the report's narrow columns: "26.63 MJ", not "26627.50 kJ".
    void energiesTakeTheirUnit()
    {
        QCOMPARE(dpu::ui::Units::joules(0.5), QStringLiteral("500.0 mJ"));
        QCOMPARE(dpu::ui::Units::joules(19.51), QStringLiteral("19.51 J"));
        QCOMPARE(dpu::ui::Units::joules(1620), QStringLiteral("1.62 kJ"));
        QCOMPARE(dpu::ui::Units::joules(26627500), QStringLiteral("26.63 MJ"));
    }

    void timesAreOneDevicesSessionOnTheLink()
    {
        dpu::RunFolder run;
        run.dir = "/tmp/run-a";
        run.plan = dpu::defaultPlan();
        run.plan.strategies = {"dpu", "fu"};
        run.records = dpu::test::joined({dpu::test::strategyRounds("dpu", 1, {0.6, 0.7}, {300, 300}, {2000, 2000}, 40000),
                                         dpu::test::strategyRounds("fu", 1, {0.6, 0.7}, {40000, 40000}, {40000, 40000}, 40000)});
        dpu::ui::ReportOptions options;
        const QString none = dpu::ui::ReportText::firstPage({run}, options);
        QVERIFY2(none.contains(QStringLiteral("no link was given")), qPrintable(none));
        options.link = dpu::lorawanEu868(12, 0.01);
        options.devices = 200;
        const QString table = dpu::ui::ReportText::firstPage({run}, options);
        QVERIFY2(table.contains(QStringLiteral("LoRaWAN EU868 SF12")) && table.contains(QStringLiteral("to 200 devices")),
                 qPrintable(table));
        for (const int64_t bytes : {int64_t(2000), int64_t(40000)}) {
            const QString want = dpu::ui::Units::seconds(dpu::linkRound(*options.link, bytes, 200).deviceSeconds);
            QVERIFY2(table.contains(QStringLiteral(">%1</td></tr>").arg(want)), qPrintable(want + QStringLiteral(" in ") + table));
        }
        // SF12 at 1 %: far slower than the bare 250 bit/s would make 2000 B (64 s).
        QVERIFY(dpu::linkRound(*options.link, 2000, 200).deviceSeconds > 20 * 64.0);
    }

    /// Issue 41: an INT8 run's round 1 deploys the whole model (235.5 KB); its update rounds
    /// 14 KB. The table says both apart, and the session time is an update round's.
    void theInitialDeploymentIsApartFromTheUpdateRounds()
    {
        dpu::RunFolder run;
        run.dir = "/tmp/run-int8";
        run.plan = dpu::defaultPlan();
        run.plan.strategies = {"dpu"};
        run.plan.deployed = dpu::DeployedForm::Int8;
        run.records = dpu::test::strategyRounds("dpu", 1, {0.6, 0.7, 0.7, 0.8}, {300, 300, 0, 300}, {235500, 14000, 0, 14000}, 235500);
        dpu::ui::ReportOptions options;
        options.link = dpu::lorawanEu868(9, 0.1);
        const QString page = dpu::ui::ReportText::firstPage({run}, options);
        for (const char* header : {"Initial deployment", "Bytes per update round", "Time per update round"})
            QVERIFY2(page.contains(QString::fromUtf8(header)), header);
        const QString time = dpu::ui::Units::seconds(dpu::linkRound(*options.link, 14000, 1).deviceSeconds);
        const QString row = QStringLiteral("<td align=\"right\">235.5 KB</td><td align=\"right\">14.0 KB</td>"
                                           "<td align=\"right\">263.5 KB</td><td align=\"right\">%1</td></tr>")
                                .arg(time);
        QVERIFY2(page.contains(row), qPrintable(row + QStringLiteral(" in ") + page));
    }

    /// Issue 44: FU's own epochs (fu_epochs) and an INT8 model trained in float (fu_int8_training
    /// post) are said where a plan sets them, and nothing is said at the defaults.
    void fusTrainingIsSaidWhereThePlanSetsIt()
    {
        dpu::RunFolder run;
        run.dir = "/tmp/run-fu";
        run.plan = dpu::defaultPlan();
        run.plan.strategies = {"dpu", "fu"};
        run.plan.deployed = dpu::DeployedForm::Int8;
        run.records = dpu::test::strategyRounds("fu", 1, {0.6, 0.7}, {300, 300}, {40000, 40000}, 40000);
        const dpu::ui::ReportOptions options;
        const QString epochs = QStringLiteral("Full updating trains 54 epoch(s) per step");
        const QString post = QStringLiteral("train in float and are quantised after training");
        const QString codes = QStringLiteral("Its biases are int8 codes too");
        const QString floats = QStringLiteral("Its biases stay float32.");
        const QString plain = dpu::ui::ReportText::firstPage({run}, options);
        QVERIFY(!plain.contains(epochs) && !plain.contains(post));
        QVERIFY2(plain.contains(codes) && !plain.contains(floats), qPrintable(plain)); // int8_biases: codes by default
        run.plan.fuEpochs = 54;
        run.plan.fuInt8Training = dpu::FuInt8Training::Post;
        run.plan.int8Biases = dpu::Int8Biases::Float;
        const QString set = dpu::ui::ReportText::firstPage({run}, options);
        QVERIFY2(set.contains(epochs) && set.contains(post) && set.contains(floats) && !set.contains(codes), qPrintable(set));
        run.plan.deployed = dpu::DeployedForm::Fp32; // a float model says nothing of codes
        const QString fp32 = dpu::ui::ReportText::firstPage({run}, options);
        QVERIFY(!fp32.contains(codes) && !fp32.contains(floats));
    }
};

QTEST_GUILESS_MAIN(TestUiReportText)
#include "test_ui_report_text.moc"
