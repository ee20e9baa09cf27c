// SPDX-License-Identifier: MIT
// ReportWriter: lays out the report's pages with QTextDocument and the window's own chart widgets (the Fleet tab's too).
#include "report/ReportWriter.h"
#include "AtomicFile.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/ChartExporter.h"
#include "charts/FleetAccuracyChart.h"
#include "charts/FleetPlanChart.h"
#include "charts/FrontierChart.h"
#include "charts/SeriesPalette.h"
#include "charts/VersionSpreadChart.h"
#include "dpu/Cost.h"
#include "dpu/Frontier.h"
#include "models/RunBook.h"
#include "report/ReportFleetText.h"
#include "report/ReportFleetPlanText.h"
#include "report/ReportPages.h"
#include "report/ReportText.h"
#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QGraphicsScene>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("dpu::ui::ReportWriter", text);
}

/// Lays the chart out at a screen-like size, then paints its scene scaled into `target`.
/// `layoutScale` above 1 lays it out that much larger (its fonts that much smaller on paper).
void paintChart(QChartView* view, QPainter* painter, const QRectF& target, qreal layoutScale = 1)
{
    // Laid out at the target's own size: the chart's fonts keep their point sizes on paper.
    const QSize size = (target.size() * layoutScale).toSize();
    view->resize(size);
    view->chart()->resize(size);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents();
    view->chart()->scene()->render(painter, target, view->chart()->geometry());
}

/// Draws HTML from `top` down, over as many pages as it needs, each page cut between table rows
/// and lines (ReportPages); returns where it ended on the last page.
qreal paintHtml(QPdfWriter& writer, QPainter& painter, const QString& html, qreal top)
{
    const qreal width = writer.width(), height = writer.height();
    QTextDocument doc;
    ReportPages::layOut(doc, html, width, &writer);
    if (top + doc.size().height() <= height) { // fits below what is on the page
        painter.save();
        painter.translate(0, top);
        doc.drawContents(&painter, QRectF(0, 0, width, height - top));
        painter.restore();
        return top + doc.size().height();
    }
    if (top > 0)
        writer.newPage();
    const QList<qreal> breaks = ReportPages::breaks(doc, height);
    for (int page = 0; page + 1 < breaks.size(); ++page) {
        if (page > 0)
            writer.newPage();
        painter.save();
        painter.translate(0, -breaks[page]);
        doc.drawContents(&painter, QRectF(0, breaks[page], width, breaks[page + 1] - breaks[page]));
        painter.restore();
    }
    return breaks.back() - breaks[breaks.size() - 2];
}

/// The frontier of the finished runs (ids: their index in `runs`).
std::vector<dpu::FrontierGroup> frontierOf(const std::vector<dpu::RunFolder>& runs)
{
    std::vector<dpu::FrontierRun> frontierRuns;
    for (size_t i = 0; i < runs.size(); ++i)
        frontierRuns.push_back({std::to_string(i), runs[i].plan, runs[i].records, runs[i].complete(),
                                dpu::runCostModel(runs[i])});
    return dpu::frontierGroups(frontierRuns);
}

/// The group drawn: the one with the most runs (-1: none).
int largestGroup(const std::vector<dpu::FrontierGroup>& groups)
{
    int shown = -1;
    for (size_t g = 0; g < groups.size(); ++g)
        if (shown < 0 || groups[g].runIds.size() > groups[static_cast<size_t>(shown)].runIds.size())
            shown = static_cast<int>(g);
    return shown;
}

/// The shown group's families, the budget line and, at the budget, the recommendation's point
/// (as the Budget tab marks it).
void fillFrontier(FrontierChart& chart, const std::vector<dpu::RunFolder>& runs, const std::vector<dpu::FrontierGroup>& groups,
                  int shown, const ReportOptions& options)
{
    QList<QPointF> expected;
    if (shown < 0) {
        chart.setFrontier({}, options.budgetBytes, expected);
        return;
    }
    if (options.budgetBytes > 0) {
        const dpu::Recommendation r = ReportText::recommendation(runs, groups, shown, options);
        if (r.found && !std::isnan(r.expectedAccuracy))
            expected << QPointF(r.bytesPerRound, 100.0 * r.expectedAccuracy);
    }
    chart.setFrontier(groups[static_cast<size_t>(shown)].points, options.budgetBytes, expected);
}

/// The fleet page(s): the settings, the fleet's accuracy beside the server's, one version
/// spread per series (two a row, as many rows as fit a page), the table per strategy.
void paintFleetPages(QPdfWriter& writer, QPainter& painter, const ReportFleet& fleet)
{
    const qreal width = writer.width(), height = writer.height(), gap = 12;
    const double period = fleet.config.roundPeriodSeconds;
    // The fleet's series names are long ("server · dpu · k=0.05") and its spread charts small:
    // laid out a quarter larger, legends and titles keep their whole text.
    constexpr qreal layoutScale = 1.25;
    writer.newPage();
    qreal top = paintHtml(writer, painter, ReportFleetText::settings(fleet), 0) + gap;
    // The same charts the Fleet tab draws, filled the way FleetPanel fills them.
    FleetAccuracyChart accuracy;
    for (const ReportFleetSeries& s : fleet.series)
        accuracy.addResult(s.key, s.result, period);
    const qreal accuracyHeight = width * 0.56;
    if (top + accuracyHeight > height) {
        writer.newPage();
        top = 0;
    }
    paintChart(&accuracy, &painter, QRectF(0, top, width, accuracyHeight), layoutScale);
    top += accuracyHeight + gap;
    const qreal cellWidth = (width - gap) / 2, cellHeight = cellWidth * 0.8;
    for (size_t i = 0; i < fleet.series.size(); ++i) {
        const bool right = i % 2 == 1;
        if (!right && top + cellHeight > height) {
            writer.newPage();
            top = 0;
        }
        VersionSpreadChart spread;
        const ReportFleetSeries& s = fleet.series[i];
        spread.showResult(s.key, s.result, s.versions, period);
        paintChart(&spread, &painter, QRectF(right ? cellWidth + gap : 0, top, cellWidth, cellHeight), layoutScale);
        if (right || i + 1 == fleet.series.size())
            top += cellHeight + gap;
    }
    paintHtml(writer, painter, ReportFleetText::table(fleet), top);
}

/// The fleet plan page: the words, the Fleet plan tab's frontier chart, the Pareto set.
void paintFleetPlanPage(QPdfWriter& writer, QPainter& painter, const ReportFleetPlan& plan)
{
    const qreal width = writer.width(), height = writer.height(), gap = 12;
    writer.newPage();
    qreal top = paintHtml(writer, painter, ReportFleetPlanText::words(plan), 0) + gap;
    FleetPlanChart chart;
    chart.setPlan(plan.plan);
    const qreal chartHeight = width * 0.56;
    if (top + chartHeight > height) {
        writer.newPage();
        top = 0;
    }
    paintChart(&chart, &painter, QRectF(0, top, width, chartHeight));
    paintHtml(writer, painter, ReportFleetPlanText::pareto(plan), top + chartHeight + gap);
}

} // namespace

bool ReportWriter::writeFrontierImage(const std::vector<dpu::RunFolder>& runs, const ReportOptions& options,
                                      const QString& path, QString* error, const QSize& size)
{
    const auto groups = frontierOf(runs);
    const int shown = largestGroup(groups);
    if (shown < 0) {
        if (error)
            *error = tr("%1: no finished runs to draw a frontier of").arg(path);
        return false;
    }
    FrontierChart chart;
    chart.resize(size);
    fillFrontier(chart, runs, groups, shown, options);
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive))
        return ChartExporter::toSvg(&chart, path, error);
    if (path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive))
        return ChartExporter::toPng(&chart, path, error);
    if (error)
        *error = tr("%1: expected a .png or .svg file name").arg(path);
    return false;
}

bool ReportWriter::write(const RunBook& book, const ReportOptions& options, const QString& path, QString* error)
{
    const std::vector<dpu::RunFolder> runs = book.reportRuns();
    QStringList runNames; // the tables' names, from the book like the legends'
    for (const BookRun& r : book.runs())
        runNames << book.runName(r.id);
    if (runs.empty()) {
        if (error)
            *error = tr("%1: no runs to report").arg(path);
        return false;
    }
    // The frontier of the finished runs; the largest group is drawn.
    const auto groups = frontierOf(runs);
    const int shown = largestGroup(groups);

    QByteArray pdf;
    QBuffer buffer(&pdf);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(16, 14, 16, 14), QPageLayout::Millimeter);
        writer.setResolution(96);
        QStringList names;
        for (const dpu::RunFolder& run : runs)
            if (!names.contains(QString::fromStdString(run.plan.name)))
                names << QString::fromStdString(run.plan.name);
        writer.setTitle(tr("DPU Planner report: %1").arg(names.join(QStringLiteral(", "))));
        writer.setCreator(QStringLiteral("DPU Planner"));
        QPainter painter(&writer);
        painter.setRenderHint(QPainter::Antialiasing);
        const qreal width = writer.width(), height = writer.height();

        paintHtml(writer, painter, ReportText::firstPage(runs, options, runNames), 0);

        // Page: the two charts of the runs, as the window draws them.
        writer.newPage();
        AccuracyChart accuracy;
        BytesChart bytes;
        std::vector<dpu::Plan> plans;
        for (const dpu::RunFolder& run : runs)
            plans.push_back(run.plan);
        accuracy.setContext(ChartView::sharedContext(plans));
        bytes.setContext(ChartView::sharedContext(plans));
        for (size_t i = 0; i < runs.size(); ++i) {
            const dpu::RunFolder& run = runs[i];
            const int id = book.runs()[static_cast<int>(i)].id;
            const bool band = run.plan.seeds.size() > 1;
            for (const dpu::RoundRecord& r : run.records) {
                const QString key = book.seriesKey(id, r.strategy, r.seed, !band); // the window's name
                accuracy.addRecord(key, r, band);
                bytes.addRecord(key, r, band);
                accuracy.setSeriesDash(key, SeriesPalette::runDash(static_cast<int>(i)));
                bytes.setSeriesDash(key, SeriesPalette::runDash(static_cast<int>(i)));
            }
        }
        const qreal chartHeight = (height - 20) / 2;
        paintChart(&accuracy, &painter, QRectF(0, 0, width, chartHeight));
        paintChart(&bytes, &painter, QRectF(0, chartHeight + 20, width, chartHeight));

        // Page: the frontier with the budget, and what it leaves out.
        writer.newPage();
        FrontierChart frontier;
        fillFrontier(frontier, runs, groups, shown, options);
        const qreal frontierHeight = width * 0.62;
        paintChart(&frontier, &painter, QRectF(0, 0, width, frontierHeight));
        paintHtml(writer, painter, ReportText::frontierNotes(runs, runNames, groups, shown, options), frontierHeight + 12);

        if (!options.fleet.series.empty())
            paintFleetPages(writer, painter, options.fleet);
        if (!options.fleetPlan.plan.candidates.empty())
            paintFleetPlanPage(writer, painter, options.fleetPlan);
    }
    buffer.close();
    return AtomicFile::write(path, pdf, error);
}

} // namespace dpu::ui
