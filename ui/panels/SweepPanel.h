// SPDX-License-Identifier: MIT
// The Sweeps tab: the shown sweep folder's cells and their live states, with Pause and Cancel.
#pragma once
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace dpu {
struct SweepFolderStatus;
}

namespace dpu::ui {

class SweepController;
class SweepModel;

/// Shows what the SweepController reads; Cancel goes back to it. Touches only widgets.
class SweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepPanel(SweepController* controller, QWidget* parent = nullptr);

Q_SIGNALS:
    /// Resume sweep was pressed: the window resumes it with its own jobs setting.
    void resumeRequested();

public:
    SweepModel* model() const { return model_; }
    QPushButton* cancelButton() const { return cancel_; }
    /// Checkable: pauses a local sweep this window runs (its cells are stopped, not ended).
    QPushButton* pauseButton() const { return pause_; }
    /// Runs a stopped sweep's cells that are left (enabled when there are some).
    QPushButton* resumeButton() const { return resume_; }
    /// The line above the table: folder, backend and the counts by state.
    QString summaryText() const;

private:
    void showStatus(const dpu::SweepFolderStatus& status);
    void updateButtons();

    SweepController* controller_;
    SweepModel* model_;
    QLabel* folder_;
    QLabel* summary_;
    QTableView* table_;
    QPushButton* pause_;
    QPushButton* cancel_;
    QPushButton* resume_;
};

} // namespace dpu::ui
