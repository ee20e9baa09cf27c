// SPDX-License-Identifier: MIT
// Renders a chart view, axes, labels and legend included, to PNG or SVG files written atomically.
#pragma once
#include <QString>

class QChartView;

namespace dpu::ui {

class ChartExporter {
public:
    static bool toPng(QChartView* view, const QString& path, QString* error = nullptr, qreal scale = 2.0);
    static bool toSvg(QChartView* view, const QString& path, QString* error = nullptr);
    /// Asks for a file name, exports, and reports a failure in a message box.
    static void exportWithDialog(QChartView* view, bool svg);
};

} // namespace dpu::ui
