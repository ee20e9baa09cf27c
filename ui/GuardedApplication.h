// SPDX-License-Identifier: MIT
// GuardedApplication: an exception that escapes a slot or an event handler is reported, not a crash.
#pragma once
#include <QApplication>
#include <QString>
#include <functional>

namespace dpu::ui {

/// The window's QApplication. Qt does not let an exception travel through its event loop (the
/// program aborts): the GUI thread's slots catch dpu::Error themselves, and anything else that
/// escapes one (an InternalError from a broken invariant, std::bad_alloc ...) ends here, is
/// shown once as an error ("internal error: … please report it") and the window goes on.
class GuardedApplication : public QApplication {
    Q_OBJECT
public:
    GuardedApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;

    /// How an escaped exception is shown: a message box by default; tests put their own here.
    static void setReporter(std::function<void(const QString&)> report);
    /// The words for the exception being handled (dpu::failureText for a std::exception).
    static QString describeCurrentException();
};

} // namespace dpu::ui
