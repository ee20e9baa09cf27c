// SPDX-License-Identifier: MIT
// dpu-planner: the desktop application (plan, run, watch and export Deep Partial Updating).
#include "MainWindow.h"
#include "ResultsRenderer.h"
#include "dpu/Process.h"
#include "panels/PlanPanel.h"
#include "dpu/Version.h"
#include "workers/RunQueue.h"
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <memory>

int main(int argc, char** argv)
{
    // First: libgomp reads OMP_WAIT_POLICY at load time; this may re-exec the program.
    dpu::ensurePassiveOpenMP(argc, argv);
    // --version must work without a display (packaging checks it on build machines).
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("dpu-planner %s\n", DPU_VERSION_STRING);
            return 0;
        }
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DPU Planner"));
    QApplication::setApplicationName(QStringLiteral("dpu-planner"));
    QApplication::setApplicationDisplayName(QStringLiteral("DPU Planner"));
    QApplication::setApplicationVersion(QStringLiteral(DPU_VERSION_STRING));
    QApplication::setDesktopFileName(QStringLiteral("dpu-planner"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Plan, run and export Deep Partial Updating"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("plan"), QStringLiteral("Plan JSON to open (default: the last plan)"));
    QCommandLineOption defaultPlan(QStringLiteral("default-plan"), QStringLiteral("Start from the default plan"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Start the plan, save a PNG of the window after the first round, quit"),
                                  QStringLiteral("file"));
    QCommandLineOption render(QStringLiteral("render-results"),
                              QStringLiteral("Draw the charts of a run folder (results.jsonl) to PNG and SVG there, then quit "
                                             "(use with QT_QPA_PLATFORM=offscreen when there is no display)"),
                              QStringLiteral("folder"));
    parser.addOption(defaultPlan);
    parser.addOption(screenshot);
    parser.addOption(render);
    parser.process(app);

    if (parser.isSet(render)) {
        QStringList written;
        QString error;
        if (!dpu::ui::ResultsRenderer::render(parser.value(render), &written, &error)) {
            std::fprintf(stderr, "dpu-planner: %s\n", qPrintable(error));
            return 1;
        }
        for (const QString& f : written)
            std::printf("%s\n", qPrintable(f));
        return 0;
    }

    dpu::ui::MainWindow window;
    if (parser.isSet(defaultPlan))
        window.openPlan(QStringLiteral(":/plans/default.json"));
    if (!parser.positionalArguments().isEmpty()) {
        QString error;
        if (!window.openPlan(parser.positionalArguments().constFirst(), &error))
            QMessageBox::warning(&window, QStringLiteral("Open plan"), error);
    }
    window.show();
    if (parser.isSet(screenshot)) {
        // For the README: the window during a run, taken under Xvfb or the offscreen platform.
        const QString file = parser.value(screenshot);
        window.setAskBeforeClosingRun(false);
        // Taken about two thirds into the run, so the charts have lines and the run is still live.
        const dpu::Plan plan = window.planPanel()->plan();
        const int units = plan.split.rounds * static_cast<int>(plan.strategies.size() * plan.seeds.size());
        auto taken = std::make_shared<bool>(false);
        auto shoot = [&window, file, taken] {
            if (*taken)
                return;
            *taken = true;
            window.grab().save(file);
            window.close(); // stops the run, then closes
        };
        QObject::connect(window.runQueue(), &dpu::ui::RunQueue::roundDone, &window, [shoot, units](int, const dpu::RoundRecord&) {
            static int rounds = 0;
            if (++rounds == std::max(1, units * 2 / 3))
                shoot();
        });
        QObject::connect(&window, &dpu::ui::MainWindow::runsFinished, &window, shoot);
        window.startRun();
    }
    return app.exec();
}
