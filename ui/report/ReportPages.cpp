// SPDX-License-Identifier: MIT
// ReportPages: the laid-out document's rows and lines as spans a page holds whole, and the cuts between them.
#include "report/ReportPages.h"
#include <QAbstractTextDocumentLayout>
#include <QPaintDevice>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <algorithm>
#include <limits>
#include <vector>

namespace dpu::ui {
namespace {

using Span = ReportPages::Span;

constexpr qreal kInf = std::numeric_limits<qreal>::infinity();

/// Each line of a block outside tables; a heading's last line keeps with what follows.
void addLines(const QTextDocument& doc, const QTextBlock& block, QList<Span>& out)
{
    const QTextLayout* layout = block.layout();
    if (!layout || !block.isVisible() || layout->lineCount() == 0)
        return;
    // blockBoundingRect() places the layout's bounding rect in document coordinates.
    const qreal origin = doc.documentLayout()->blockBoundingRect(block).top() - layout->boundingRect().top();
    for (int i = 0; i < layout->lineCount(); ++i) {
        const QTextLine line = layout->lineAt(i);
        out.push_back({origin + line.y(), origin + line.y() + line.height(), false});
    }
    if (block.blockFormat().headingLevel() > 0)
        out.last().keepWithNext = true;
}

/// A cell's content from its first block's top to its last block's bottom (document coordinates).
std::pair<qreal, qreal> cellExtent(const QTextDocument& doc, const QTextTableCell& cell)
{
    const QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const QRectF first = layout->blockBoundingRect(cell.firstCursorPosition().block());
    const QRectF last = layout->blockBoundingRect(cell.lastCursorPosition().block());
    return {first.top(), std::max(first.bottom(), last.bottom())};
}

/// Per row of `table`: its cells' content extent, the last row a cell starting in it spans, and
/// whether one cell spans every column (a run's name across the table).
struct Rows {
    std::vector<qreal> top, bottom;
    std::vector<int> last;
    std::vector<bool> across;
};

Rows measureRows(const QTextDocument& doc, QTextTable* table)
{
    const int rows = table->rows(), columns = table->columns();
    Rows m{std::vector<qreal>(rows, kInf), std::vector<qreal>(rows, -kInf), std::vector<int>(rows), std::vector<bool>(rows)};
    for (int r = 0; r < rows; ++r) {
        m.last[r] = r;
        for (int c = 0; c < columns; ++c) {
            const QTextTableCell cell = table->cellAt(r, c);
            if (!cell.isValid() || cell.row() != r || cell.column() != c)
                continue; // a position another cell spans: that cell is counted where it starts
            const auto [top, bottom] = cellExtent(doc, cell);
            const int end = std::min(rows - 1, r + cell.rowSpan() - 1);
            m.top[r] = std::min(m.top[r], top);
            m.bottom[end] = std::max(m.bottom[end], bottom);
            m.last[r] = std::max(m.last[r], end);
            m.across[r] = m.across[r] || (cell.columnSpan() == columns && columns > 1);
        }
    }
    return m;
}

/// One span per row (rows a cell spans: one span), reaching half way to the next row's content,
/// so that a cut at a span's edge falls between two rows' borders; the first and last rows reach
/// to the table's own border.
void addRows(const QTextDocument& doc, QTextTable* table, QList<Span>& out)
{
    if (table->rows() == 0 || table->columns() == 0)
        return;
    const Rows m = measureRows(doc, table);
    const QTextTableFormat f = table->format();
    const QPaintDevice* device = doc.documentLayout()->paintDevice();
    const qreal scale = device ? device->logicalDpiY() / 96.0 : 1.0; // cell padding scales with the device
    const qreal edge = 2 * f.border() + f.padding() + f.cellSpacing() + std::max<qreal>(0, f.cellPadding()) * scale;
    struct Group {
        qreal top, bottom;
        bool keep;
    };
    std::vector<Group> groups;
    for (int r = 0; r < table->rows();) {
        int end = m.last[r];
        Group g{m.top[r], m.bottom[r], r == 0 || m.across[r]}; // a header row, a run's name: with the next
        for (int i = r + 1; i <= end; ++i) {
            end = std::max(end, m.last[i]);
            g.top = std::min(g.top, m.top[i]);
            g.bottom = std::max(g.bottom, m.bottom[i]);
        }
        groups.push_back(g);
        r = end + 1;
    }
    for (size_t i = 0; i < groups.size(); ++i) {
        const qreal top = i == 0 ? groups[i].top - edge : (groups[i - 1].bottom + groups[i].top) / 2;
        const qreal bottom = i + 1 == groups.size() ? groups[i].bottom + edge : (groups[i].bottom + groups[i + 1].top) / 2;
        out.push_back({top, bottom, groups[i].keep && i + 1 < groups.size()});
    }
}

/// The spans of a frame's flow in order: its blocks' lines, its tables' rows, its frames' own.
void addFrame(const QTextDocument& doc, QTextFrame* frame, QList<Span>& out)
{
    for (QTextFrame::iterator it = frame->begin(); !it.atEnd(); ++it) {
        if (QTextFrame* child = it.currentFrame()) {
            if (auto* table = qobject_cast<QTextTable*>(child))
                addRows(doc, table, out);
            else
                addFrame(doc, child, out);
        } else {
            addLines(doc, it.currentBlock(), out);
        }
    }
}

} // namespace

void ReportPages::layOut(QTextDocument& doc, const QString& html, qreal width, QPaintDevice* device)
{
    doc.documentLayout()->setPaintDevice(device);
    doc.setDefaultStyleSheet(QStringLiteral("h1 { font-size: 18pt; } h2 { font-size: 13pt; margin-top: 12px; } "
                                            "th { background-color: #e8eef4; } body { font-size: 9.5pt; }"));
    doc.setHtml(QStringLiteral("<body>%1</body>").arg(html));
    doc.setTextWidth(width); // no page height: one long page, cut by breaks()
}

QList<ReportPages::Span> ReportPages::keptSpans(const QTextDocument& doc)
{
    QList<Span> spans;
    addFrame(doc, doc.rootFrame(), spans);
    QList<Span> out;
    for (Span s : spans) {
        if (!out.isEmpty()) // estimated edges (a table's first row) never reach into what is above
            s.top = std::max(s.top, out.last().bottom);
        if (!out.isEmpty() && out.last().keepWithNext) {
            out.last().bottom = std::max(out.last().bottom, s.bottom);
            out.last().keepWithNext = s.keepWithNext;
        } else if (s.bottom > s.top) {
            out.push_back(s);
        }
    }
    return out;
}

QList<qreal> ReportPages::breaks(const QTextDocument& doc, qreal pageHeight)
{
    const qreal height = doc.size().height();
    QList<qreal> out{0};
    if (!(pageHeight > 0)) {
        out.push_back(height);
        return out;
    }
    const QList<Span> spans = keptSpans(doc);
    qreal start = 0;
    while (height - start > pageHeight) {
        qreal cut = start + pageHeight;
        for (bool moved = true; moved;) {
            moved = false;
            for (const Span& s : spans)
                if (s.top < cut && s.bottom > cut && s.top > start) { // before it, unless it fills the page
                    cut = s.top;
                    moved = true;
                }
        }
        out.push_back(cut);
        start = cut;
    }
    out.push_back(height);
    return out;
}

} // namespace dpu::ui
