// SPDX-License-Identifier: MIT
// File > Open Run's chooser: one or several run folders (or folders of runs) at once.
#pragma once
#include <QFileDialog>

namespace dpu::ui {

/// A folder chooser that lets the user select several folders of one parent (Ctrl/Shift-click):
/// the runs of a sweep side by side. The platform's native folder dialog selects one folder only,
/// so this one is always Qt's own.
class OpenRunsDialog : public QFileDialog {
    Q_OBJECT
public:
    OpenRunsDialog(QWidget* parent, const QString& startFolder);
    /// The chosen folders (absolute paths), after the dialog was accepted.
    QStringList folders() const;
};

} // namespace dpu::ui
