// SPDX-License-Identifier: MIT
// dpu-apply as a child process for the tests, and the small file helpers around it.
#pragma once
#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <string>
#include <sys/stat.h>

namespace dpu::test {

/// Exit code (-1 when it crashed or did not end in time: then it is killed) and both outputs.
struct ApplyResult {
    int exitCode = -1;
    QString out, err;
};

/// Runs the dpu-apply program `exe` with `args`; a call that blocks (a FIFO opened for reading)
/// is killed after `timeoutMs` and reads as exit -1.
inline ApplyResult runApply(const QString& exe, const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.start(exe, args);
    const bool finished = p.waitForFinished(timeoutMs);
    if (!finished) {
        p.kill();
        p.waitForFinished();
    }
    ApplyResult a;
    a.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    a.err = QString::fromLocal8Bit(p.readAllStandardError());
    a.exitCode = finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return a;
}

/// Replaces the file's contents with `bytes`; false when it cannot.
inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

/// What stands at `path` itself, a link not followed (S_IFREG, S_IFLNK, S_IFCHR, S_IFIFO, ...;
/// 0 when nothing does).
inline mode_t fileKind(const std::string& path)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}
inline mode_t fileKind(const QString& path)
{
    return fileKind(std::string(QFile::encodeName(path).constData()));
}

} // namespace dpu::test
