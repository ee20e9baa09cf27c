// SPDX-License-Identifier: MIT
// dpu-cli bundle catchup and export --catchup, applied by dpu-apply: the chain's device file for every version pair.
#include "CliProcess.h"
#include "TestSupport.h"
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace {

// Three rounds of q4 with coded biases: lossy values of several rounds meet in one bundle, and
// DPU re-initialises in round 2 (|D| 400 > 2 x 100).
const char kPlan[] = R"({"name": "cli-catchup", "dataset": {"train_limit": 1200, "test_limit": 400},
    "split": {"initial": 100, "per_round": 300, "rounds": 3, "validation": 200},
    "strategies": ["dpu"], "k": 0.02, "train": {"epochs": 1}, "seeds": [4],
    "bundle": {"values": "q4", "dense_tensors": "coded"}})";

QByteArray sha256(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex()
                                       : QByteArray();
}

int apply(const QString& bundle, const QString& device, QString* output, const QString& pubkey = {})
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QStringList args{bundle, device};
    if (!pubkey.isEmpty())
        args << "--pubkey" << pubkey;
    p.start(QStringLiteral(DPU_APPLY_EXE), args);
    p.waitForFinished(60000);
    *output = QString::fromLocal8Bit(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace

class TestCliCatchUp : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString run_;
    QStringList versions_; ///< device file of every version, as dpu-apply made them from the chain

    QString copyOf(int version, const QString& name)
    {
        const QString path = dir_.filePath(name);
        QFile::remove(path);
        return QFile::copy(versions_[version], path) ? path : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        const QString plan = dir_.filePath(QStringLiteral("plan.json"));
        dpu::test::writeFile(plan.toStdString(), std::vector<uint8_t>(kPlan, kPlan + sizeof kPlan - 1));
        run_ = dir_.filePath(QStringLiteral("run"));
        const auto r = dpu::test::runCli({"run", plan, "--out", run_, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString device = dir_.filePath(QStringLiteral("chain.safetensors"));
        QVERIFY(QFile::copy(run_ + "/bundles/seed-4/initial.safetensors", device));
        const QStringList rounds = QDir(run_ + "/bundles/seed-4/dpu").entryList({"round-*.dpub"}, QDir::Files, QDir::Name);
        versions_ << dir_.filePath(QStringLiteral("v0.safetensors"));
        QVERIFY(QFile::copy(device, versions_.back()));
        for (const QString& round : rounds) {
            QString out;
            QVERIFY2(apply(run_ + "/bundles/seed-4/dpu/" + round, device, &out) == 0, qPrintable(out));
            versions_ << dir_.filePath(QStringLiteral("v%1.safetensors").arg(versions_.size()));
            QVERIFY(QFile::copy(device, versions_.back()));
        }
        QVERIFY2(versions_.size() >= 3, "the run deploys at least two versions");
    }

    void catchUpAppliedByDpuApplyGivesTheChainsFile()
    {
        const int latest = int(versions_.size()) - 1;
        for (int to = 1; to <= latest; ++to)
            for (int from = 0; from < to; ++from) {
                const QString bundle = dir_.filePath(QStringLiteral("c-%1-%2.dpub").arg(from).arg(to));
                QStringList args{"bundle", "catchup", run_, "--strategy", "dpu", "--from", QString::number(from), "--out", bundle};
                if (to < latest || from % 2)
                    args << "--to" << QString::number(to); // the latest by default, or named
                const auto r = dpu::test::runCli(args);
                QVERIFY2(r.code == 0, qPrintable(r.err));
                QVERIFY2(r.out.contains("Route: "), qPrintable(r.out));
                const QString device = copyOf(from, QStringLiteral("device.safetensors"));
                QString out;
                QVERIFY2(apply(bundle, device, &out) == 0, qPrintable(out));
                QCOMPARE(sha256(device), sha256(versions_[to]));
            }
    }

    void exportRoutesApplyInOrder()
    {
        const QString out = dir_.filePath(QStringLiteral("export"));
        const auto r = dpu::test::runCli({"bundle", "export", run_, "--out", out, "--catchup", "all"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(out + "/catchup.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray entries = QJsonDocument::fromJson(f.readAll()).object().value("versions").toArray();
        QCOMPARE(entries.size(), versions_.size() - 1);
        for (const auto& e : entries) {
            const int from = e.toObject().value("from_version").toInt();
            const QString device = copyOf(from, QStringLiteral("routed.safetensors"));
            for (const auto& file : e.toObject().value("files").toArray()) {
                QString output;
                QVERIFY2(apply(out + "/" + file.toObject().value("file").toString(), device, &output) == 0,
                         qPrintable(output));
            }
            QCOMPARE(sha256(device), sha256(versions_.back()));
        }
    }

    /// --sign KEY signs every bundle of an unsigned run's export, rounds and catch-ups: a device
    /// holding the public key applies them all and ends on the chain's file; the run's own
    /// bundles stay unsigned (refused under that key), and a key of another size is refused
    /// naming its file before anything is written.
    void exportSignsWithAKey()
    {
        const QString prefix = dir_.filePath(QStringLiteral("signer"));
        QVERIFY(dpu::test::runCli({"bundle", "keygen", "--out", prefix}).code == 0);
        const QString out = dir_.filePath(QStringLiteral("signed"));
        const auto r = dpu::test::runCli({"bundle", "export", run_, "--out", out, "--catchup", "0", "--sign", prefix + ".key"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("signed with"), qPrintable(r.out));
        const QString pub = prefix + ".pub";
        QString output;
        const QString device = copyOf(0, QStringLiteral("signed.safetensors"));
        QVERIFY2(apply(run_ + "/bundles/seed-4/dpu/round-001.dpub", device, &output, pub) != 0, qPrintable(output));
        const QStringList rounds = QDir(out).entryList({"round-*.dpub"}, QDir::Files, QDir::Name);
        QCOMPARE(rounds.size(), versions_.size() - 1);
        for (const QString& round : rounds)
            QVERIFY2(apply(out + "/" + round, device, &output, pub) == 0, qPrintable(output));
        QCOMPARE(sha256(device), sha256(versions_.back()));
        const QString caughtUp = copyOf(0, QStringLiteral("signed-catchup.safetensors"));
        QVERIFY2(apply(out + "/catchup/from-000.dpub", caughtUp, &output, pub) == 0, qPrintable(output));
        QCOMPARE(sha256(caughtUp), sha256(versions_.back()));

        const QString shortKey = dir_.filePath(QStringLiteral("short.key"));
        dpu::test::writeFile(shortKey.toStdString(), std::vector<uint8_t>(32, 7));
        const QString refused = dir_.filePath(QStringLiteral("refused"));
        const auto bad = dpu::test::runCli({"bundle", "export", run_, "--out", refused, "--sign", shortKey});
        QVERIFY(bad.code != 0);
        QVERIFY2(bad.err.contains(shortKey) && bad.err.contains("64-byte"), qPrintable(bad.err));
        QVERIFY(!QFileInfo::exists(refused));
        // Not a key file at all: refused at once, never read (a FIFO would block, /dev/zero never end).
        const QString fifo = dir_.filePath(QStringLiteral("key.fifo"));
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        for (const QString& notAKey : {fifo, QStringLiteral("/dev/zero"), dir_.path()}) {
            const auto r = dpu::test::runCli({"bundle", "export", run_, "--out", refused, "--sign", notAKey});
            QVERIFY(r.code != 0);
            QVERIFY2(r.err.contains(notAKey) && r.err.contains("64-byte") && r.err.contains("found"), qPrintable(r.err));
            QVERIFY(!QFileInfo::exists(refused));
        }
    }

    /// --out through a symbolic link writes the bundle where the link points and keeps the link;
    /// a device node is written through and stays one; a folder is refused.
    void outputPathsAreNeverReplaced()
    {
        const QStringList base{"bundle", "catchup", run_, "--strategy", "dpu", "--from", "0", "--out"};
        const QString plain = dir_.filePath(QStringLiteral("plain.dpub"));
        QCOMPARE(dpu::test::runCli(base + QStringList{plain}).code, 0);
        const QString target = dir_.filePath(QStringLiteral("slot-b.dpub")), link = dir_.filePath(QStringLiteral("next.dpub"));
        QVERIFY(QFile::link(target, link));
        QFile(target).remove();
        const auto linked = dpu::test::runCli(base + QStringList{link});
        QVERIFY2(linked.code == 0, qPrintable(linked.err));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(sha256(target), sha256(plain));

        QString node = dir_.filePath(QStringLiteral("null-copy"));
        if (::mknod(QFile::encodeName(node).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            node = QStringLiteral("/dev/null"); // only root may make a node; /dev/null itself is safe to write
        const auto toNull = dpu::test::runCli(base + QStringList{node});
        QVERIFY2(toNull.code == 0, qPrintable(toNull.err));
        struct stat st {};
        QVERIFY(::lstat(QFile::encodeName(node).constData(), &st) == 0 && S_ISCHR(st.st_mode));

        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("a-folder")));
        const auto folder = dpu::test::runCli(base + QStringList{dir_.filePath(QStringLiteral("a-folder"))});
        QCOMPARE(folder.code, 1);
        QVERIFY2(folder.err.contains(QStringLiteral("is a folder")), qPrintable(folder.err));
    }

    void helpAndBadInput()
    {
        const auto help = dpu::test::runCli({"bundle", "catchup", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("Usage: dpu-cli bundle catchup"));
        QVERIFY(dpu::test::runCli({"bundle", "export", "--help"}).out.contains("--catchup"));
        const QString bundle = dir_.filePath(QStringLiteral("bad.dpub"));
        const auto never = dpu::test::runCli({"bundle", "catchup", run_, "--strategy", "dpu", "--from", "40", "--out", bundle});
        QCOMPARE(never.code, 1);
        QVERIFY2(never.err.contains("--from") && never.err.contains("never deployed"), qPrintable(never.err));
        const auto order = dpu::test::runCli({"bundle", "catchup", run_, "--strategy", "dpu", "--from", "2", "--to", "1",
                                              "--out", bundle});
        QCOMPARE(order.code, 1);
        QVERIFY2(order.err.contains("must be below"), qPrintable(order.err));
        const auto word = dpu::test::runCli({"bundle", "catchup", run_, "--strategy", "dpu", "--from", "x", "--out", bundle});
        QCOMPARE(word.code, 2);
        QVERIFY2(word.err.contains("--from"), qPrintable(word.err));
        QVERIFY(!QFile::exists(bundle));
    }
};

QTEST_GUILESS_MAIN(TestCliCatchUp)
#include "test_cli_catchup.moc"
