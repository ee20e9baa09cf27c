// SPDX-License-Identifier: MIT
// Tests of core's one file writer: what it does to every kind of thing that can stand at a path.
#include "ApplyProcess.h"
#include "TestSupport.h"
#include "dpu/AtomicWrite.h"
#include "dpu/Error.h"
#include "util/AtomicFile.h"
#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <string>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <chrono>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using dpu::test::readFile;

namespace {

std::string text(const std::string& path)
{
    const auto bytes = readFile(path);
    return std::string(bytes.begin(), bytes.end());
}

mode_t kindOf(const std::string& path)
{
    return dpu::test::fileKind(path);
}

/// A small tmpfs mounted for one test (root only; unmounted at the end). `ok` false elsewhere.
struct ScratchMount {
    std::string dir;
    bool ok = false;
    ScratchMount(const std::string& at, const char* options) : dir(at)
    {
        fs::create_directories(dir);
        ok = ::geteuid() == 0 && ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options) == 0;
    }
    ~ScratchMount()
    {
        if (ok)
            ::umount2(dir.c_str(), MNT_DETACH);
    }
};

/// Nothing but the named file and what the test put there: no temporary left behind.
QStringList namesIn(const std::string& dir)
{
    QStringList out;
    for (const auto& e : fs::directory_iterator(dir))
        out << QString::fromStdString(e.path().filename().string());
    out.sort();
    return out;
}

} // namespace

class TestAtomicWrite : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> tmp_;
    std::string dir() const { return tmp_->path().toStdString(); }

private Q_SLOTS:
    void init()
    {
        tmp_ = std::make_unique<QTemporaryDir>(); // a fresh scratch folder per test
        QVERIFY(tmp_->isValid());
    }

    void replacesARegularFileKeepingItsMode()
    {
        const std::string f = dir() + "/mode.txt";
        dpu::writeFileAtomic(f, "old");
        QVERIFY(::chmod(f.c_str(), 0600) == 0);
        dpu::writeFileAtomic(f, "new");
        QCOMPARE(text(f), std::string("new"));
        struct stat st {};
        QVERIFY(::stat(f.c_str(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0600));
        QCOMPARE(namesIn(dir()), QStringList{"mode.txt"});
    }

    void followsASymbolicLinkAndKeepsIt()
    {
        const std::string target = dir() + "/report-2026.pdf", link = dir() + "/latest.pdf";
        dpu::writeFileAtomic(target, "old report");
        QVERIFY(::symlink("report-2026.pdf", link.c_str()) == 0); // relative, as `ln -s` makes it
        dpu::writeFileAtomic(link, "new report");
        QCOMPARE(kindOf(link), mode_t(S_IFLNK));
        QCOMPARE(text(target), std::string("new report"));

        // A chain of links through another folder, the last one absolute: the end is written.
        fs::create_directories(dir() + "/b");
        QVERIFY(::symlink(target.c_str(), (dir() + "/b/abs").c_str()) == 0);
        QVERIFY(::symlink("b/abs", (dir() + "/chain").c_str()) == 0);
        dpu::writeFileAtomic(dir() + "/chain", "third");
        QCOMPARE(kindOf(dir() + "/chain"), mode_t(S_IFLNK));
        QCOMPARE(kindOf(dir() + "/b/abs"), mode_t(S_IFLNK));
        QCOMPARE(text(target), std::string("third"));
    }

    void aDanglingLinkCreatesItsTarget()
    {
        const std::string link = dir() + "/model";
        QVERIFY(::symlink("model.v1", link.c_str()) == 0);
        dpu::writeFileAtomic(link, "weights");
        QCOMPARE(kindOf(link), mode_t(S_IFLNK));
        QCOMPARE(text(dir() + "/model.v1"), std::string("weights"));
    }

    void aLinkLoopIsRefused()
    {
        QVERIFY(::symlink("loop-b", (dir() + "/loop-a").c_str()) == 0);
        QVERIFY(::symlink("loop-a", (dir() + "/loop-b").c_str()) == 0);
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(dir() + "/loop-a", "x"), "loop-a", "symbolic links");
        QCOMPARE(kindOf(dir() + "/loop-a"), mode_t(S_IFLNK));
    }

    void aHardLinkedFileIsReplacedUnderThisNameOnly()
    {
        // Documented choice: rename gives this name a new file; the other names keep the old one.
        const std::string a = dir() + "/a.json", b = dir() + "/b.json";
        dpu::writeFileAtomic(a, "old");
        QVERIFY(::link(a.c_str(), b.c_str()) == 0);
        dpu::writeFileAtomic(a, "new");
        QCOMPARE(text(a), std::string("new"));
        QCOMPARE(text(b), std::string("old"));
    }

    void aCharacterDeviceIsWrittenThroughNotReplaced()
    {
        // A copy of /dev/null where the tests may make device nodes (root), /dev/null itself
        // elsewhere: either way the node must still be a character device afterwards.
        std::string node = dir() + "/null-copy";
        if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            node = "/dev/null";
        dpu::writeFileAtomic(node, std::string(100000, 'x'));
        QCOMPARE(kindOf(node), mode_t(S_IFCHR));
        if (node != "/dev/null")
            QCOMPARE(namesIn(dir()), QStringList{"null-copy"});
    }

    void devFullSaysTheDiskIsFullAndStaysADevice()
    {
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic("/dev/full", "report"), "/dev/full", "No space left");
        QCOMPARE(kindOf("/dev/full"), mode_t(S_IFCHR));
    }

    void aBlockDeviceIsRefused()
    {
        const std::string node = dir() + "/disk";
        if (::mknod(node.c_str(), S_IFBLK | 0600, makedev(7, 200)) != 0)
            QVERIFY(::geteuid() != 0); // only root may make one; the refusal needs no device behind it
        else {
            DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(node, "x"), node, "block device");
            QCOMPARE(kindOf(node), mode_t(S_IFBLK));
        }
    }

    void aFifoWithoutReaderIsRefusedAtOnce()
    {
        const std::string fifo = dir() + "/pipe";
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(fifo, "x"), fifo, "no process is reading");
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO));
    }

    void aFifoWithAReaderGetsTheContent()
    {
        const std::string fifo = dir() + "/pipe2";
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        std::string got;
        const int rfd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK); // a reader, as `cat pipe2` would be
        QVERIFY(rfd >= 0);
        ::fcntl(rfd, F_SETFL, ::fcntl(rfd, F_GETFL) & ~O_NONBLOCK);
        std::thread reader([&] {
            // A FIFO read before any writer has opened it ends at once (0 bytes, no writer): wait
            // for the first bytes, then read to the end (the writer's close). Without the wait
            // the reader could leave before the writer came, and the write then blocked forever.
            char buf[4096];
            const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            for (ssize_t n; (n = ::read(rfd, buf, sizeof buf)) != 0 || got.empty();) {
                if (n > 0)
                    got.append(buf, static_cast<size_t>(n));
                else if (std::chrono::steady_clock::now() > giveUp)
                    break;
                else if (n == 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        const std::string content(300000, 'p'); // more than a pipe's buffer
        dpu::writeFileAtomic(fifo, content);
        reader.join();
        ::close(rfd);
        QCOMPARE(got.size(), content.size());
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO));
    }

    /// Reading a whole file takes a regular one only, found by what it is before reading: a FIFO
    /// would block for ever and /dev/zero fill the memory (dpu-cli bundle inspect /dev/zero was
    /// killed for it).
    void readingTakesOnlyARegularFile()
    {
        const std::string file = dir() + "/read.txt";
        dpu::test::writeFile(file, {'o', 'k'});
        QCOMPARE(dpu::readWholeFile(file), std::string("ok"));
        const std::string zero = dpu::test::thrownMessage<dpu::Error>([] { dpu::readWholeFile("/dev/zero"); });
        QVERIFY2(zero == "/dev/zero: expected a regular file, found a device node", zero.c_str());
        const std::string fifo = dir() + "/read.fifo";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const std::string fromFifo = dpu::test::thrownMessage<dpu::Error>([&] { dpu::readWholeFile(fifo); });
        QVERIFY2(fromFifo == fifo + ": expected a regular file, found a FIFO", fromFifo.c_str());
        const std::string folder = dpu::test::thrownMessage<dpu::Error>([&] { dpu::readWholeFile(dir()); });
        QVERIFY2(folder.find("expected a regular file, found a folder") != std::string::npos, folder.c_str());
        const std::string missing = dpu::test::thrownMessage<dpu::Error>([&] { dpu::readWholeFile(dir() + "/none"); });
        QVERIFY2(missing.find(dir() + "/none: cannot open") == 0, missing.c_str());
    }

    void aFolderIsRefused()
    {
        const std::string folder = dir() + "/out";
        fs::create_directories(folder + "/inner");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(folder, "x"), folder, "is a folder");
        QVERIFY(fs::is_directory(folder + "/inner"));
    }

    void aFileInThePathIsRefused()
    {
        const std::string file = dir() + "/plain";
        dpu::writeFileAtomic(file, "keep");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(file + "/x.pdf", "x"), "plain/x.pdf", "not a folder");
        QCOMPARE(text(file), std::string("keep"));
    }

    void longNames()
    {
        // A name the file system takes is written even when the temporary's suffix would not fit.
        const std::string longest = dir() + "/" + std::string(250, 'n');
        dpu::writeFileAtomic(longest, "fits");
        QCOMPARE(text(longest), std::string("fits"));
        QCOMPARE(namesIn(dir()).size(), 1);
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(dir() + "/" + std::string(256, 'n'), "x"), "256 bytes",
                                 "at most 255");
    }

    void aReadOnlyFolderLeavesTheOldFile()
    {
        // Root ignores permission bits: a read-only mount where root may mount, else a 0555 folder.
        ScratchMount m(dir() + "/ro", "size=64k");
        const std::string f = m.dir + "/plan.json";
        dpu::writeFileAtomic(f, "old");
        if (m.ok)
            QVERIFY(::mount(nullptr, m.dir.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
        else
            QVERIFY(::chmod(m.dir.c_str(), 0555) == 0);
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::writeFileAtomic(f, "new"), f, "unchanged");
        QCOMPARE(text(f), std::string("old"));
        QCOMPARE(namesIn(m.dir), QStringList{"plan.json"});
        if (!m.ok)
            ::chmod(m.dir.c_str(), 0755);
    }

    void aFullDiskLeavesTheOldFile()
    {
        // A 64 KiB file system where root may mount one; elsewhere the process's file size limit
        // makes the same write fail (EFBIG instead of ENOSPC) at the same step.
        ScratchMount m(dir() + "/full", "size=64k");
        const std::string f = m.dir + "/report.pdf";
        dpu::writeFileAtomic(f, "old report");
        const std::string big(1 << 20, 'r');
        struct rlimit old {};
        if (!m.ok) {
            ::signal(SIGXFSZ, SIG_IGN);
            ::getrlimit(RLIMIT_FSIZE, &old);
            const struct rlimit small{65536, old.rlim_max};
            ::setrlimit(RLIMIT_FSIZE, &small);
        }
        const std::string message = dpu::test::thrownMessage<dpu::Error>([&] { dpu::writeFileAtomic(f, big); });
        if (!m.ok)
            ::setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY2(message.find("write failed") != std::string::npos && message.find("unchanged") != std::string::npos,
                 message.c_str());
        if (m.ok)
            QVERIFY2(message.find("No space left") != std::string::npos, message.c_str());
        QCOMPARE(text(f), std::string("old report"));
        QCOMPARE(namesIn(m.dir), QStringList{"report.pdf"});
    }
};

QTEST_APPLESS_MAIN(TestAtomicWrite)
#include "test_atomic_write.moc"
