// SPDX-License-Identifier: MIT
// A table view whose first columns stay put on the left while the others scroll horizontally.
#pragma once
#include <QTableView>

namespace dpu::ui {

/// Qt's "Frozen Column" example made general: a second, borderless QTableView over the same
/// model and selection model shows only the first columns and lies over this view's left edge;
/// it follows this view's vertical scrolling, column widths, row heights and sort order, and the
/// frozen columns of this view scroll on underneath it. Everything that reads the table (its
/// model, selection, header, context menu) keeps talking to this view alone.
class FrozenColumnsTable : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnsTable(QWidget* parent = nullptr);

    /// Freezes the first `most` columns when they take at most half the viewport's width, fewer
    /// (not under `least`) when they do not; nothing when even `least` would cover the viewport.
    /// Copies this view's selection behaviour, mode and row colours: call it once they are set.
    void setFrozenColumns(int least, int most);
    /// The overlay (for tests and styling); it has no model or selection of its own.
    QTableView* frozenView() const { return frozen_; }
    /// How many columns the overlay shows now (0 while it is hidden).
    int frozenCount() const { return shown_; }

    void setModel(QAbstractItemModel* model) override;
    void setSelectionModel(QItemSelectionModel* selectionModel) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

protected:
    void updateGeometries() override;

private:
    void wireHeaders();
    /// Places the overlay, picks how many columns it shows and copies their widths.
    void updateFrozen();
    int widthOfFirst(int columns) const;
    void relayMenu(const QPoint& pos);

    QTableView* frozen_;
    int least_ = 0, most_ = 0, shown_ = 0;
    bool followingRange_ = false;
};

} // namespace dpu::ui
