// SPDX-License-Identifier: MIT
// dpu-cli as a child process for the command-line tests: its path and one finished call.
#pragma once
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace dpu::test {

/// The dpu-cli under test: $DPU_CLI (CTest sets it), else the build tree's.
inline QString cliExe()
{
    return qEnvironmentVariable("DPU_CLI", QStringLiteral(DPU_BINARY_DIR "/app/cli/dpu-cli"));
}

/// Exit code (-1 when it crashed or did not finish in time) and both outputs of one call.
struct CliResult {
    int code = -1;
    QString out, err;
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 180000)
{
    QProcess p;
    p.start(cliExe(), args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// The call's standard output as one JSON object (--json); empty, with a warning showing the
/// start of the output, when it is not JSON.
inline QJsonObject jsonOf(const CliResult& r)
{
    QJsonParseError error;
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(r.out.left(400)));
    return j;
}

} // namespace dpu::test
