// SPDX-License-Identifier: MIT
// dpu-cli as a user meets it: help, version, models, cost, and clear errors with exit codes.
#include "CliProcess.h"
#include "TestSupport.h"
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include "dpu/Version.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <map>
#include <sys/stat.h>

namespace {

const char kPlan[] = R"({"name": "cli-bundles", "dataset": {"test_limit": 600},
    "split": {"initial": 300, "per_round": 300, "rounds": 2, "validation": 300},
    "strategies": ["dpu"], "k": 0.02, "train": {"epochs": 1}, "seeds": [2]})";

const char kPlanWithFu[] = R"({"name": "cli-summary", "dataset": {"test_limit": 600},
    "split": {"initial": 300, "per_round": 300, "rounds": 2, "validation": 300},
    "strategies": ["dpu", "fu"], "k": 0.02, "train": {"epochs": 1}, "seeds": [3]})";

using Result = dpu::test::CliResult;

Result cli(const QStringList& args)
{
    return dpu::test::runCli(args, 120000);
}

// The summary's row of `strategy` (after its header line), split at white space.
QStringList summaryRow(const QString& err, const QString& strategy)
{
    const QStringList lines = err.split('\n');
    int header = -1;
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].startsWith("strategy "))
            header = i;
    for (int i = header + 1; header >= 0 && i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(' ', Qt::SkipEmptyParts);
        if (!cells.isEmpty() && cells[0] == strategy)
            return cells;
    }
    return {};
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
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

    /// Every command and subcommand answers --help with its own usage, exit 0, doing nothing else.
    void everyCommandHasItsOwnHelp()
    {
        const QList<QStringList> commands{{"run"}, {"models"}, {"cost"}, {"plan"}, {"budget"}, {"frontier"},
                                          {"report"}, {"data"}, {"sweep", "run"}, {"sweep", "status"},
                                          {"sweep", "cancel"}, {"sweep", "merge"}, {"bundle", "export"}, {"fleet"}};
        for (const QStringList& command : commands) {
            const Result r = cli(command + QStringList{"--help"});
            const QString name = command.join(' ');
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains("dpu-cli") && r.out.contains(name), qPrintable(name + ": " + r.out));
            QVERIFY2(!r.err.contains("unknown option"), qPrintable(name + ": " + r.err));
        }
        // A subcommand's help is its own entry, not the whole list.
        const Result run = cli({"sweep", "run", "--help"});
        QVERIFY(!run.out.contains("sweep merge") && !run.out.contains("  models"));
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
        QVERIFY(!r.out.contains("nominal"));
        // A coding's nominal figure: 4 bits x 6687 + H(0.01) x 668672 + 4 bits x 1034 biases.
        const Result q4 = cli({"cost", "--model", "mlp", "--k", "0.01", "--values", "q4", "--dense", "coded"});
        QCOMPARE(q4.code, 0);
        const double h = -0.01 * std::log2(0.01) - 0.99 * std::log2(0.99);
        const qint64 bytes = qRound64((4.0 * 6687 + h * 668672 + 4.0 * 1034) / 8);
        QVERIFY2(q4.out.contains(QStringLiteral("nominal q4       %1 bytes per round").arg(bytes)), qPrintable(q4.out));
        const Result badValues = cli({"cost", "--values", "q3"});
        QCOMPARE(badValues.code, 1);
        QVERIFY2(badValues.err.contains("q3"), qPrintable(badValues.err));
        const Result badDense = cli({"cost", "--dense", "some"});
        QCOMPARE(badDense.code, 2);
        QVERIFY(badDense.err.contains("--dense"));

        // An INT8 deployed model: 8-bit codes, and its own full update (codes and 1,034 scales)
        // beside FP32's; the figures an INT8 run's records carry (29331 for DPU at k = 0.02 with
        // float biases, int8_biases float).
        const Result int8 = cli({"cost", "--model", "mlp", "--k", "0.02", "--deployed", "int8", "--int8-biases", "float"});
        QCOMPARE(int8.code, 0);
        QVERIFY2(int8.out.contains("bytes per round  29331") && int8.out.contains("1034 scales"), qPrintable(int8.out));
        QVERIFY2(int8.out.contains("full INT8        676944 bytes per round"), qPrintable(int8.out));
        QVERIFY2(int8.out.contains("ratio to that    0.04333"), qPrintable(int8.out));
        // The biases as codes (the default): 1,034 one-byte codes and three 4-byte scales instead
        // of 1,034 floats, 3,090 bytes fewer in every round, partial and full.
        const Result codes = cli({"cost", "--model", "mlp", "--k", "0.02", "--deployed", "int8"});
        QCOMPARE(codes.code, 0);
        QVERIFY2(codes.out.contains("bytes per round  26241") && codes.out.contains("dense 1046)"), qPrintable(codes.out));
        QVERIFY2(codes.out.contains("biases as codes with 3 scales"), qPrintable(codes.out));
        QVERIFY2(codes.out.contains("full INT8        673854 bytes per round"), qPrintable(codes.out));
        const Result floatBiases = cli({"cost", "--model", "mlp", "--k", "0.02", "--int8-biases", "float"});
        QCOMPARE(floatBiases.code, 2); // a float model has no codes
        QVERIFY2(floatBiases.err.contains("--int8-biases goes with --deployed int8"), qPrintable(floatBiases.err));
        const Result badBiases = cli({"cost", "--model", "mlp", "--k", "0.02", "--deployed", "int8", "--int8-biases", "half"});
        QCOMPARE(badBiases.code, 2);
        QVERIFY2(badBiases.err.contains("--int8-biases: expected") && badBiases.err.contains("half"), qPrintable(badBiases.err));
        // Sparse, half zeros: positions among the 334,336 nonzeros; the full update is the
        // nonzeros and a bitmap (0.53 of FP32's).
        const Result sparse = cli({"cost", "--model", "mlp", "--k", "0.01", "--deployed", "sparse"});
        QCOMPARE(sparse.code, 0);
        const double hs = -6687.0 / 334336 * std::log2(6687.0 / 334336) - (1 - 6687.0 / 334336) * std::log2(1 - 6687.0 / 334336);
        const qint64 sparseBytes = qRound64((32.0 * 6687 + hs * 334336 + 32.0 * 1034) / 8);
        QVERIFY2(sparse.out.contains(QStringLiteral("bytes per round  %1").arg(sparseBytes)), qPrintable(sparse.out));
        QVERIFY2(sparse.out.contains("full sparse      1425064 bytes per round"), qPrintable(sparse.out));
        const Result sparser = cli({"cost", "--model", "mlp", "--k", "0.01", "--deployed", "sparse", "--sparsity", "0.9"});
        QVERIFY2(sparser.out.contains("66867 nonzero"), qPrintable(sparser.out));
        for (const QStringList& bad : QList<QStringList>{{"--deployed", "int9"}, {"--sparsity", "0.3"},
                                                         {"--deployed", "sparse", "--sparsity", "1.5"}}) {
            const Result r = cli(QStringList{"cost"} + bad);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(bad.last() == "int9" ? "--deployed" : "--sparsity"), qPrintable(r.err));
        }
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
        // The message names what was run: the command, and its subcommand when it has one.
        QVERIFY2(noOut.err.startsWith("dpu-cli run: "), qPrintable(noOut.err));
        const Result sub = cli({"bundle", "inspect", dir.filePath("missing.dpub")});
        QVERIFY(sub.code != 0);
        QVERIFY2(sub.err.startsWith("dpu-cli bundle inspect: "), qPrintable(sub.err));
        // A device node where a file is read: refused by what it is, not read until memory runs out.
        const Result zero = cli({"bundle", "inspect", "/dev/zero"});
        QCOMPARE(zero.code, 1);
        QVERIFY2(zero.err.contains("/dev/zero: expected a regular file, found a device node"), qPrintable(zero.err));
        const Result plan0 = cli({"run", "/dev/zero", "--out", dir.filePath("zero")});
        QCOMPARE(plan0.code, 1);
        QVERIFY2(plan0.err.contains("/dev/zero: expected a regular file, found a device node"), qPrintable(plan0.err));
        const Result fleetPlan = cli({"fleet", "plan", dir.path(), "--fresh-share", "nan"});
        QCOMPARE(fleetPlan.code, 2);
        QVERIFY2(fleetPlan.err.startsWith("dpu-cli fleet plan: "), qPrintable(fleetPlan.err));

        const Result unknown = cli({"cost", "--frobnicate"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("unknown option --frobnicate"));

        const Result k = cli({"cost", "--k", "abc"});
        QCOMPARE(k.code, 2);
        QVERIFY2(k.err.contains("--k: expected an updating ratio in (0, 1], found 'abc'"), qPrintable(k.err));

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
        const Result r = cli({"run", plan, "--out", run});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Without FU in the run there is nothing to compare with: shown as "-", not as a number.
        const QStringList row = summaryRow(r.err, "dpu");
        QVERIFY2(row.size() == 5 && row[2] == "-" && row[3] == "-", qPrintable(r.err));

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
        // The progress line says the bytes really sent (the bundle's size), the analytic figure beside them.
        const QRegularExpression sent(QStringLiteral("round  2 dpu .* %1 B sent \\(analytic \\d+ B\\)")
                                          .arg(QFileInfo(out + "/round-002.dpub").size()));
        QVERIFY2(r.err.contains(sent), qPrintable(r.err));
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

    void runSummaryNamesWhatEachRatioIsTo()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        QTemporaryDir dir;
        const QString plan = dir.filePath("plan.json");
        dpu::test::writeFile(plan.toStdString(), std::vector<uint8_t>(kPlanWithFu, kPlanWithFu + sizeof kPlanWithFu - 1));
        const QString run = dir.filePath("run");
        const Result r = cli({"run", plan, "--out", run});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("bits / FU's bits") && r.err.contains("bits / full model every round")
                     && r.err.contains("acc. diff. to FU"), qPrintable(r.err));

        // The expected figures, from the run's own results.jsonl (one seed: no mean over seeds).
        std::map<QString, std::map<int, QJsonObject>> rounds; // strategy -> round -> record
        const QList<QByteArray> lines = readAll(run + "/results.jsonl").split('\n');
        for (const QByteArray& line : lines)
            if (!line.trimmed().isEmpty()) {
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                rounds[o["strategy"].toString()][o["round"].toInt()] = o;
            }
        QCOMPARE(rounds.size(), size_t(2));
        const auto& fu = rounds["fu"];
        const double fuBits = fu.rbegin()->second["cumulative_bits"].toDouble();
        QVERIFY(fuBits > 0);
        for (const auto& [strategy, records] : rounds) {
            double accuracy = 0, difference = 0;
            for (const auto& [round, o] : records) {
                accuracy += o["test_accuracy"].toDouble();
                difference += o["test_accuracy"].toDouble() - fu.at(round)["test_accuracy"].toDouble();
            }
            accuracy /= double(records.size());
            difference /= double(records.size());
            const QJsonObject& last = records.rbegin()->second;
            const QStringList row = summaryRow(r.err, strategy);
            QVERIFY2(row.size() == 6, qPrintable(strategy + ": " + r.err));
            QCOMPARE(row[1], QString::asprintf("%.2f%%", 100 * accuracy));
            QCOMPARE(row[2] + " " + row[3], QString::asprintf("%+.2f pts", 100 * difference));
            QCOMPARE(row[4], QString::asprintf("%.4f", last["cumulative_bits"].toDouble() / fuBits));
            QCOMPARE(row[5], QString::asprintf("%.4f", last["cumulative_ratio"].toDouble()));
        }
        QCOMPARE(summaryRow(r.err, "fu")[4], QString("1.0000")); // FU against itself
    }

    void keygenCreatesThePrivateKeyOwnerOnly()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath("sign");
#ifdef DPU_PATCH_WITH_SODIUM
        const mode_t umaskBefore = ::umask(0); // the key's mode must not depend on the caller's umask
        const Result r = cli({"bundle", "keygen", "--out", prefix});
        ::umask(umaskBefore);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        struct stat st {};
        QCOMPARE(::lstat(QFile::encodeName(prefix + ".key").constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0600));
        QCOMPARE(QFileInfo(prefix + ".key").size(), qint64(64));
        QCOMPARE(QFileInfo(prefix + ".pub").size(), qint64(32));
        const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System);
        QCOMPARE(left, QStringList({"sign.key", "sign.pub"})); // no temporary file left behind

        // Never replaced: not a key, and not a link planted at the key's name (not followed either).
        const QByteArray key = readAll(prefix + ".key");
        const Result again = cli({"bundle", "keygen", "--out", prefix});
        QCOMPARE(again.code, 1);
        QVERIFY2(again.err.contains("refusing to overwrite"), qPrintable(again.err));
        QCOMPARE(readAll(prefix + ".key"), key);
        const QString planted = dir.filePath("planted");
        QVERIFY(QFile::link(dir.filePath("elsewhere"), planted + ".key"));
        const Result link = cli({"bundle", "keygen", "--out", planted});
        QCOMPARE(link.code, 1);
        QVERIFY2(link.err.contains("refusing to overwrite"), qPrintable(link.err));
        QVERIFY(QFileInfo(planted + ".key").isSymLink());
        QVERIFY(!QFileInfo::exists(dir.filePath("elsewhere")));
#else
        const Result r = cli({"bundle", "keygen", "--out", prefix});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("libsodium"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(prefix + ".key"));
#endif
    }

    void planPrintsTheDefaultPlan()
    {
        const Result r = cli({"plan"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("\"fashion-mlp-k0.01\""));
        QVERIFY(r.out.contains("\"strategies\""));
        // The fields as the engine describes them: every key, its values and its default.
        const Result fields = cli({"plan", "--fields"});
        QCOMPARE(fields.code, 0);
        for (const dpu::PlanField& f : dpu::planFields())
            QVERIFY2(fields.out.contains(QString::fromStdString(f.path) + "  (default " + QString::fromStdString(f.defaultValue) + ")"),
                     f.path.c_str());
        const Result markdown = cli({"plan", "--fields", "--markdown"});
        QCOMPARE(markdown.out.toStdString(), dpu::planFieldsMarkdown());
        QCOMPARE(cli({"plan", "--markdown"}).code, 2);
        // A plan file: checked as run checks it, printed whole with every default filled in.
        QTemporaryDir dir;
        const QString mine = dir.filePath("mine.json");
        const std::string text = R"({"name": "mine", "k": 0.05})";
        dpu::test::writeFile(mine.toStdString(), std::vector<uint8_t>(text.begin(), text.end()));
        const Result own = cli({"plan", mine});
        QCOMPARE(own.code, 0);
        const dpu::Plan printed = dpu::parsePlan(own.out.toStdString(), "printed");
        QCOMPARE(printed.name, std::string("mine"));
        QCOMPARE(printed.k, 0.05);
        QVERIFY(own.out.contains("\"strategies\"")); // the defaults, filled in
        const QString bad = dir.filePath("bad.json");
        const std::string badText = R"({"k": 2})";
        dpu::test::writeFile(bad.toStdString(), std::vector<uint8_t>(badText.begin(), badText.end()));
        const Result refused = cli({"plan", bad});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("k: expected a ratio in (0, 1], found 2") && refused.err.contains(bad), qPrintable(refused.err));
        QCOMPARE(cli({"plan", mine, bad}).code, 2);
        QCOMPARE(cli({"plan", mine, "--fields"}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
