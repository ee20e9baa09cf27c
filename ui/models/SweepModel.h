// SPDX-License-Identifier: MIT
// Table model of a sweep folder's cells: id, state, axis values, Slurm task.
#pragma once
#include "dpu/SweepStatus.h"
#include <QAbstractTableModel>

namespace dpu::ui {

class SweepModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Cell, State, Axes, SlurmTask, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    /// Replaces the rows (same cells: only the changed rows are signalled, so a selection stays).
    void setStatus(const dpu::SweepFolderStatus& status);
    const dpu::SweepFolderStatus& status() const { return status_; }
    /// The state shown in `row` ("pending", "running", "paused", "done", "failed", "cancelled").
    QString stateText(int row) const;
    /// The sweep's running cells are stopped by Pause: they read "paused", not "running".
    void setPaused(bool paused);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    dpu::SweepFolderStatus status_;
    bool paused_ = false;
};

} // namespace dpu::ui
