// SPDX-License-Identifier: MIT
// SweepModel: a sweep's cells as rows, refreshed in place as their states change.
#include "models/SweepModel.h"
#include <QBrush>
#include <QColor>

namespace dpu::ui {

void SweepModel::setStatus(const dpu::SweepFolderStatus& status)
{
    bool sameCells = status.dir == status_.dir && status.cells.size() == status_.cells.size();
    for (size_t i = 0; sameCells && i < status.cells.size(); ++i)
        sameCells = status.cells[i].id == status_.cells[i].id;
    if (!sameCells) {
        beginResetModel();
        status_ = status;
        endResetModel();
        return;
    }
    const dpu::SweepFolderStatus before = std::move(status_);
    status_ = status;
    for (size_t i = 0; i < status_.cells.size(); ++i) {
        const auto& a = before.cells[i];
        const auto& b = status_.cells[i];
        if (a.view != b.view || a.slurmTask != b.slurmTask || a.slurmState != b.slurmState)
            Q_EMIT dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
    }
}

QString SweepModel::stateText(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    const dpu::CellView view = status_.cells[static_cast<size_t>(row)].view;
    if (paused_ && view == dpu::CellView::Running)
        return tr("paused");
    return QString::fromLatin1(dpu::cellViewName(view));
}

void SweepModel::setPaused(bool paused)
{
    if (paused_ == paused)
        return;
    paused_ = paused;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, State), index(rowCount() - 1, State));
}

int SweepModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(status_.cells.size());
}

int SweepModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SweepModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const dpu::SweepCellStatus& c = status_.cells[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Cell: return QString::fromStdString(c.id);
        case State: return stateText(index.row());
        case Axes: return QString::fromStdString(c.axes);
        case SlurmTask:
            if (c.slurmTask.empty())
                return QStringLiteral("–");
            return c.slurmState.empty() ? QString::fromStdString(c.slurmTask)
                                        : QStringLiteral("%1 (%2)").arg(QString::fromStdString(c.slurmTask),
                                                                        QString::fromStdString(c.slurmState));
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(c.runDir);
    if (role == Qt::ForegroundRole && index.column() == State) {
        // Colour carries no meaning the text lacks; it only helps a long table scan.
        switch (c.view) {
        case dpu::CellView::Done: return QBrush(QColor(0x2e, 0x7d, 0x32));
        case dpu::CellView::Failed: return QBrush(QColor(0xb0, 0x00, 0x20));
        case dpu::CellView::Running: return QBrush(QColor(0x15, 0x65, 0xc0));
        default: return {};
        }
    }
    return {};
}

QVariant SweepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Cell: return tr("Cell");
    case State: return tr("State");
    case Axes: return tr("Axes");
    case SlurmTask: return tr("Slurm task");
    default: return {};
    }
}

} // namespace dpu::ui
