// SPDX-License-Identifier: MIT
// A report PDF read back for the tests: its text through poppler's pdftotext, as typed, and its page count.
#pragma once
#include <QByteArray>
#include <QChar>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace dpu::test {

/// The PDF's text through poppler's pdftotext (scripts/deps installs poppler-utils), as typed:
/// the font's ligatures ("ﬂeet") and no-break spaces undone. `layout`: pdftotext -layout (columns
/// kept apart); otherwise its reading order. Empty when pdftotext fails.
inline QString pdfText(const QString& path, bool layout = true)
{
    QStringList args{path, QStringLiteral("-")};
    if (layout)
        args.prepend(QStringLiteral("-layout"));
    QProcess p;
    p.start(QStringLiteral("pdftotext"), args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput())
        .replace(QChar(0xFB01), QStringLiteral("fi"))
        .replace(QChar(0xFB02), QStringLiteral("fl"))
        .replace(QChar(0xA0), QLatin1Char(' '));
}

/// Pages of a PDF as QPdfWriter writes them (one "/Type /Page" object each).
inline int pdfPages(const QByteArray& pdf)
{
    return static_cast<int>(pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") + pdf.count("/Type /Page/")
                            + pdf.count("/Type /Page "));
}

} // namespace dpu::test
