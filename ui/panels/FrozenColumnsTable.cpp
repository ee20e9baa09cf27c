// SPDX-License-Identifier: MIT
// FrozenColumnsTable: a borderless overlay view of the first columns, kept in step with the table.
#include "panels/FrozenColumnsTable.h"
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalBlocker>
#include <algorithm>

namespace dpu::ui {

FrozenColumnsTable::FrozenColumnsTable(QWidget* parent) : QTableView(parent), frozen_(new QTableView(this))
{
    frozen_->setObjectName(QStringLiteral("frozenColumns"));
    frozen_->setFrameShape(QFrame::NoFrame); // its cells must line up with this view's, pixel for pixel
    frozen_->verticalHeader()->hide();
    // The widths are this view's (copied in updateFrozen), so they can never disagree.
    frozen_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    frozen_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // this view's scroll bar drives both
    // A click there focuses this view, so the keyboard, Ctrl+C and the cursor stay in one place.
    frozen_->setFocusPolicy(Qt::ClickFocus);
    frozen_->setFocusProxy(this);
    frozen_->setContextMenuPolicy(Qt::CustomContextMenu);
    frozen_->hide();
    // Per pixel, so a column half under the overlay can be scrolled clear of it (scrollTo).
    setHorizontalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(frozen_);
    wireHeaders();
    connect(frozen_, &QWidget::customContextMenuRequested, this, &FrozenColumnsTable::relayMenu);
}

void FrozenColumnsTable::wireHeaders()
{
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, &FrozenColumnsTable::updateFrozen);
    connect(verticalHeader(), &QHeaderView::sectionResized, frozen_,
            [this](int row, int, int size) { frozen_->setRowHeight(row, size); });
    QScrollBar* ours = verticalScrollBar();
    QScrollBar* theirs = frozen_->verticalScrollBar();
    connect(ours, &QAbstractSlider::valueChanged, theirs, &QAbstractSlider::setValue);
    // The wheel over the overlay scrolls both; a value the overlay only clamped while its row
    // range catches up with this view's is not the user's, and must not move this view.
    connect(theirs, &QAbstractSlider::valueChanged, ours, [this](int value) {
        if (!followingRange_)
            verticalScrollBar()->setValue(value);
    });
    connect(theirs, &QAbstractSlider::rangeChanged, this, [this] {
        followingRange_ = true;
        frozen_->verticalScrollBar()->setValue(verticalScrollBar()->value());
        followingRange_ = false;
    });
    // A click on the overlay's header sorts as a click on this view's would; the indicator
    // shows on whichever header holds the sorted column.
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, frozen_, [this](int section, Qt::SortOrder order) {
        const QSignalBlocker quiet(frozen_->horizontalHeader());
        frozen_->horizontalHeader()->setSortIndicator(section, order);
    });
    connect(frozen_->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this](int section, Qt::SortOrder order) {
        if (isSortingEnabled())
            horizontalHeader()->setSortIndicator(section, order);
    });
}

void FrozenColumnsTable::setFrozenColumns(int least, int most)
{
    least_ = std::max(1, least);
    most_ = std::max(least_, most);
    frozen_->setSelectionBehavior(selectionBehavior());
    frozen_->setSelectionMode(selectionMode());
    frozen_->setAlternatingRowColors(alternatingRowColors());
    frozen_->setShowGrid(showGrid());
    frozen_->setGridStyle(gridStyle());
    frozen_->setWordWrap(wordWrap());
    frozen_->setTextElideMode(textElideMode());
    frozen_->setEditTriggers(editTriggers());
    frozen_->setVerticalScrollMode(verticalScrollMode()); // the two scroll bars count the same units
    QHeaderView* header = frozen_->horizontalHeader();
    header->setSectionsClickable(isSortingEnabled());
    header->setSortIndicatorShown(isSortingEnabled() && horizontalHeader()->isSortIndicatorShown());
    {
        const QSignalBlocker quiet(header);
        header->setSortIndicator(horizontalHeader()->sortIndicatorSection(), horizontalHeader()->sortIndicatorOrder());
    }
    frozen_->raise();
    updateFrozen();
}

void FrozenColumnsTable::setModel(QAbstractItemModel* model)
{
    frozen_->setModel(model); // first, so that the selection model this view makes fits it too
    QTableView::setModel(model);
    updateFrozen();
}

void FrozenColumnsTable::setSelectionModel(QItemSelectionModel* selectionModel)
{
    QTableView::setSelectionModel(selectionModel);
    if (selectionModel && frozen_->model() == selectionModel->model())
        frozen_->setSelectionModel(selectionModel);
}

void FrozenColumnsTable::scrollTo(const QModelIndex& index, ScrollHint hint)
{
    const int x = horizontalScrollBar()->value();
    QTableView::scrollTo(index, hint);
    if (!index.isValid() || shown_ == 0)
        return;
    if (index.column() < shown_) {
        // The overlay shows that cell wherever this view stands: scroll only to its row, or a
        // click on the overlay (the current index moves) would throw the user back to the left.
        horizontalScrollBar()->setValue(x);
        return;
    }
    const int under = frozen_->width() - visualRect(index).left(); // pixels of it under the overlay
    if (under > 0)
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - under);
}

void FrozenColumnsTable::updateGeometries()
{
    QTableView::updateGeometries(); // the header and the viewport are in place: follow them
    updateFrozen();
}

int FrozenColumnsTable::widthOfFirst(int columns) const
{
    int width = 0;
    for (int c = 0; c < columns; ++c)
        width += columnWidth(c); // 0 for a hidden column
    return width;
}

void FrozenColumnsTable::updateFrozen()
{
    const int columns = model() ? model()->columnCount(rootIndex()) : 0;
    const int room = viewport()->width();
    int n = std::min(most_, columns);
    while (n > least_ && widthOfFirst(n) > room / 2)
        --n;
    // Columns that fill (nearly) all the viewport would leave nothing to scroll under them.
    if (n > 0 && widthOfFirst(n) > room * 3 / 4)
        n = 0;
    shown_ = n;
    frozen_->setVisible(n > 0);
    if (n == 0)
        return;
    for (int c = 0; c < columns; ++c) {
        frozen_->setColumnHidden(c, c >= n || isColumnHidden(c));
        if (c < n)
            frozen_->setColumnWidth(c, columnWidth(c));
    }
    if (frozen_->verticalHeader()->defaultSectionSize() != verticalHeader()->defaultSectionSize())
        frozen_->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    QHeaderView* header = frozen_->horizontalHeader();
    header->setVisible(!horizontalHeader()->isHidden());
    header->setFixedHeight(horizontalHeader()->height()); // a taller header elsewhere sets the height
    const QRect area = viewport()->geometry();
    const int top = horizontalHeader()->isHidden() ? area.top() : horizontalHeader()->geometry().top();
    frozen_->setGeometry(area.left(), top, widthOfFirst(n), area.bottom() + 1 - top);
    frozen_->verticalScrollBar()->setValue(verticalScrollBar()->value());
}

void FrozenColumnsTable::relayMenu(const QPoint& pos)
{
    // As if asked over this view's viewport (customContextMenuRequested's coordinates).
    if (contextMenuPolicy() == Qt::CustomContextMenu)
        Q_EMIT customContextMenuRequested(viewport()->mapFromGlobal(frozen_->viewport()->mapToGlobal(pos)));
}

} // namespace dpu::ui
