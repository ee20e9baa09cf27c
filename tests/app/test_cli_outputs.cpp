// SPDX-License-Identifier: MIT
// dpu-cli's output paths: a report or a catch-up bundle sent to a link, a device node, a FIFO or a folder never replaces it.
#include "ApplyProcess.h"
#include "CliProcess.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

namespace {

mode_t kindOf(const QString& path)
{
    return dpu::test::fileKind(path);
}

QByteArray slurp(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;

    QString path(const QString& name) const { return tmp_.filePath(name); }

    dpu::test::CliResult report(const QString& out) { return dpu::test::runCli({"report", run_, "--out", out}); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        const dpu::FrontierRun run = dpu::test::codingSweep().front();
        run_ = path(QStringLiteral("run"));
        dpu::test::writeRunFolder(run_.toStdString(), run.plan, run.records, "finished", run.cost);
    }

    void aLinkedReportReplacesItsTarget()
    {
#if DPU_TEST_GUI_BUILD
        const QString target = path(QStringLiteral("report-1.pdf")), link = path(QStringLiteral("latest.pdf"));
        QFile old(target);
        QVERIFY(old.open(QIODevice::WriteOnly) && old.write("old") == 3);
        old.close();
        QVERIFY(::symlink("report-1.pdf", QFile::encodeName(link).constData()) == 0);
        const auto r = report(link);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(kindOf(link), mode_t(S_IFLNK));
        QVERIFY(slurp(target).startsWith("%PDF"));
#else
        const auto r = report(path(QStringLiteral("x.pdf")));
        QCOMPARE(r.code, 1); // the headless build says it has no report
#endif
    }

    void aReportToADeviceNodeWritesThrough()
    {
#if DPU_TEST_GUI_BUILD
        // The case: `--out /dev/full` replaced the node with a PDF. A copy of /dev/null
        // where the tests may make one (root); /dev/null and /dev/full themselves are safe to use.
        QString null = path(QStringLiteral("null-copy"));
        if (::mknod(QFile::encodeName(null).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            null = QStringLiteral("/dev/null");
        const auto ok = report(null);
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        QCOMPARE(kindOf(null), mode_t(S_IFCHR));
        const auto full = report(QStringLiteral("/dev/full"));
        QCOMPARE(full.code, 1);
        QVERIFY2(full.err.contains(QStringLiteral("/dev/full")) && full.err.contains(QStringLiteral("No space left")),
                 qPrintable(full.err));
        QCOMPARE(kindOf(QStringLiteral("/dev/full")), mode_t(S_IFCHR));
#endif
    }

    void aReportToAFifo()
    {
#if DPU_TEST_GUI_BUILD
        const QString fifo = path(QStringLiteral("pipe.pdf"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const auto none = report(fifo); // nobody reads it: refused at once, not a wait
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QStringLiteral("no process is reading")), qPrintable(none.err));
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO));
        // With a reader (as `dpu-cli report ... --out >(cat)`), the PDF goes through the pipe.
        const int rfd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(rfd >= 0);
        QByteArray got;
        std::thread reader([&] {
            ::fcntl(rfd, F_SETFL, ::fcntl(rfd, F_GETFL) & ~O_NONBLOCK);
            char buf[4096];
            ssize_t n = 0;
            // Until the writer has come and gone: an empty read before it opens is not the end.
            for (int idle = 0; idle < 600 && (n = ::read(rfd, buf, sizeof buf)) >= 0;)
                if (n > 0)
                    got.append(buf, int(n));
                else if (got.isEmpty())
                    ++idle, std::this_thread::sleep_for(std::chrono::milliseconds(100));
                else
                    break;
        });
        const auto piped = report(fifo);
        reader.join();
        ::close(rfd);
        QVERIFY2(piped.code == 0, qPrintable(piped.err));
        QVERIFY(got.startsWith("%PDF"));
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO));
#endif
    }

    void aFolderOrAFileInThePathIsRefused()
    {
#if DPU_TEST_GUI_BUILD
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("reports")));
        const auto folder = report(path(QStringLiteral("reports")));
        QCOMPARE(folder.code, 1);
        QVERIFY2(folder.err.contains(QStringLiteral("is a folder")), qPrintable(folder.err));
        QVERIFY(QFileInfo(path(QStringLiteral("reports"))).isDir());
        const auto tooLong = report(path(QString(300, QLatin1Char('r'))));
        QCOMPARE(tooLong.code, 1);
        QVERIFY2(tooLong.err.contains(QStringLiteral("at most")), qPrintable(tooLong.err));
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "test_cli_outputs.moc"
