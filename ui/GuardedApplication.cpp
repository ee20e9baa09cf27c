// SPDX-License-Identifier: MIT
// GuardedApplication: catches what escapes the GUI thread's handlers and says what it was.
#include "GuardedApplication.h"
#include "dpu/InternalCheck.h"
#include <QMessageBox>
#include <cstdio>
#include <exception>

namespace dpu::ui {
namespace {

std::function<void(const QString&)>& reporter()
{
    static std::function<void(const QString&)> report;
    return report;
}

void showOnce(const QString& text)
{
    std::fprintf(stderr, "dpu-planner: %s\n", qPrintable(text));
    static bool showing = false; // a box's own event loop may deliver the next failing event
    if (reporter()) {
        reporter()(text);
        return;
    }
    if (showing)
        return;
    showing = true;
    QMessageBox::critical(nullptr, QStringLiteral("DPU Planner"), text);
    showing = false;
}

} // namespace

GuardedApplication::GuardedApplication(int& argc, char** argv) : QApplication(argc, argv) {}

void GuardedApplication::setReporter(std::function<void(const QString&)> report)
{
    reporter() = std::move(report);
}

QString GuardedApplication::describeCurrentException()
{
    try {
        throw;
    } catch (const std::exception& e) {
        return QString::fromStdString(dpu::failureText(e));
    } catch (...) {
        return QStringLiteral("internal error: an exception of unknown type (an engine defect: please report it)");
    }
}

bool GuardedApplication::notify(QObject* receiver, QEvent* event)
{
    try {
        return QApplication::notify(receiver, event);
    } catch (...) {
        showOnce(describeCurrentException());
    }
    return false;
}

} // namespace dpu::ui
