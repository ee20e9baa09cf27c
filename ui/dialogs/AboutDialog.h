// SPDX-License-Identifier: MIT
// Help > About: version, what the program does, and the paper it implements.
#pragma once

class QWidget;

namespace dpu::ui {

class AboutDialog {
public:
    static void show(QWidget* parent);
};

} // namespace dpu::ui
