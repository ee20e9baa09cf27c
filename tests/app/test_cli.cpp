// SPDX-License-Identifier: MIT
// dpu-cli as a user meets it: help, version, models, cost, and clear errors with exit codes.
#include "TestSupport.h"
#include "dpu/Version.h"
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

namespace {

const char kPlan[] = R"({"name": "cli-bundles", "dataset": {"test_limit": 600},
    "split": {"initial": 300, "per_round": 300, "rounds": 2, "validation": 300},
    "strategies": ["dpu"], "k": 0.02, "train": {"epochs": 1}, "seeds": [2]})";

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

    void runRefusesASplitTheDataCannotHold()
    {
        // 500 training samples hold 5 rounds of 100 + 100 per round: 10 rounds are refused up
        // front, naming the field, instead of the run stopping silently after 5.
        QTemporaryDir dir;
        const QString data = dir.filePath("idx");
        dpu::test::writeIdxFolder(data.toStdString(), 500, 200);
        const QString plan = dir.filePath("plan.json");
        const std::string json = "{\"dataset\": {\"kind\": \"idx\", \"path\": \"" + data.toStdString()
                                 + "\"}, \"split\": {\"initial\": 100, \"per_round\": 100, \"rounds\": 10, "
                                   "\"validation\": 50}, \"strategies\": [\"fu\"], \"train\": {\"epochs\": 1}}";
        dpu::test::writeFile(plan.toStdString(), std::vector<uint8_t>(json.begin(), json.end()));
        const Result r = cli({"run", plan, "--out", dir.filePath("out")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("split.rounds: expected at most 5 rounds"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("out/results.jsonl")));
    }

    void bundleCommandsOnARealRun()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        QTemporaryDir dir;
        const QString plan = dir.filePath("plan.json");
        dpu::test::writeFile(plan.toStdString(), std::vector<uint8_t>(kPlan, kPlan + sizeof kPlan - 1));
        const QString run = dir.filePath("run");
        const Result r = cli({"run", plan, "--out", run, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        const QString out = dir.filePath("export");
        const Result ex = cli({"bundle", "export", run, "--out", out});
        QVERIFY2(ex.code == 0, qPrintable(ex.err));
        QVERIFY(ex.out.contains("matches the run's device state"));
        QVERIFY(QFile::exists(out + "/initial.safetensors"));
        QVERIFY(QFile::exists(out + "/round-001.dpub"));

        const Result inspect = cli({"bundle", "inspect", out + "/round-001.dpub"});
        QCOMPARE(inspect.code, 0);
        QVERIFY(inspect.out.contains("reinit"));
        QVERIFY(inspect.out.contains("fc1.weight"));
        const Result ok = cli({"bundle", "verify", out + "/round-001.dpub"});
        QCOMPARE(ok.code, 0);
        QVERIFY(ok.out.contains("OK, update version 1"));
        QVERIFY(QFile::exists(out + "/round-002.dpub")); // a seeded run: round 2 is a delta
        {                                                 // a delta needs the device's current file
            const Result noBase = cli({"bundle", "verify", out + "/round-002.dpub"});
            QCOMPARE(noBase.code, 1);
            QVERIFY(noBase.err.contains("REJECTED"));
            // inspect: a delta's names need its base; the wrong file is refused by name
            const Result numbered = cli({"bundle", "inspect", out + "/round-002.dpub"});
            QCOMPARE(numbered.code, 0);
            QVERIFY(numbered.out.contains("kind delta"));
            QVERIFY(numbered.out.contains("inspect with the base file"));
            const Result wrongBase =
                cli({"bundle", "inspect", out + "/round-002.dpub", "--base", out + "/initial.safetensors"});
            QCOMPARE(wrongBase.code, 1);
            QVERIFY2(wrongBase.err.contains("not the device file this delta applies to"), qPrintable(wrongBase.err));
        }
        const Result missing = cli({"bundle", "inspect", dir.filePath("nope.dpub")});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("nope.dpub"));
        QCOMPARE(cli({"bundle"}).code, 2);
        QCOMPARE(cli({"bundle", "frobnicate"}).code, 2);
        QCOMPARE(cli({"bundle", "export", run}).code, 2); // --out missing
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
