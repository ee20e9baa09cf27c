// SPDX-License-Identifier: MIT
// The PDF report's page breaks: no table row and no line of text split across two pages (issue 45).
#include "report/ReportPages.h"
#include "RunFixtures.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include "report/ReportText.h"
#include "report/ReportWriter.h"
#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QtTest/QtTest>

namespace {

struct Line {
    qreal top = 0;
    qreal bottom = 0;
};

/// A table row as printed: the lines of every cell in it, and its text.
struct Row {
    QList<Line> lines;
    QString text;
    bool across = false; ///< one cell across the whole table (a run's name)
};

/// A block's lines in document coordinates (measured here, not by ReportPages).
QList<Line> linesOf(const QTextDocument& doc, const QTextBlock& block)
{
    QList<Line> out;
    const QTextLayout* layout = block.layout();
    const qreal origin = doc.documentLayout()->blockBoundingRect(block).top() - layout->boundingRect().top();
    for (int i = 0; i < layout->lineCount(); ++i)
        out.push_back({origin + layout->lineAt(i).y(), origin + layout->lineAt(i).y() + layout->lineAt(i).height()});
    return out;
}

/// Every row of the document's tables, and every line of text outside them.
void collect(const QTextDocument& doc, QTextFrame* frame, QList<Row>& rows, QList<Line>& text)
{
    for (QTextFrame::iterator it = frame->begin(); !it.atEnd(); ++it) {
        auto* table = qobject_cast<QTextTable*>(it.currentFrame());
        if (!table) {
            if (it.currentFrame())
                collect(doc, it.currentFrame(), rows, text);
            else
                text += linesOf(doc, it.currentBlock());
            continue;
        }
        for (int r = 0; r < table->rows(); ++r) {
            Row row;
            for (int c = 0; c < table->columns(); ++c) {
                const QTextTableCell cell = table->cellAt(r, c);
                if (cell.row() != r || cell.column() != c)
                    continue;
                row.across = row.across || cell.columnSpan() == table->columns();
                for (QTextFrame::iterator b = cell.begin(); !b.atEnd(); ++b)
                    if (!b.currentFrame()) {
                        row.lines += linesOf(doc, b.currentBlock());
                        row.text += b.currentBlock().text() + QLatin1Char('|');
                    }
            }
            rows.push_back(row);
        }
    }
}

/// The page `y` lies on: i with breaks[i] <= y < breaks[i + 1].
int pageOf(const QList<qreal>& breaks, qreal y)
{
    for (int i = 0; i + 1 < breaks.size(); ++i)
        if (y < breaks[i + 1])
            return i;
    return static_cast<int>(breaks.size()) - 2;
}

/// Whether the line lies whole on one page of `breaks`.
bool onOnePage(const QList<qreal>& breaks, const Line& l)
{
    const int page = pageOf(breaks, l.top);
    return l.bottom <= breaks[page + 1] + 0.01;
}

/// Runs whose table rows wrap: long names across the table, long folders, hosts and times in
/// the runs table's narrow columns (as a sweep of many cells on a cluster has them).
std::vector<dpu::RunFolder> manyRuns(int count, QStringList& names)
{
    std::vector<dpu::RunFolder> runs;
    for (int i = 0; i < count; ++i) {
        dpu::RunFolder run;
        run.plan = dpu::test::sweepPlan(0.001 * (i + 1), 3, {"dpu", "rpu", "fu"});
        run.plan.name = "fashion-mlp-k" + std::to_string(i);
        run.dir = "/srv/runs/20261204-2116" + std::to_string(10 + i) + "-fashion-mlp-k0.01-budget-sweep-cell-" + std::to_string(i);
        run.status.known = true;
        run.status.state = "finished";
        run.status.host = "node" + std::to_string(i) + ".cluster.example.org, AMD EPYC 7763 64-Core Processor, 128 cores";
        run.status.device = "cuda:" + std::to_string(i % 4);
        run.status.started = "2026-12-04T21:16:04Z";
        run.status.ended = "2026-12-05T03:41:59Z";
        run.records = dpu::test::joined({dpu::test::strategyRounds("dpu", 1, {0.6, 0.7, 0.75}, {300, 300, 300}, {2000, 2000, 2000}, 40000),
                                         dpu::test::strategyRounds("rpu", 1, {0.5, 0.6, 0.65}, {300, 300, 300}, {2100, 2100, 2100}, 40000),
                                         dpu::test::strategyRounds("fu", 1, {0.6, 0.72, 0.8}, {40000, 40000, 40000}, {40000, 40000, 40000}, 40000)});
        runs.push_back(run);
        names << QStringLiteral("fashion-mlp-k%1 · k=%2 · q4 · deployed=sparse · rounds=3 · epochs=1 · lr=0.005 · batch=128 · run %1")
                     .arg(i)
                     .arg(run.plan.k);
    }
    return runs;
}

/// A PDF writer as ReportWriter sets one up: A4, its margins, 96 dpi.
void setUpAsTheReport(QPdfWriter& writer)
{
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(16, 14, 16, 14), QPageLayout::Millimeter);
    writer.setResolution(96);
}

} // namespace

class TestUiReportPages : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Issue 45: Qt split wrapped rows over two pages ("finished" alone at the top of page 2,
    /// "epochs=1" alone on page 9). Page 1's text for many runs, laid out and cut as the report
    /// prints it: every row's cells on one page, every line whole, a run's name on the page of
    /// its first row.
    void rowsNeverStraddleAPage()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        setUpAsTheReport(writer);
        const qreal height = writer.height();
        int straddledByQt = 0; // rows a cut every page height (Qt's own pagination) would split
        for (const int count : {17, 29, 40}) {
            QStringList names;
            const std::vector<dpu::RunFolder> runs = manyRuns(count, names);
            dpu::ui::ReportOptions options;
            QTextDocument doc;
            dpu::ui::ReportPages::layOut(doc, dpu::ui::ReportText::firstPage(runs, options, names), writer.width(), &writer);
            QList<Row> rows;
            QList<Line> text;
            collect(doc, doc.rootFrame(), rows, text);
            QVERIFY(rows.size() > 4 * count); // both tables: a name row and the rows of each run

            const QList<qreal> breaks = dpu::ui::ReportPages::breaks(doc, height);
            QVERIFY2(breaks.size() >= 4, qPrintable(QString::number(breaks.size()))); // several pages
            QCOMPARE(breaks.front(), 0.0);
            QCOMPARE(breaks.back(), doc.size().height());
            for (int i = 0; i + 1 < breaks.size(); ++i)
                QVERIFY2(breaks[i] < breaks[i + 1] && breaks[i + 1] - breaks[i] <= height + 0.01,
                         qPrintable(QStringLiteral("page %1 of %2 px").arg(i + 1).arg(breaks[i + 1] - breaks[i])));
            for (const Line& l : text)
                QVERIFY(onOnePage(breaks, l));
            for (int r = 0; r < rows.size(); ++r) {
                const Row& row = rows[r];
                QVERIFY(!row.lines.isEmpty());
                const int page = pageOf(breaks, row.lines.front().top);
                bool naive = false;
                for (const Line& l : row.lines) {
                    QVERIFY2(onOnePage(breaks, l) && pageOf(breaks, l.top) == page,
                             qPrintable(QStringLiteral("%1 runs: row \"%2\" split over pages").arg(count).arg(row.text)));
                    naive = naive || static_cast<int>(l.top / height) != static_cast<int>(rows[r].lines.front().top / height)
                            || static_cast<int>(l.bottom / height) != static_cast<int>(l.top / height);
                }
                straddledByQt += naive ? 1 : 0;
                if (row.across && r + 1 < rows.size()) // a run's name is never alone at a page's end
                    QCOMPARE(pageOf(breaks, rows[r + 1].lines.front().top), page);
            }
        }
        // The case the issue saw happens here: cut every page height, rows would split.
        QVERIFY2(straddledByQt > 0, "no row straddles a page boundary: the test does not test the breaks");
    }

    /// A heading never ends a page: it goes over with what it heads.
    void headingsKeepWithWhatFollows()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        setUpAsTheReport(writer);
        QString html;
        for (int i = 0; i < 60; ++i)
            html += QStringLiteral("<h2>Section %1</h2><p>%2</p>").arg(i).arg(QStringLiteral("A sentence of the section. ").repeated(12));
        QTextDocument doc;
        dpu::ui::ReportPages::layOut(doc, html, writer.width(), &writer);
        const QList<qreal> breaks = dpu::ui::ReportPages::breaks(doc, writer.height());
        QVERIFY(breaks.size() >= 4);
        for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
            if (b.blockFormat().headingLevel() == 0)
                continue;
            const QList<Line> heading = linesOf(doc, b), next = linesOf(doc, b.next());
            QVERIFY(!next.isEmpty());
            QCOMPARE(pageOf(breaks, next.front().top), pageOf(breaks, heading.front().top));
        }
    }

    /// A row taller than a page cannot stay whole: it is cut where the page ends, and the cutting
    /// ends (no page of nothing, no endless loop).
    void aRowTallerThanAPageIsCut()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        setUpAsTheReport(writer);
        const QString tall = QStringLiteral("line<br>").repeated(400);
        QTextDocument doc;
        dpu::ui::ReportPages::layOut(doc, QStringLiteral("<table border=\"1\"><tr><td>a</td></tr><tr><td>%1</td></tr></table>").arg(tall),
                                     writer.width(), &writer);
        const qreal height = writer.height();
        QVERIFY(doc.size().height() > 3 * height);
        const QList<qreal> breaks = dpu::ui::ReportPages::breaks(doc, height);
        for (int i = 0; i + 1 < breaks.size(); ++i)
            QVERIFY(breaks[i + 1] > breaks[i] && breaks[i + 1] - breaks[i] <= height + 0.01);
        QVERIFY(breaks.size() <= static_cast<int>(doc.size().height() / height) + 3);
    }
};

QTEST_MAIN(TestUiReportPages)
#include "test_ui_report_pages.moc"
