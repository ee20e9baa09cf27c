// SPDX-License-Identifier: MIT
// dpu-apply on what a device's weight path can be: a symbolic link (A/B layouts), a hard link,
// a device node, a FIFO, a folder; a link is kept and its target updated, the rest refused untouched.
#include "ApplyChain.h"
#include "ApplyProcess.h"
#include "TestSupport.h"
#include "dpu/Runner.h"
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

dpu::test::ApplyResult apply(const QStringList& args)
{
    return dpu::test::runApply(QStringLiteral(DPU_APPLY_EXE), args, 20000); // a FIFO that blocked the open ends here
}

QByteArray slurp(const QString& path)
{
    return dpu::test::fileBytes(path);
}

bool spit(const QString& path, const QByteArray& bytes)
{
    return dpu::test::writeBytes(path, bytes);
}

mode_t kindOf(const QString& path)
{
    return dpu::test::fileKind(path);
}

} // namespace

class TestApplyPaths : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QByteArray initial_, updated_; // the round-0 device file and what the first bundle makes of it
    QString bundle_;

    QString path(const QString& name) const { return tmp_.filePath(name); }

    /// Refused with exit 1, the message naming the path and `what`, the thing at the path unchanged.
    void expectRefused(const QString& weights, const QString& what, mode_t kind)
    {
        const auto a = apply({bundle_, weights, QStringLiteral("--current-version"), QStringLiteral("0")});
        QCOMPARE(a.exitCode, 1);
        QVERIFY2(a.err.contains(weights) && a.err.contains(what) && a.err.contains(QStringLiteral("nothing was changed")),
                 qPrintable(a.err));
        QVERIFY2(!a.err.contains(QStringLiteral(":  ")), qPrintable(a.err)); // "weights: is a folder", one space
        QCOMPARE(kindOf(weights), kind);
        QVERIFY(!QFile::exists(weights + QStringLiteral(".dpu-apply.tmp")));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        dpu::Plan p;
        p.name = "paths";
        p.dataset.testLimit = 600;
        p.split = {300, 300, 2, 300};
        p.strategies = {"fu"};
        p.train.epochs = 1;
        p.seeds = {3};
        const QString run = path(QStringLiteral("run"));
        dpu::RunObserver quiet;
        QVERIFY(!dpu::Runner(p, {run.toStdString()}).run(quiet).records.empty());
        const QString seedDir = run + QStringLiteral("/bundles/seed-3");
        initial_ = slurp(seedDir + QStringLiteral("/initial.safetensors"));
        const QStringList bundles = QDir(seedDir + QStringLiteral("/fu")).entryList({QStringLiteral("round-*.dpub")}, QDir::Files, QDir::Name);
        QVERIFY(!initial_.isEmpty() && !bundles.isEmpty());
        bundle_ = seedDir + QStringLiteral("/fu/") + bundles.front();
        // The reference: the bundle applied to a plain file.
        const QString plain = path(QStringLiteral("plain.safetensors"));
        QVERIFY(spit(plain, initial_));
        QCOMPARE(apply({bundle_, plain}).exitCode, 0);
        updated_ = slurp(plain);
        QVERIFY(!updated_.isEmpty() && updated_ != initial_);
    }

    void aSymbolicLinkIsKeptAndItsTargetUpdated()
    {
        // An A/B layout: model -> slots/model.a (relative), as a device keeps it.
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("slots")));
        const QString target = path(QStringLiteral("slots/model.a")), link = path(QStringLiteral("model"));
        QVERIFY(spit(target, initial_));
        QVERIFY(::symlink("slots/model.a", QFile::encodeName(link).constData()) == 0);
        const auto a = apply({bundle_, link});
        QCOMPARE(a.exitCode, 0);
        QVERIFY2(a.out.contains(QStringLiteral("(-> ")) && a.out.contains(QStringLiteral("slots/model.a")), qPrintable(a.out));
        QCOMPARE(kindOf(link), mode_t(S_IFLNK));
        QCOMPARE(QFile::symLinkTarget(link), target);
        QCOMPARE(slurp(target), updated_);
        QVERIFY(!QFile::exists(target + QStringLiteral(".dpu-apply.tmp")));
    }

    void aHardLinkKeepsTheOldVersionUnderItsOtherName()
    {
        // rename gives the weight path a new file; a second name (a backup) keeps the old version.
        const QString weights = path(QStringLiteral("hard.safetensors")), backup = path(QStringLiteral("hard.backup"));
        QVERIFY(spit(weights, initial_));
        QVERIFY(::link(QFile::encodeName(weights).constData(), QFile::encodeName(backup).constData()) == 0);
        QCOMPARE(apply({bundle_, weights}).exitCode, 0);
        QCOMPARE(slurp(weights), updated_);
        QCOMPARE(slurp(backup), initial_);
    }

    void aDeviceNodeIsRefused()
    {
        // A copy of /dev/null where the tests may make one (root), /dev/null itself elsewhere.
        QString node = path(QStringLiteral("null-copy"));
        if (::mknod(QFile::encodeName(node).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            node = QStringLiteral("/dev/null");
        expectRefused(node, QStringLiteral("character device"), S_IFCHR);
    }

    void aFifoIsRefusedWithoutBlocking()
    {
        const QString fifo = path(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        expectRefused(fifo, QStringLiteral("FIFO"), S_IFIFO);
    }

    void aFolderIsRefused()
    {
        const QString folder = path(QStringLiteral("weights-folder"));
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("weights-folder")));
        expectRefused(folder, QStringLiteral("folder"), S_IFDIR);
    }

    void aLinkToADeviceIsRefusedAndKept()
    {
        const QString link = path(QStringLiteral("to-null"));
        QVERIFY(::symlink("/dev/null", QFile::encodeName(link).constData()) == 0);
        expectRefused(link, QStringLiteral("its target /dev/null is a character device"), S_IFLNK);
    }

    /// The bundle named is not a file: a folder, a device node or a FIFO is refused by name (a
    /// FIFO without blocking), before the weights are touched.
    void aBundleThatIsNoFileIsRefused()
    {
        const QString weights = path(QStringLiteral("bundle-kinds.safetensors"));
        QVERIFY(spit(weights, initial_));
        const QString folder = path(QStringLiteral("bundle-folder"));
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("bundle-folder")));
        const QString fifo = path(QStringLiteral("bundle-fifo"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        for (const auto& [bundle, what] : {std::pair{folder, QStringLiteral("is a folder, not a bundle file")},
                                           std::pair{QStringLiteral("/dev/zero"), QStringLiteral("is a character device")},
                                           std::pair{fifo, QStringLiteral("is a FIFO")}}) {
            const auto a = apply({bundle, weights});
            QCOMPARE(a.exitCode, 1);
            QVERIFY2(a.err.contains(bundle + QStringLiteral(": ") + what) && a.err.contains(QStringLiteral("nothing was changed")),
                     qPrintable(a.err));
            QCOMPARE(slurp(weights), initial_);
        }
    }

    void aLinkLoopIsRefused()
    {
        QVERIFY(::symlink("loop2", QFile::encodeName(path(QStringLiteral("loop1"))).constData()) == 0);
        QVERIFY(::symlink("loop1", QFile::encodeName(path(QStringLiteral("loop2"))).constData()) == 0);
        expectRefused(path(QStringLiteral("loop1")), QStringLiteral("symbolic links"), S_IFLNK);
    }
};

QTEST_GUILESS_MAIN(TestApplyPaths)
#include "test_apply_paths.moc"
