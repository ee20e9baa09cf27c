// SPDX-License-Identifier: MIT
// The report's page breaks: between table rows and lines of text, never through them.
#pragma once
#include <QList>
#include <QString>

class QPaintDevice;
class QTextDocument;

namespace dpu::ui {

/// Qt's own pagination (QTextDocument::setPageSize) breaks a table row wherever a cell's line
/// crosses the page's end: a wrapped cell left "finished" alone at the top of the next page.
/// The report lays its HTML out as one long page instead and cuts it where no row and no line
/// is crossed.
class ReportPages {
public:
    /// A stretch of the laid-out document that one page holds whole (document coordinates).
    struct Span {
        qreal top = 0;
        qreal bottom = 0;
        bool keepWithNext = false; ///< a heading, a table's header row, a run's name across a table
    };

    /// Lays `html` out in `doc` as the report prints it: its style sheet, `width` wide, measured
    /// on `device` (the PDF writer), one long page that breaks() cuts.
    static void layOut(QTextDocument& doc, const QString& html, qreal width, QPaintDevice* device);
    /// What a page break must not cross, in document order: each table row (its cells, padding
    /// and borders; rows a cell spans together), each line of text outside tables. A span that
    /// keeps with the next is joined to it: a heading, a table's first row (its header) and a
    /// row across the whole table (a run's name) never end a page.
    static QList<Span> keptSpans(const QTextDocument& doc);
    /// Where the pages of `doc` begin, then where the last ends (the document's height): each
    /// page of at most `pageHeight` ends before the first span it would cut. A span taller than
    /// a page is cut where the page ends (nothing else would ever print it).
    static QList<qreal> breaks(const QTextDocument& doc, qreal pageHeight);
};

} // namespace dpu::ui
