// SPDX-License-Identifier: MIT
// dpu-cli as a user meets it: help, version, models, cost, and clear errors with exit codes.
#include "TestSupport.h"
#include "dpu/Version.h"
#include <QProcess>

namespace {

struct Result {
    int code = -1;
    QString out, err;
};

Result cli(const QStringList& args)
{
    const QString exe = qEnvironmentVariable("DPU_CLI", QStringLiteral(DPU_BINARY_DIR "/app/cli/dpu-cli"));
    QProcess p;
    p.start(exe, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void versionAndHelp()
    {
        const Result v = cli({"--version"});
        QCOMPARE(v.code, 0);
        QCOMPARE(v.out.trimmed(), QString("dpu-cli " DPU_VERSION_STRING));
        const Result h = cli({"--help"});
        QCOMPARE(h.code, 0);
        for (const char* word : {"run", "models", "cost", "--resume", "--out"})
            QVERIFY2(h.out.contains(word), word);
        QCOMPARE(cli({}).code, 2); // no command: usage on stdout, exit 2
    }

    void modelsListsTheZooWithSizes()
    {
        const Result r = cli({"models"});
        QCOMPARE(r.code, 0);
        for (const char* m : {"mlp", "vgg", "resnet20", "resnet56", "mobilenetv1"})
            QVERIFY2(r.out.contains(m), m);
        QVERIFY(r.out.contains("668672")); // the MLP's partial weights
        QVERIFY(r.out.contains("14022016")); // the VGGNet's
    }

    void costMatchesTheAnalyticFormula()
    {
        const Result r = cli({"cost", "--model", "mlp", "--k", "0.01", "--budget", "10000"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("bytes per round  37637"), qPrintable(r.out));
        QVERIFY(r.out.contains("6687 weights changed"));
        QVERIFY(r.out.contains("2678824 bytes per round"));
        QVERIFY(r.out.contains("largest k = "));
    }

    void errorsSayWhatIsWrong()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath("plan.json");
        dpu::test::writeFile(plan.toStdString(), {'{', '"', 'k', '"', ':', '2', '}'});
        const Result bad = cli({"run", plan, "--out", dir.filePath("out")});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("k: expected a ratio in (0, 1], found 2"), qPrintable(bad.err));
        QVERIFY(bad.err.contains(plan));

        const Result noOut = cli({"run", plan});
        QCOMPARE(noOut.code, 2);
        QVERIFY(noOut.err.contains("--out"));

        const Result unknown = cli({"cost", "--frobnicate"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("unknown option --frobnicate"));

        const Result k = cli({"cost", "--k", "abc"});
        QCOMPARE(k.code, 2);
        QVERIFY(k.err.contains("--k: expected a number, found 'abc'"));

        const Result cmd = cli({"frobnicate"});
        QCOMPARE(cmd.code, 2);
        QVERIFY(cmd.err.contains("unknown command 'frobnicate'"));

        const Result model = cli({"cost", "--model", "resnet9"});
        QCOMPARE(model.code, 1);
        QVERIFY(model.err.contains("resnet9"));
    }

    void planPrintsTheDefaultPlan()
    {
        const Result r = cli({"plan"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("\"fashion-mlp-k0.01\""));
        QVERIFY(r.out.contains("\"strategies\""));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
