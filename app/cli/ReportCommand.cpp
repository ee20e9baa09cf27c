// SPDX-License-Identifier: MIT
// dpu-cli report: the desktop application's PDF report, made headless on Qt's offscreen platform.
#include "ArgList.h"
#include "CliCommands.h"
#include "dpu/Error.h"
#include "dpu/Links.h"
#include "dpu/RunFolder.h"
#include <cstdio>
#include <cstdlib>

#ifdef DPU_CLI_HAS_REPORT
#include "report/ReportWriter.h"
#include <QApplication>
#endif

namespace dpu::cli {

int reportCommand(const std::vector<std::string>& argv)
{
#ifndef DPU_CLI_HAS_REPORT
    (void)argv;
    std::fprintf(stderr, "dpu-cli report: this dpu-cli was built without the desktop application (DPU_BUILD_GUI=OFF), "
                         "which draws the report; rebuild with -DDPU_BUILD_GUI=ON\n");
    return 1;
#else
    ArgList args(argv);
    const std::string out = args.value("--out");
    const std::string link = args.value("--link", "nb-iot");
    const double budget = args.number("--budget", 0);
    const auto folders = args.positional();
    if (out.empty())
        throw UsageError("report needs --out FILE.pdf");
    if (folders.empty())
        throw UsageError("report needs at least one run folder");
    const LinkPreset* chosen = findLinkPreset(link);
    if (!chosen)
        throw UsageError("--link: expected " + linkPresetKeys() + ", found '" + link + "'");
    if (budget < 0)
        throw UsageError("--budget: expected bytes per round >= 0");
    // Read every folder first: a bad one is reported before anything starts.
    std::vector<RunFolder> runs;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            runs.push_back(loadRunFolder(dir));
    // The charts are Qt widgets: an application on the offscreen platform, for this command only.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char name[] = "dpu-cli";
    char* qtArgv[] = {name, nullptr};
    QApplication app(qtArgc, qtArgv);
    dpu::ui::ReportOptions options;
    options.linkName = QString::fromStdString(chosen->name);
    options.linkBitsPerSecond = chosen->bitsPerSecond;
    options.budgetBytes = budget;
    QString error;
    if (!dpu::ui::ReportWriter::write(runs, options, QString::fromStdString(out), &error))
        throw Error(error.toStdString());
    std::printf("%s: report of %zu run(s)\n", out.c_str(), runs.size());
    return 0;
#endif
}

} // namespace dpu::cli
