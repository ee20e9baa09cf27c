// SPDX-License-Identifier: MIT
// WaitCursor: the busy cursor over a short blocking call on the GUI thread, restored however the call ends.
#pragma once
#include <QGuiApplication>

namespace dpu::ui {

/// Shows Qt::WaitCursor from construction to destruction when `on` (an exception included).
class WaitCursor {
public:
    explicit WaitCursor(bool on) : on_(on)
    {
        if (on_)
            QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    }
    ~WaitCursor()
    {
        if (on_)
            QGuiApplication::restoreOverrideCursor();
    }
    WaitCursor(const WaitCursor&) = delete;
    WaitCursor& operator=(const WaitCursor&) = delete;

private:
    bool on_;
};

} // namespace dpu::ui
