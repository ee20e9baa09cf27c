// SPDX-License-Identifier: MIT
// dpu-planner: the desktop application (plan, run, watch and export Deep Partial Updating).
#include "MainWindow.h"
#include "ResultsRenderer.h"
#include "dpu/Process.h"
#include "panels/PlanPanel.h"
#include "dpu/Version.h"
#include "workers/RunQueue.h"
#include "GuardedApplication.h"
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <memory>

namespace {

/// The options, described for --help. Set up once for a QCoreApplication (help, version: no
/// display needed) or the QApplication.
struct Options {
    QCommandLineOption defaultPlan{QStringLiteral("default-plan"), QStringLiteral("Start from the default plan")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Start the plan, save a PNG of the window when about two thirds of "
                                                 "its rounds are done (or when it ends, if sooner), then stop the "
                                                 "run and quit"),
                                  QStringLiteral("file")};
    QCommandLineOption render{QStringLiteral("render-results"),
                              QStringLiteral("Draw the charts of a run folder (results.jsonl) to PNG and SVG there, then "
                                             "quit (use with QT_QPA_PLATFORM=offscreen when there is no display)"),
                              QStringLiteral("folder")};

    void addTo(QCommandLineParser& parser) const
    {
        parser.setApplicationDescription(QStringLiteral("Plan, run and export Deep Partial Updating"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("plan"), QStringLiteral("Plan JSON to open (default: the last plan)"));
        parser.addOption(defaultPlan);
        parser.addOption(screenshot);
        parser.addOption(render);
    }
};

void describeApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DPU Planner"));
    QCoreApplication::setApplicationName(QStringLiteral("dpu-planner"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DPU_VERSION_STRING));
}

bool wantsHelpOrVersion(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (std::strcmp(a, "--") == 0)
            return false;
        for (const char* o : {"-h", "--help", "-help", "--help-all", "-?", "-v", "--version"})
            if (std::strcmp(a, o) == 0)
                return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    // First: libgomp reads OMP_WAIT_POLICY at load time; this may re-exec the program.
    dpu::ensurePassiveOpenMP(argc, argv);
    dpu::reportWriteLimitsAsErrors();
    dpu::omitLibTorchBacktraces();
    const Options options;
    // --help and --version must work without a display (packaging checks them on build
    // machines, users over ssh): a QApplication would abort without a platform.
    if (wantsHelpOrVersion(argc, argv)) {
        QCoreApplication core(argc, argv);
        describeApplication();
        QCommandLineParser parser;
        options.addTo(parser);
        parser.process(core); // prints and exits
        return 0;
    }
    dpu::ui::GuardedApplication app(argc, argv); // an escaped exception is shown, not an abort
    describeApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("DPU Planner"));
    QApplication::setDesktopFileName(QStringLiteral("dpu-planner"));

    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);
    const QCommandLineOption& defaultPlan = options.defaultPlan;
    const QCommandLineOption& screenshot = options.screenshot;
    const QCommandLineOption& render = options.render;

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
    if (window.startMaximized())
        window.showMaximized(); // a first start on a small screen (1366x768)
    else
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
