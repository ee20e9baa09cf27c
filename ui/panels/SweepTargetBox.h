// SPDX-License-Identifier: MIT
// Where a k sweep goes: the run queue, this computer's cores (jobs), or a Slurm cluster (partition, time, CPUs, GPUs, memory, throttle).
#pragma once
#include "workers/SweepTarget.h"
#include <QWidget>

class QComboBox;
class QLineEdit;
class QSettings;
class QSpinBox;
class QWidget;

namespace dpu::ui {

class SweepTargetBox : public QWidget {
    Q_OBJECT
public:
    explicit SweepTargetBox(QWidget* parent = nullptr);

    SweepTarget target() const;
    void setTarget(const SweepTarget& target);
    /// Where sweep folders go when the settings name none: the application's data folder.
    static QString defaultFolder();

    /// Under "sweep/" in the settings.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

Q_SIGNALS:
    void changed();

private:
    void updateVisibility();

    QComboBox* where_;
    QWidget* local_;
    QWidget* slurm_;
    QWidget* folderRow_;
    QSpinBox* jobs_;
    QLineEdit* folder_;
    QLineEdit* partition_;
    QLineEdit* time_;
    QSpinBox* cpus_;
    QSpinBox* gpus_;
    QLineEdit* mem_;
    QSpinBox* throttle_;
};

} // namespace dpu::ui
